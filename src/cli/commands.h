// The subcommands of onnx-run. Each takes argv with its own name as argv[0] and
// returns the process exit code; errors it does not catch are reported by main().
// Each also has a check_args: the same parsing and checks of option values, running
// nothing and touching no file (the argument parser alone: fuzz_cli drives it).
//
// Each command's CLI11 definition and its CommandDoc are the one source of its
// interface: --help, the man page and the shell completions are all made from them
// (interface_docs.h), so none of them can drift from the parser.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "cli/cli11_fwd.h"

namespace onnxrun::cli {

// What a command's help and man page say beside its options.
struct CommandDoc {
  struct Example {
    const char* command;  // "onnx-run model.onnx -i x=x.npy"
    const char* what;     // what it does, one line
  };
  struct ExitStatus {
    int code;
    const char* meaning;
  };
  const char* synopsis;     // "onnx-run [run] MODEL [OPTIONS]"
  const char* description;  // a paragraph or two, plain text
  std::vector<Example> examples;
  std::vector<ExitStatus> exit_status;
};

struct Command {
  const char* name;
  int (*main)(int argc, char** argv);
  // Parses and checks as main does; returns the exit code parsing gives (0 for
  // arguments main would go on with). Throws Error(kUsage) for a bad option value.
  int (*check_args)(int argc, char** argv);
  const char* summary;
  // Builds the command's CLI11 app (options bound to storage of its own) and hands
  // it to `use`: what the documents are generated from. Null for --generate.
  void (*with_app)(const std::function<void(CLI::App&)>& use);
  const CommandDoc& (*doc)();
};

// The commands written as one row each (cli/command_row.h), in their files:
const Command& run_command();      // `onnx-run MODEL ...` (the default when argv[1] names no command)
const Command& test_command();     // `onnx-run test PATH...`
const Command& report_command();   // `onnx-run report merge REPORT.json...`: shard reports merged
const Command& info_command();     // `onnx-run info MODEL [--json]`
const Command& bench_command();    // `onnx-run bench MODEL ...`: time repeated runs
const Command& compare_command();  // `onnx-run compare A B ...`: compare two result sets
const Command& verify_command();   // `onnx-run verify MODEL VALUES...`: dumped values checked node by node

// `onnx-run help [COMMAND]`: a command's --help (help_command.cc).
const Command& help_command();
// `onnx-run --generate man|bash-completion|zsh-completion|fish-completion` (hidden):
// the interface documents, made from the commands' definitions (interface_docs.h).
int generate_main(int argc, char** argv);
int generate_check_args(int argc, char** argv);

// The documented commands, run first (help and the documents list them in this order).
const std::vector<const Command*>& documented_commands();
const Command* find_command(const std::string& name);
// Their names, in that order.
std::vector<std::string> command_names();

// The options every command takes, before or after the command's name.
bool is_global_option(const std::string& arg);
bool global_option_takes_value(const std::string& arg);

// What argv selects: the command, and the argv it takes (its name as argv[0]).
// Global options before the command's name (`onnx-run -q test DIR`) move after it.
// `command` is null when argv[1] is neither a command nor plausibly a model but close
// to a command's name: a one-line hint has been printed on stderr (exit 2).
struct CommandLine {
  const Command* command = nullptr;
  int argc = 0;
  char** argv = nullptr;
  // argv's storage (argv points into it).
  std::vector<std::string> args;
  std::vector<char*> pointers;

  CommandLine() = default;
  CommandLine(const CommandLine&) = delete;
  CommandLine& operator=(const CommandLine&) = delete;
  CommandLine(CommandLine&&) = default;  // moves keep the strings (and so argv) in place
};
CommandLine select_command(int argc, char** argv);

}  // namespace onnxrun::cli
