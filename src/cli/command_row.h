// A command as one row: its options bound to its own Args, the checks of their values, and
// the run. row_command() makes the Command (cli/commands.h) of a row: one generic parse,
// check and main for every command written this way, so none writes its own. Include only
// from a command's file (it needs CLI11).
//
// Args must have a `common` member (CommonOptions, cli/app_common.h): main applies it,
// check_args only checks it.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/app_common.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"

namespace onnxrun::cli {

template <class Args>
struct CommandRow {
  const char* name;
  const char* summary;  // one line, for `onnx-run --help`
  const CommandDoc& (*doc)();
  // The command's options, bound to `a`.
  void (*build)(CLI::App& app, Args& a);
  // The checks of option values beyond CLI11's, touching no file (what check_args runs,
  // and so what fuzz_cli reaches). Throws Error(kUsage). Null when CLI11's are all.
  void (*check)(Args& a);
  // The command, its arguments parsed and the common options applied; the exit code.
  int (*run)(Args& a);
  // After a successful parse, before check or run: what only the parser can tell (which
  // options were given), turned into Args. May be null.
  void (*parsed)(const CLI::App& app, Args& a) = nullptr;
  // argv as the parser is to see it. Null: as given.
  std::vector<std::string> (*args)(int argc, char** argv) = nullptr;
};

namespace row_detail {

template <class Args, const CommandRow<Args>& kRow>
std::optional<int> parse(int argc, char** argv, Args& a) {
  CLI::App app;
  kRow.build(app, a);
  refuse_empty_paths(app);
  std::vector<std::string> args = kRow.args ? kRow.args(argc, argv) : std::vector<std::string>(argv, argv + argc);
  std::vector<char*> arg_ptrs;
  for (std::string& arg : args) arg_ptrs.push_back(arg.data());
  if (auto code = parse_args(app, static_cast<int>(arg_ptrs.size()), arg_ptrs.data())) return code;
  if (kRow.parsed) kRow.parsed(app, a);
  return std::nullopt;
}

template <class Args, const CommandRow<Args>& kRow>
int main(int argc, char** argv) {
  Args a;
  if (auto code = parse<Args, kRow>(argc, argv, a)) return *code;
  apply_common_options(a.common);
  return kRow.run(a);
}

template <class Args, const CommandRow<Args>& kRow>
int check_args(int argc, char** argv) {
  Args a;
  if (auto code = parse<Args, kRow>(argc, argv, a)) return *code;
  check_common_options(a.common);
  if (kRow.check) kRow.check(a);
  return kExitOk;
}

template <class Args, const CommandRow<Args>& kRow>
void with_app(const std::function<void(CLI::App&)>& use) {
  Args a;
  CLI::App app;
  kRow.build(app, a);
  use(app);
}

}  // namespace row_detail

// The Command of `kRow` (a row with static storage), made once.
template <class Args, const CommandRow<Args>& kRow>
const Command& row_command() {
  static const Command command{kRow.name,    row_detail::main<Args, kRow>,     row_detail::check_args<Args, kRow>,
                               kRow.summary, row_detail::with_app<Args, kRow>, kRow.doc};
  return command;
}

}  // namespace onnxrun::cli
