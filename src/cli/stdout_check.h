// Results go to stdout, and a result that could not be written is a failure, as
// coreutils' close_stdout makes it: `onnx-run MODEL > /dev/full` must not exit 0.
#pragma once

namespace onnxrun::cli {

// Call first thing in main(). A closed stdout (fd 1 not open) is reserved with a
// read-only /dev/null, so that no file the run opens lands on fd 1 and every write to
// stdout fails as it should; SIGPIPE is ignored so that a closed pipe is seen as EPIPE.
void guard_stdout();

// Flushes stdout. Throws Error(kIo) "stdout: <reason>" when anything written to it was
// lost (a full disk, an I/O error, a closed stdout); a closed pipe (EPIPE) throws
// StdoutClosed instead, which main() ends quietly.
void check_stdout();

struct StdoutClosed {};

}  // namespace onnxrun::cli
