#include "cli/interface_docs.h"

#include <algorithm>
#include <map>
#include <vector>

#include <fmt/format.h>

#include <CLI/CLI.hpp>

#include "cli/app_common.h"
#include "cli/commands.h"

namespace onnxrun::cli {
namespace {

// One option of one command, as the documents describe it.
struct OptionFacts {
  std::vector<std::string> names;  // "-i", "--input" (short first); a positional: its name
  bool positional = false;
  bool takes_value = false;
  bool global = false;     // in every command (help_text.h: kGlobalGroup, --help, --version)
  std::string value_name;  // "FILE", "N", "[NAME=]FILE|LIST"
  std::string description;
  std::string default_value;         // "" when none is shown
  std::vector<std::string> choices;  // --format: pb npy npz
  // What a shell should complete for the value: "" (nothing), "dir", "file", or file
  // extensions ("onnx", "pb npy"); `after_name_eq` for -i NAME=FILE.
  std::string complete;
  bool after_name_eq = false;
};

// What a value is completed with, by option: the one thing CLI11 does not record.
const std::map<std::string, std::string>& file_kinds() {
  static const std::map<std::string, std::string> kinds{
      {"--json", "json"}, {"--junit", "xml"},    {"--baseline", "json"}, {"--update-baseline", "json"},
      {"--npz", "npz"},   {"--input", "pb npy"}, {"REPORT", "json"},
  };
  return kinds;
}

std::vector<std::string> parse_choices(CLI::Option* o) {
  // CLI::IsMember describes itself as "{pb,npy,npz}".
  std::string d;
  try {
    d = o->get_validator()->get_description();
  } catch (const CLI::Error&) {
    return {};  // CLI11 throws for an option without validators
  }
  if (d.size() < 2 || d.front() != '{' || d.back() != '}') return {};
  return CLI::detail::split(d.substr(1, d.size() - 2), ',');
}

// The options `app` defines and --help shows (hidden ones left out), in definition order.
// `app` is not const: CLI11 hands out validators only through a non-const Option.
std::vector<OptionFacts> option_facts(CLI::App& app) {
  std::vector<OptionFacts> out;
  for (CLI::Option* o : app.get_options()) {
    if (o->get_group().empty()) continue;  // hidden (test hooks)
    OptionFacts f;
    f.positional = !o->nonpositional();
    if (f.positional) {
      f.names.push_back(o->get_name());
    } else {
      for (const std::string& s : o->get_snames()) f.names.push_back("-" + s);
      for (const std::string& l : o->get_lnames()) f.names.push_back("--" + l);
    }
    f.takes_value = f.positional || o->get_type_size() > 0;
    f.global = o->get_group() == kGlobalGroup || o == app.get_help_ptr() || o == app.get_version_ptr();
    f.value_name = o->get_type_name();
    if (f.positional) f.value_name = f.names[0];
    f.description = o->get_description();
    f.default_value = o->get_default_str();
    f.choices = parse_choices(o);
    const std::string& main_name = f.names.back();
    if (auto k = file_kinds().find(main_name); k != file_kinds().end()) f.complete = k->second;
    else if (f.value_name == "DIR") f.complete = "dir";
    else if (f.positional && (main_name == "MODEL" || main_name == "PATH")) f.complete = "onnx";
    f.after_name_eq = f.value_name.rfind("[NAME=]", 0) == 0;
    out.push_back(std::move(f));
  }
  return out;
}

struct CommandFacts {
  const Command* command;
  std::vector<OptionFacts> options;
};

// Every documented command with its options, run first.
std::vector<CommandFacts> all_commands() {
  std::vector<CommandFacts> out;
  for (const Command* c : documented_commands())
    c->with_app([&](CLI::App& app) { out.push_back({c, option_facts(app)}); });
  return out;
}

// --- roff -------------------------------------------------------------------

// Text safe in a roff line: backslashes and hyphens escaped, no line starting with a
// control character.
std::string roff(const std::string& s) {
  std::string out;
  for (char ch : s) {
    if (ch == '\\') out += "\\e";
    else if (ch == '-') out += "\\-";
    else out += ch;
  }
  if (!out.empty() && (out[0] == '.' || out[0] == '\'')) out.insert(0, "\\&");
  return out;
}

// "onnx-run [run] MODEL [OPTIONS]": the program bold, placeholders in capitals italic.
std::string roff_synopsis(const std::string& synopsis) {
  std::string out;
  size_t pos = 0;
  while (pos < synopsis.size()) {
    size_t end = synopsis.find(' ', pos);
    if (end == std::string::npos) end = synopsis.size();
    std::string core = synopsis.substr(pos, end - pos);
    std::string lead, trail;
    while (!core.empty() && (core.front() == '[' || core.front() == '|')) lead += core.front(), core.erase(0, 1);
    while (!core.empty() && (core.back() == ']' || core.back() == '.'))
      trail.insert(0, 1, core.back()), core.pop_back();
    const bool placeholder = !core.empty() && std::all_of(core.begin(), core.end(),
                                                          [](char c) { return (c >= 'A' && c <= 'Z') || c == '_'; });
    const bool literal = core == "onnx-run" || (!core.empty() && core[0] == '-') || find_command(core);
    if (placeholder) core = "\\fI" + roff(core) + "\\fR";
    else if (literal) core = "\\fB" + roff(core) + "\\fR";
    else core = roff(core);
    out += (out.empty() ? "" : " ") + roff(lead) + core + roff(trail);
    pos = end + 1;
  }
  return out;
}

void roff_option(std::string& out, const OptionFacts& o) {
  std::string head;
  for (const std::string& n : o.names) head += (head.empty() ? "" : ", ") + ("\\fB" + roff(n) + "\\fR");
  if (o.positional) head = "\\fI" + roff(o.names[0]) + "\\fR";
  else if (o.takes_value) head += " \\fI" + roff(o.value_name) + "\\fR";
  std::string text = o.description;
  if (!o.choices.empty()) text += fmt::format(" (one of {})", fmt::join(o.choices, ", "));
  if (!o.default_value.empty()) text += " (default: " + o.default_value + ")";
  out += ".TP\n" + head + "\n" + roff(text) + "\n";
}

}  // namespace

std::string option_list() {
  std::string out;
  for (const CommandFacts& c : all_commands())
    for (const OptionFacts& o : c.options)
      for (const std::string& n : o.names) out += fmt::format("{} {}\n", c.command->name, n);
  return out;
}

std::string man_page() {
  const auto commands = all_commands();
  std::string m;
  m += ".\\\" Generated by `onnx-run --generate man` from the command line's definitions; do not edit.\n";
  m += fmt::format(".TH ONNX\\-RUN 1 \"\" \"onnx-run {}\" \"User Commands\"\n", roff(ONNXRUN_VERSION));
  m += ".SH NAME\nonnx\\-run \\- run ONNX models from the command line and check them against ONNX test data\n";
  m += ".SH SYNOPSIS\n";
  for (const CommandFacts& c : commands) m += ".nf\n" + roff_synopsis(c.command->doc().synopsis) + "\n.fi\n";
  m += ".SH DESCRIPTION\n";
  m += roff(
           "onnx-run is a standalone interpreter for ONNX models. It runs a model on TensorProto (.pb), numpy "
           "(.npy, .npz) or literal inputs, runs the ONNX test data format (test_data_set_N/input_K.pb, "
           "output_K.pb) and compares the outputs, runs whole trees of model tests for CI with JSON and JUnit "
           "reports, checks another runtime's dumped values node by node against the definition, and "
           "describes how each node of a model resolves to an operator version. Its operator is "
           "LeakyRelu in versions 1, 6 and 16, in float, double, float16 and bfloat16, bit-exact to the ONNX "
           "definition.") +
       "\n.PP\n" +
       roff(
           "Results go to stdout, diagnostics to stderr; every failure is one line on stderr, starting "
           "\"onnx-run: \". Values print as the shortest decimal that reads back to the same value in "
           "the tensor's own type.") +
       "\n";
  m += ".SH COMMANDS\n";
  for (const CommandFacts& c : commands) {
    m += fmt::format(".SS {}\n", roff_synopsis(c.command->doc().synopsis));
    m += roff(c.command->doc().description) + "\n";
    for (const OptionFacts& o : c.options)
      if (!o.global) roff_option(m, o);
  }
  m += ".SH GLOBAL OPTIONS\n" +
       roff(
           "Every command takes these, before or after the command's name (onnx-run -q test DIR is onnx-run "
           "test -q DIR).") +
       "\n";
  for (const OptionFacts& o : commands.front().options)
    if (o.global) roff_option(m, o);
  m += ".SH ENVIRONMENT\n.TP\n.B ONNXRUN_ISA\n" +
       roff(
           "scalar, avx2, avx512 or avx512bf16: the instruction-set level every kernel (LeakyRelu, the body ops, "
           "the statistics, CRC-32) may use, instead of the best one the CPU supports (onnx-run bench and -v name "
           "the path in use). A level the CPU cannot run is refused.") +
       "\n";
  m += ".SH EXIT STATUS\n";
  for (const CommandFacts& c : commands) {
    m += fmt::format(".SS onnx\\-run {}\n", roff(c.command->name));
    for (const CommandDoc::ExitStatus& s : c.command->doc().exit_status)
      m += fmt::format(".TP\n.B {}\n{}\n", s.code, roff(s.meaning));
  }
  m += ".SH EXAMPLES\n";
  for (const CommandFacts& c : commands)
    for (const CommandDoc::Example& e : c.command->doc().examples)
      m += fmt::format(".TP\n.B {}\n{}\n", roff(e.command), roff(e.what));
  m += ".SH FILES\n.TP\n.I test_data_set_N/input_K.pb, output_K.pb\n" +
       roff(
           "the ONNX test data beside a model: inputs bind by TensorProto name, else by position K; outputs "
           "likewise.") +
       "\n.TP\n.I data.json\n" +
       roff(
           "beside a model: \"rtol\" and \"atol\" override the tolerances its test sets are judged with (onnx-run "
           "MODEL, -d, onnx-run test), each a number for every output or {\"NAME\": number} per output; a NAME that is "
           "no output of the model is a usage error; one that is there but is no readable regular file (a dangling "
           "symbolic link, a folder, a FIFO, no read permission) is an error (exit 3), never ignored.") +
       "\n";
  m += ".SH SEE ALSO\n.BR python3 (1),\n.BR jq (1)\n.PP\n" +
       roff("The ONNX operator and test data documentation (onnx.ai); /usr/share/doc/onnx-run/.") + "\n";
  return m;
}

// --- bash -------------------------------------------------------------------

std::string bash_completion() {
  std::string b;
  b += "# bash completion for onnx-run(1).\n";
  b += "# Generated by `onnx-run --generate bash-completion` from the command line's definitions; do not edit.\n\n";
  // The value kind of an option, per command: "flag", "none", "dir", "file", "ext:E1 E2",
  // "input:E1 E2" (after NAME=), "choice:A B".
  for (const CommandFacts& c : all_commands()) {
    b += fmt::format("_onnx_run_kind_{}() {{\n  case $1 in\n", c.command->name);
    // The positionals: help's COMMAND takes a command; others their words (report's
    // "merge") and files (of their extensions, all files for a plain PATH).
    std::string words, positional = "none", choice_words, exts;
    bool files = false;
    for (const OptionFacts& o : c.options) {
      if (o.positional) {
        if (o.names[0] == "COMMAND") positional = "commands";
        else if (!o.choices.empty())
          choice_words += (choice_words.empty() ? "" : " ") + fmt::format("{}", fmt::join(o.choices, " "));
        else files = true, exts += (exts.empty() || o.complete.empty() ? "" : " ") + o.complete;
        continue;
      }
      std::string kind = !o.takes_value        ? "flag"
                         : !o.choices.empty()  ? "choice:" + fmt::format("{}", fmt::join(o.choices, " "))
                         : o.after_name_eq     ? "input:" + o.complete
                         : o.complete == "dir" ? "dir"
                         : !o.complete.empty() ? "ext:" + o.complete
                                               : "none";
      b += fmt::format("    {}) echo '{}' ;;\n", fmt::join(o.names, "|"), kind);
      for (const std::string& n : o.names) words += (words.empty() ? "" : " ") + n;
    }
    b += "    *) echo '' ;;\n  esac\n}\n";
    b += fmt::format("_onnx_run_opts_{}() {{ echo '{}'; }}\n", c.command->name, words);
    if (!choice_words.empty()) positional = "words:" + choice_words + ";" + (files ? exts : "");
    else if (files) positional = "ext:" + exts;
    b += fmt::format("_onnx_run_positional_{}() {{ echo '{}'; }}\n\n", c.command->name, positional);
  }
  b += fmt::format("_onnx_run_commands='{}'\n", fmt::join(command_names(), " "));
  b += R"BASH(
# Files with one of the extensions $1 (all files when empty) and every folder, for $2.
_onnx_run_files() {
  local f e
  while IFS= read -r f; do
    if [[ -d $f || -z $1 ]]; then COMPREPLY+=("$f"); continue; fi
    for e in $1; do [[ $f == *."$e" ]] && COMPREPLY+=("$f"); done
  done < <(compgen -f -- "$2")
  compopt -o filenames 2>/dev/null || true
}

_onnx_run_value() {  # $1 kind, $2 the word to complete
  local kind=$1 cur=$2
  case $kind in
    dir) while IFS= read -r f; do COMPREPLY+=("$f"); done < <(compgen -d -- "$cur")
         compopt -o filenames 2>/dev/null || true ;;
    ext:*) _onnx_run_files "${kind#ext:}" "$cur" ;;
    input:*)
      # -i [NAME=]FILE: the file part after NAME= (bash splits the word at '=' itself
      # when '=' is in COMP_WORDBREAKS; otherwise the name is kept as a prefix).
      local pre=""
      if [[ $cur == *=* ]]; then pre="${cur%%=*}="; cur="${cur#*=}"; fi
      _onnx_run_files "${kind#input:}" "$cur"
      if [[ -n $pre && $COMP_WORDBREAKS != *=* ]]; then COMPREPLY=("${COMPREPLY[@]/#/$pre}"); fi ;;
    choice:*) COMPREPLY=($(compgen -W "${kind#choice:}" -- "$cur")) ;;
    words:*)  # "words:W1 W2;E1 E2": the words, then files of those extensions
      local spec=${kind#words:}
      COMPREPLY=($(compgen -W "${spec%%;*}" -- "$cur"))
      [[ -n ${spec#*;} ]] && _onnx_run_files "${spec#*;}" "$cur" ;;
    commands) COMPREPLY=($(compgen -W "$_onnx_run_commands" -- "$cur")) ;;
  esac
}

_onnx_run() {
  COMPREPLY=()
  # The words as typed, up to the cursor ('=' kept inside its word).
  local line="${COMP_LINE:0:COMP_POINT}"
  local -a w
  read -ra w <<<"$line"
  [[ $line == *[[:space:]] || ${#w[@]} -eq 0 ]] && w+=("")
  local cur="${w[${#w[@]}-1]}" prev="" cmd=run i
  ((${#w[@]} > 1)) && prev="${w[${#w[@]}-2]}"
  # The command: the first word that is not a global option (nor its value).
  for ((i = 1; i < ${#w[@]} - 1; i++)); do
    case ${w[i]} in
      --threads|--max-memory) ((i++)) ;;
      -*) ;;
      *) [[ " $_onnx_run_commands " == *" ${w[i]} "* ]] && cmd=${w[i]}; break ;;
    esac
  done
  local kind
  if [[ $cur == --*=* ]]; then
    kind=$("_onnx_run_kind_$cmd" "${cur%%=*}")
    local value="${cur#*=}"
    if [[ $COMP_WORDBREAKS == *=* ]]; then _onnx_run_value "$kind" "$value"
    else _onnx_run_value "$kind" "$value"; COMPREPLY=("${COMPREPLY[@]/#/${cur%%=*}=}"); fi
    return 0
  fi
  kind=$("_onnx_run_kind_$cmd" "$prev")
  if [[ -n $kind && $kind != flag ]]; then
    [[ $kind != none ]] && _onnx_run_value "$kind" "$cur"
    return 0
  fi
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$("_onnx_run_opts_$cmd")" -- "$cur"))
    return 0
  fi
  _onnx_run_value "$("_onnx_run_positional_$cmd")" "$cur"
  # `onnx-run <TAB>`: the commands as well as models.
  if ((${#w[@]} == 2)); then COMPREPLY+=($(compgen -W "$_onnx_run_commands" -- "$cur")); fi
  return 0
}
complete -F _onnx_run onnx-run
)BASH";
  return b;
}

// --- zsh and fish -------------------------------------------------------------

std::string zsh_completion() {
  // zsh runs the bash completion through its bashcompinit layer: one definition.
  return "#compdef onnx-run\n"
         "# zsh completion for onnx-run(1): the bash completion through bashcompinit.\n"
         "# Generated by `onnx-run --generate zsh-completion`; do not edit.\n"
         "autoload -U +X bashcompinit && bashcompinit\n" +
         bash_completion();
}

std::string fish_completion() {
  std::string f;
  f += "# fish completion for onnx-run(1).\n";
  f += "# Generated by `onnx-run --generate fish-completion` from the command line's definitions; do not edit.\n";
  const std::string names = fmt::format("{}", fmt::join(command_names(), " "));
  f += "complete -c onnx-run -f\n";
  f += fmt::format("complete -c onnx-run -n 'not __fish_seen_subcommand_from {}' -a '{}'\n", names, names);
  auto quote = [](std::string s) {
    std::string out;
    for (char ch : s) {
      if (ch == '\'' || ch == '\\') out += '\\';
      out += ch;
    }
    return "'" + out + "'";
  };
  for (const CommandFacts& c : all_commands()) {
    const std::string cmd = c.command->name;
    // run is the default: its options apply when no other command was named.
    const std::string cond = cmd == "run"
                                 ? fmt::format("not __fish_seen_subcommand_from {}", names.substr(names.find(' ') + 1))
                                 : "__fish_seen_subcommand_from " + cmd;
    for (const OptionFacts& o : c.options) {
      if (o.positional) {
        if (!o.choices.empty())
          f += fmt::format("complete -c onnx-run -n {} -a {}\n", quote(cond),
                           quote(fmt::format("{}", fmt::join(o.choices, " "))));
        else if (!o.complete.empty()) f += fmt::format("complete -c onnx-run -n {} -F\n", quote(cond));
        continue;
      }
      std::string line = fmt::format("complete -c onnx-run -n {}", quote(cond));
      for (const std::string& n : o.names) line += n.size() == 2 ? " -s " + n.substr(1) : " -l " + n.substr(2);
      if (o.takes_value) {
        line += " -r";
        if (!o.choices.empty()) line += " -a " + quote(fmt::format("{}", fmt::join(o.choices, " ")));
        else if (!o.complete.empty()) line += " -F";
      }
      line += " -d " + quote(o.description.substr(0, o.description.find(" (")));
      f += line + "\n";
    }
  }
  return f;
}

}  // namespace onnxrun::cli
