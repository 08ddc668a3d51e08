// The man page and the shell completions are generated from the command line's
// definitions (src/cli/interface_docs.h); these tests hold them to the parser: every
// option of every command is in its --help, in the man page under its command, and
// offered by the bash completion for that command; what the build installs is what the
// binary generates; the README names no option that does not exist.
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support/check_exit.h"
#include "support/paths.h"
#include "support/process.h"

using namespace onnxrun::test;
using Catch::Matchers::Contains;

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string generated(const std::string& kind) {
  const auto r = run_cli({"--generate", kind});
  REQUIRE_EXIT(r, 0);
  return r.out;
}

// Command -> its option spellings, as `onnx-run --generate options` lists them.
std::map<std::string, std::vector<std::string>> options_by_command() {
  std::map<std::string, std::vector<std::string>> out;
  std::istringstream in(generated("options"));
  for (std::string command, option; in >> command >> option;) out[command].push_back(option);
  return out;
}

std::string docs_file(const std::string& name) { return std::string(ONNXRUN_BUILD_DIR) + "/docs/" + name; }

// What the generated bash completion offers for `line` (the cursor at its end).
std::set<std::string> complete(const std::string& line, const std::string& cwd = ONNXRUN_SOURCE_DIR) {
  const std::string script =
      "cd \"$2\" && source \"$1\" && COMP_LINE=\"$3\" && COMP_POINT=${#COMP_LINE} && "
      "COMP_WORDBREAKS=$' \\t\\n\"\\'><=;|&(:' && _onnx_run && printf '%s\\n' \"${COMPREPLY[@]}\"";
  const auto r = run_process({"/bin/bash", "-c", script, "bash", docs_file("onnx-run.bash"), cwd, line});
  REQUIRE_EXIT(r, 0);
  std::set<std::string> words;
  std::istringstream in(r.out);
  for (std::string w; std::getline(in, w);)
    if (!w.empty()) words.insert(w);
  return words;
}

std::string roff_escaped(const std::string& option) { return std::regex_replace(option, std::regex("-"), "\\-"); }

}  // namespace

TEST_CASE("the installed man page and completions are what the binary generates", "[cli][docs]") {
  CHECK(read_file(docs_file("onnx-run.1")) == generated("man"));
  CHECK(read_file(docs_file("onnx-run.bash")) == generated("bash-completion"));
  CHECK(read_file(docs_file("_onnx-run")) == generated("zsh-completion"));
  CHECK(read_file(docs_file("onnx-run.fish")) == generated("fish-completion"));
  // The man page is also installed compressed, as Debian wants it; gzip -dc gives it back.
  const auto gz = run_process({"/bin/gzip", "-dc", docs_file("onnx-run.1.gz")});
  REQUIRE_EXIT(gz, 0);
  CHECK(gz.out == generated("man"));
  CHECK_EXIT(run_cli({"--generate", "pdf"}), 2);
}

TEST_CASE("every option of every command is in its --help, the man page and the completions", "[cli][docs]") {
  const auto options = options_by_command();
  REQUIRE(options.size() == 8);  // run, test, report, info, bench, compare, verify, help
  const std::string man = generated("man");
  const std::string fish = generated("fish-completion");
  const size_t global_from = man.find(".SH GLOBAL OPTIONS");
  const std::string global_section = man.substr(global_from, man.find(".SH", global_from + 1) - global_from);
  for (const auto& [command, names] : options) {
    INFO("onnx-run " << command);
    const std::string help = run_cli({command, "--help"}).out;
    const std::set<std::string> offered = complete("onnx-run " + command + " -");
    // The man page's section of this command (global options have a section of their own).
    size_t from = man.find(".SS ");
    while (from != std::string::npos &&
           man.substr(from, man.find('\n', from) - from).find("\\fB" + command + "\\fR") == std::string::npos)
      from = man.find(".SS ", from + 1);
    const size_t to = man.find(".S", from + 1);
    const std::string section = from == std::string::npos ? "" : man.substr(from, to - from);
    CHECK(!section.empty());
    for (const std::string& name : names) {
      INFO(name);
      CHECK_THAT(help, Contains(name));
      if (name[0] != '-') continue;  // a positional
      const std::string entry = "\\fB" + roff_escaped(name) + "\\fR";
      CHECK((section.find(entry) != std::string::npos || global_section.find(entry) != std::string::npos));
      CHECK(offered.count(name) == 1);
      CHECK_THAT(fish, Contains(name.size() == 2 ? "-s " + name.substr(1) : "-l " + name.substr(2)));
    }
  }
}

