#include "cli/commands.h"

#include <string>
#include <vector>

#include <fmt/core.h>

#include "cli/suggest.h"
#include "core/error.h"

namespace onnxrun::cli {
namespace {

// Hidden: makes the man page and the completions (the build runs it).
const Command kGenerate{"--generate", generate_main, generate_check_args, "", nullptr, nullptr};

}  // namespace

const std::vector<const Command*>& documented_commands() {
  static const std::vector<const Command*> all{&run_command(),    &test_command(),  &report_command(),
                                               &info_command(),   &bench_command(), &compare_command(),
                                               &verify_command(), &help_command()};
  return all;
}

const Command* find_command(const std::string& name) {
  for (const Command* c : documented_commands())
    if (name == c->name) return c;
  return name == kGenerate.name ? &kGenerate : nullptr;
}

std::vector<std::string> command_names() {
  std::vector<std::string> names;
  for (const Command* c : documented_commands()) names.push_back(c->name);
  return names;
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
    command = &run_command();  // run, with argv[0] as its name
    if (first < line.args.size()) {
      if (auto near = misspelt_command(line.args[first], command_names())) {
        fmt::print(
            stderr,
            "onnx-run: '{}' is neither a command nor a file; did you mean `onnx-run {}`? (see onnx-run --help)\n",
            printable(line.args[first]), *near);
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
