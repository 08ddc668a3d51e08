// The subcommands of onnx-run. Each takes argv with its own name as argv[0] and
// returns the process exit code; errors it does not catch are reported by main().
// Each also has a check_args: the same parsing and checks of option values, running
// nothing and touching no file (the argument parser alone: fuzz_cli drives it).
#pragma once

namespace onnxrun::cli {

// `onnx-run MODEL ...` (also the default when argv[1] names no command).
int run_main(int argc, char** argv);
int run_check_args(int argc, char** argv);
// `onnx-run test PATH...` (test_command.cc).
int test_main(int argc, char** argv);
int test_check_args(int argc, char** argv);
// `onnx-run bench MODEL ...`: time repeated runs (bench_command.cc).
int bench_main(int argc, char** argv);
int bench_check_args(int argc, char** argv);
// `onnx-run info MODEL [--json]` (info_command.cc).
int info_main(int argc, char** argv);
int info_check_args(int argc, char** argv);

struct Command {
  const char* name;
  int (*main)(int argc, char** argv);
  // Parses and checks as main does; returns the exit code parsing gives (0 for
  // arguments main would go on with). Throws Error(kUsage) for a bad option value.
  int (*check_args)(int argc, char** argv);
  const char* summary;
};

// What argv[1] selects: the command, and the argv it takes (its name as argv[0]).
// `command` is null when argv[1] is neither a command nor plausibly a model but close
// to a command's name: a one-line hint has been printed on stderr (exit 2).
struct CommandLine {
  const Command* command;
  int argc;
  char** argv;
};
CommandLine select_command(int argc, char** argv);

}  // namespace onnxrun::cli
