// The documents made from the commands' CLI11 definitions and CommandDocs (commands.h):
// the man page and the bash, zsh and fish completions. The build writes them with the
// hidden `onnx-run --generate KIND [FILE]`, `cmake --install` installs them, and tests
// check them against the parser, so an option cannot be added without them.
#pragma once

#include <string>
#include <vector>

#include "cli/cli11_fwd.h"

namespace onnxrun::cli {

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

// The options `app` defines and --help shows (hidden ones left out), in definition order.
std::vector<OptionFacts> option_facts(const CLI::App& app);

std::string man_page();
std::string bash_completion();
std::string zsh_completion();
std::string fish_completion();
// "COMMAND OPTION" per line, every option of every command: what tests compare with.
std::string option_list();

}  // namespace onnxrun::cli
