#include "cli/exit_codes.h"

#include <string>

#include <fmt/core.h>

#include "cli/logging.h"
#include "core/error.h"

namespace onnxrun::cli {

int exit_code_for(const Error& e) { return e.kind() == ErrorKind::kUsage ? kExitUsage : kExitRejected; }

int report_error(const Error& e) {
  // Warnings held back (logging.h) go into the one line, not before it.
  std::string msg = e.what() + held_messages_note();
  // One line, whatever the message holds: line breaks as spaces, other control
  // characters (from file names, say) escaped rather than sent to the terminal.
  for (char& c : msg)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  const char* prefix = e.kind() == ErrorKind::kInternal ? "internal error: " : "";
  fmt::print(stderr, "onnx-run: {}{}\n", prefix, printable(msg));
  return exit_code_for(e);
}

}  // namespace onnxrun::cli
