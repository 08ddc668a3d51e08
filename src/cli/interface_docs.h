// The documents made from the commands' CLI11 definitions and CommandDocs (commands.h):
// the man page and the bash, zsh and fish completions. The build writes them with the
// hidden `onnx-run --generate KIND [FILE]`, `cmake --install` installs them, and tests
// check them against the parser, so an option cannot be added without them.
#pragma once

#include <string>

namespace onnxrun::cli {

std::string man_page();
std::string bash_completion();
std::string zsh_completion();
std::string fish_completion();
// "COMMAND OPTION" per line, every option of every command: what tests compare with.
std::string option_list();

}  // namespace onnxrun::cli