TEST_CASE("the man page has every section a reader looks for, and renders cleanly", "[cli][docs]") {
  const std::string man = generated("man");
  for (const char* section : {".SH NAME", ".SH SYNOPSIS", ".SH DESCRIPTION", ".SH COMMANDS", ".SH GLOBAL OPTIONS",
                              ".SH ENVIRONMENT", ".SH EXIT STATUS", ".SH EXAMPLES", ".SH SEE ALSO"})
    CHECK_THAT(man, Contains(section));
  CHECK_THAT(man, Contains("ONNXRUN_ISA"));
  for (const char* command : {"run", "test", "report", "info", "bench", "verify", "help"})
    CHECK_THAT(man, Contains(std::string(".SS onnx\\-run ") + command));  // EXIT STATUS per command
  // groff's own warnings (what lintian's man page check reports) are none.
  const auto g = run_process(
      {"/bin/sh", "-c", "LC_ALL=C.UTF-8 groff -man -ww -z -Tutf8 \"$1\" 2>&1", "sh", docs_file("onnx-run.1")});
  CHECK_EXIT(g, 0);
  CHECK(g.out.empty());
  const auto shown =
      run_process({"/bin/sh", "-c", "MANWIDTH=100 man -l \"$1\" 2>&1 | col -b", "sh", docs_file("onnx-run.1")});
  CHECK_THAT(shown.out,
             Contains("SYNOPSIS\n       onnx-run [run] MODEL [OPTIONS]\n       onnx-run test PATH... [OPTIONS]"));
}

TEST_CASE("bash completes options, commands and the right files", "[cli][docs]") {
  CHECK(complete("onnx-run --th") == std::set<std::string>{"--threads"});
  CHECK(complete("onnx-run -q test --ju") == std::set<std::string>{"--junit"});
  CHECK(complete("onnx-run he") == std::set<std::string>{"help"});
  CHECK(complete("onnx-run help ") ==
        std::set<std::string>{"bench", "compare", "help", "info", "report", "run", "test", "verify"});
  CHECK(complete("onnx-run m.onnx --format ") == std::set<std::string>{"npy", "npz", "pb"});
  const std::string set0 = "testdata/leakyrelu_opset16_float_default/test_data_set_0/";
  // -i NAME=<TAB>: the files after '=' (bash completes the part after '=' itself).
  CHECK(complete("onnx-run m.onnx -i x=" + set0) == std::set<std::string>{set0 + "input_0.pb", set0 + "output_0.pb"});
  // Report files: no .onnx offered where a JUnit file goes; folders to walk into are.
  CHECK(complete("onnx-run test --junit testdata/quick/").empty());
  CHECK(complete("onnx-run info testdata/quick/leaky_d").count("testdata/quick/leaky_double.onnx") == 1);
  CHECK(complete("onnx-run test --json=test") == std::set<std::string>{"testdata", "tests"});
  // report's words and its .json reports, not the command list (which it offered).
  CHECK(complete("onnx-run report ").count("merge") == 1);
  CHECK(complete("onnx-run report ").count("test") == 0);
  CHECK(complete("onnx-run report m") == std::set<std::string>{"merge"});
  // compare's A and B are any files, not commands.
  CHECK(complete("onnx-run compare te").count("test") == 0);
}

TEST_CASE("the README and docs name only options that exist", "[cli][docs]") {
  std::set<std::string> known;
  for (const auto& [command, names] : options_by_command()) known.insert(names.begin(), names.end());
  std::string text = read_file(std::string(ONNXRUN_SOURCE_DIR) + "/README.md");
  const size_t from = text.find("## Using it"), to = text.find("## Numerics");
  REQUIRE(from != std::string::npos);
  text = text.substr(from, to - from) + read_file(std::string(ONNXRUN_SOURCE_DIR) + "/docs/regression-runs.md");
  const std::regex option(R"((^|[\s`(\[])(--[a-z][a-z0-9-]*))");
  size_t seen = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), option); it != std::sregex_iterator(); ++it, ++seen) {
    INFO((*it)[2].str());
    CHECK(known.count((*it)[2].str()) == 1);
  }
  CHECK(seen > 20);
}
