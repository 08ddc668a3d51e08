#include "cli/exit_codes.h"

#include <string>

#include <fmt/core.h>

#include "cli/logging.h"
#include "cli/stdout_check.h"
#include "core/error.h"

namespace onnxrun::cli {

int exit_code_for(const Error& e) { return e.kind() == ErrorKind::kUsage ? kExitUsage : kExitRejected; }

namespace {

// "onnx-run: <prefix><msg>", warnings held back (logging.h) folded in, as one line.
void print_one_line(const char* prefix, std::string msg) {
  msg += held_messages_note();
  // One line, whatever the message holds: line breaks as spaces, other control
  // characters (from file names, say) escaped rather than sent to the terminal.
  for (char& c : msg)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  fmt::print(stderr, "onnx-run: {}{}\n", prefix, printable(msg));
}

}  // namespace

int report_mismatch(const std::string& why) {
  // The verdict is told only once the full report has reached stdout: a report that was
  // lost is the failure, its one line "stdout: ..." (exit 3), as the run door has it.
  check_stdout();
  print_one_line("", why);
  return kExitMismatch;
}

int report_error(const Error& e) {
  print_one_line(e.kind() == ErrorKind::kInternal ? "internal error: " : "", e.what());
  return exit_code_for(e);
}

}  // namespace onnxrun::cli
