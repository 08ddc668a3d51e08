// Logging to stderr as "onnx-run: <level>: ...". Without -v, messages are held (DESIGN.md:
// a failure is exactly one line): print_held_messages() prints them when the command
// succeeded (exit 0 or 1); held_messages_note() takes them for the error line instead.
#pragma once

#include <string>

namespace onnxrun::cli {

// -v/--verbose (counted) and -q/--quiet.
struct Verbosity {
  int verbose = 0;
  bool quiet = false;
};

// Sets spdlog's default logger: streaming to stderr with -v, else held; -q keeps errors only.
void setup_logging(const Verbosity& v);
void print_held_messages();
// " (after warning: W)" / " (after warnings: W1; W2)", or "" when nothing is held.
std::string held_messages_note();

}  // namespace onnxrun::cli
