// `onnx-run help [COMMAND]`: what `onnx-run [COMMAND] --help` prints, as git and
// cargo spell it. A word that names no command is a usage error with the nearest one.
#include <optional>
#include <string>

#include <fmt/format.h>

#include <CLI/CLI.hpp>

#include "cli/app_common.h"
#include "cli/command_row.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/help_text.h"
#include "cli/suggest.h"

namespace onnxrun::cli {
namespace {

struct HelpArgs {
  std::string command;
  const Command* named = nullptr;  // what `command` names, once parsed
  CommonOptions common;
};

const CommandDoc& help_doc() {
  static const CommandDoc doc{"onnx-run help [COMMAND]",
                              "Prints the help of onnx-run (without COMMAND) or of one command, as "
                              "`onnx-run [COMMAND] --help` does.",
                              {{"onnx-run help test", "the options of onnx-run test"}},
                              {{0, "printed"}, {2, "COMMAND is not a command"}}};
  return doc;
}

void build_help_app(CLI::App& app, HelpArgs& a) {
  describe_app(app, "onnx-run help", help_doc());
  app.description("onnx-run help: the help of onnx-run, or of one command");
  add_common_options(app, a.common, "accepted as everywhere; help runs nothing");
  app.add_option("COMMAND", a.command, fmt::format("the command to explain ({})", fmt::join(command_names(), ", ")))
      ->type_name("NAME");
}

// Parsed as a row is, but run its own way: the common options are not applied (the
// command named applies its own), and a word that names no command is a usage error.
const CommandRow<HelpArgs> kHelpRow{
    "help", "print the help of onnx-run or of one command", help_doc, build_help_app, nullptr, nullptr};

// Parses argv into `a`; the exit code when that ends the command, a word that names no
// command included (a usage error).
std::optional<int> parse_help_args(int argc, char** argv, HelpArgs& a) {
  if (auto code = row_detail::parse<HelpArgs, kHelpRow>(argc, argv, a)) return code;
  a.named = find_command(a.command.empty() ? "run" : a.command);
  if (a.named && a.named->doc) return std::nullopt;
  const auto near = nearest_name(a.command, command_names());
  fmt::print(stderr, "onnx-run: help: '{}' is not a command{} (commands: {})\n", a.command,
             near ? fmt::format("; did you mean `onnx-run help {}`?", *near) : "", fmt::join(command_names(), ", "));
  return kExitUsage;
}

int help_main(int argc, char** argv) {
  HelpArgs a;
  if (auto code = parse_help_args(argc, argv, a)) return *code;
  std::string name = a.named->name, help = "--help";
  char* args[] = {name.data(), help.data(), nullptr};
  return a.named->main(2, args);
}

int help_check_args(int argc, char** argv) {
  HelpArgs a;
  return parse_help_args(argc, argv, a).value_or(kExitOk);
}

}  // namespace

const Command& help_command() {
  static const Command command{
      kHelpRow.name, help_main, help_check_args, kHelpRow.summary, row_detail::with_app<HelpArgs, kHelpRow>, help_doc};
  return command;
}

}  // namespace onnxrun::cli
