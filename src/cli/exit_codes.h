// The command line's exit codes (DESIGN.md): the only place errors become numbers.
#pragma once

#include <string>

#include "core/error.h"

namespace onnxrun::cli {

enum ExitCode : int {
  kExitOk = 0,            // success; every comparison passed
  kExitMismatch = 1,      // an output did not match
  kExitUsage = 2,         // the command line was malformed
  kExitRejected = 3,      // the model or an input was rejected (invalid, unsupported, I/O, unsafe)
  kExitBrokenPipe = 141,  // stdout's reader went away (128 + SIGPIPE, as a shell reports it)
};

int exit_code_for(const Error& e);

// Prints "onnx-run: <message>" as one line on stderr and returns the exit code.
int report_error(const Error& e);

// A run that went through but failed its verdict (an output mismatched, a test failed or
// regressed): "onnx-run: <why>" as one line on stderr, the full report being on stdout.
// Returns kExitMismatch. Flushes stdout first (check_stdout): when the report could not
// be written, that is the one line instead (it throws, exit 3; a closed pipe ends quietly).
int report_mismatch(const std::string& why);

}  // namespace onnxrun::cli
