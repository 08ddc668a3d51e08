// onnx-run: the command line. Chooses the command from argv[1], and turns every error
// that escapes into a one-line message and an exit code (exit_codes.h).
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <system_error>

#include <sys/resource.h>

#include <fmt/core.h>

#include "cli/app_common.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/stdout_check.h"
#include "io/cleanup_signals.h"

namespace {

// A run holds a descriptor for every file it will commit until it commits them
// (io/owned_temp.h): a --dump-intermediates of a long graph one per value, past the soft
// limit most shells set (1024). It is raised to the hard limit, as Go and systemd do;
// a run beyond that is refused with "Too many open files" (exit 3), never cut short.
void raise_open_file_limit() {
  rlimit r{};
  if (::getrlimit(RLIMIT_NOFILE, &r) != 0 || r.rlim_cur >= r.rlim_max) return;
  r.rlim_cur = r.rlim_max;
  ::setrlimit(RLIMIT_NOFILE, &r);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace onnxrun::cli;
  guard_stdout();
  raise_open_file_limit();
  // SIGINT/SIGTERM remove the run's temporaries and half-committed outputs (io/cleanup_signals.h).
  onnxrun::install_cleanup_signal_handlers();
  try {
    const CommandLine line = select_command(argc, argv);
    const int code = line.command ? line.command->main(line.argc, line.argv) : kExitUsage;
    check_stdout();  // what is still buffered must reach stdout too
    // Succeeded (1 is an honest mismatch): the warnings held back print now.
    if (code == kExitOk || code == kExitMismatch) print_held_messages();
    return code;
  } catch (const StdoutClosed&) {
    return kExitBrokenPipe;  // the reader went away: nothing to say, as `yes | head` does
  } catch (const std::system_error& e) {
    // fmt::print throws this when a write fails; on stdout it is the result that was lost.
    if (!std::ferror(stdout)) return report_error(onnxrun::Error(onnxrun::ErrorKind::kInternal, e.what()));
    if (e.code().value() == EPIPE) return kExitBrokenPipe;
    return report_error(
        onnxrun::Error(onnxrun::ErrorKind::kIo, fmt::format("stdout: {}", std::strerror(e.code().value()))));
  } catch (const onnxrun::Error& e) {
    return report_error(e);
  } catch (const std::bad_alloc&) {
    fmt::print(stderr, "onnx-run: out of memory{}\n", held_messages_note());
    return kExitRejected;
  } catch (const std::exception& e) {
    return report_error(onnxrun::Error(onnxrun::ErrorKind::kInternal, e.what()));
  }
}
