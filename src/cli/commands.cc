#include "cli/commands.h"

#include <cstring>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "cli/suggest.h"

namespace onnxrun::cli {
namespace {

// Subcommands by name; anything else in argv[1] is a model path for `run`. run and help
// parse argv their own way (a model path or a command's name first); the others are rows
// (cli/command_row.h).
const Command kRun{"run",          run_main,
                   run_check_args, "run a model (the default: `onnx-run MODEL` is `onnx-run run MODEL`)",
                   run_with_app,   run_doc};
const Command kHelp{"help",        help_main, help_check_args, "print the help of onnx-run or of one command",
                    help_with_app, help_doc};
// Hidden: makes the man page and the completions (the build runs it).
const Command kGenerate{"--generate", generate_main, generate_check_args, "", nullptr, nullptr};

}  // namespace

const std::vector<const Command*>& documented_commands() {
  static const std::vector<const Command*> all{&kRun,
                                               &test_command(),
                                               &report_command(),
                                               &info_command(),
                                               &bench_command(),
                                               &compare_command(),
                                               &verify_command(),
                                               &kHelp};
  return all;
}

const Command* find_command(const std::string& name) {
  for (const Command* c : documented_commands())
    if (name == c->name) return c;
  return name == kGenerate.name ? &kGenerate : nullptr;
}

bool global_option_takes_value(const std::string& arg) { return arg == "--max-memory" || arg == "--threads"; }

bool is_global_option(const std::string& arg) {
  if (arg == "--verbose" || arg == "--quiet" || global_option_takes_value(arg)) return true;
  if (arg.rfind("--max-memory=", 0) == 0 || arg.rfind("--threads=", 0) == 0) return true;
  // -v, -vv, -q, -qv: a cluster of the short global flags.
  return arg.size() >= 2 && arg[0] == '-' && arg.find_first_not_of("vq", 1) == std::string::npos;
}

CommandLine select_command(int argc, char** argv) {
  CommandLine line;
  line.args.assign(argv, argv + argc);
  // Global options may come first: `onnx-run -q test DIR` is `onnx-run test -q DIR`.
  size_t first = 1;
  while (first < line.args.size() && is_global_option(line.args[first]))
    first += global_option_takes_value(line.args[first]) && first + 1 < line.args.size() ? 2 : 1;
  const Command* command = nullptr;
  if (first < line.args.size()) command = find_command(line.args[first]);
  if (command) {
    // [onnx-run, globals..., COMMAND, rest...] -> [COMMAND, globals..., rest...]
    std::vector<std::string> moved{line.args[first]};
    moved.insert(moved.end(), line.args.begin() + 1, line.args.begin() + static_cast<std::ptrdiff_t>(first));
    moved.insert(moved.end(), line.args.begin() + static_cast<std::ptrdiff_t>(first) + 1, line.args.end());
    line.args = std::move(moved);
  } else {
    command = &kRun;  // run, with argv[0] as its name
    if (first < line.args.size()) {
      std::vector<std::string> names;
      for (const Command* c : documented_commands()) names.push_back(c->name);
      if (auto near = misspelt_command(line.args[first], names)) {
        fmt::print(
            stderr,
            "onnx-run: '{}' is neither a command nor a file; did you mean `onnx-run {}`? (see onnx-run --help)\n",
            line.args[first], *near);
        command = nullptr;
      }
    }
  }
  line.command = command;
  for (std::string& a : line.args) line.pointers.push_back(a.data());
  line.pointers.push_back(nullptr);
  line.argc = static_cast<int>(line.args.size());
  line.argv = line.pointers.data();
  return line;
}

}  // namespace onnxrun::cli
