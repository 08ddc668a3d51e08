// onnx-run: the command line. Chooses the command from argv[1], and turns every error
// that escapes into a one-line message and an exit code (exit_codes.h).
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iterator>
#include <new>
#include <string>
#include <system_error>
#include <vector>

#include <fmt/core.h>

#include "cli/app_common.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/stdout_check.h"
#include "cli/test_command.h"
#include "cli/suggest.h"
#include "io/cleanup_signals.h"

namespace onnxrun::cli {
namespace {

// Subcommands by name; anything else in argv[1] is a model path for `run`.
constexpr Command kCommands[] = {
    {"run", run_main, "run a model (the default: `onnx-run MODEL` is `onnx-run run MODEL`)"},
    {"test", test_main, "run every model test under PATH... and report (JSON, JUnit, baselines)"},
    {"info", info_main, "what a model is and how onnx-run resolves it"},
    {"bench", bench_main, "time repeated runs of a model, or of memcpy"},
};

int dispatch(int argc, char** argv) {
  if (argc > 1) {
    for (const Command& c : kCommands)
      if (std::strcmp(argv[1], c.name) == 0) return c.main(argc - 1, argv + 1);
    std::vector<std::string> names;
    for (const Command& c : kCommands) names.push_back(c.name);
    if (auto near = misspelt_command(argv[1], names)) {
      fmt::print(stderr, "onnx-run: '{}' is neither a command nor a file; did you mean `onnx-run {}`? (see onnx-run --help)\n",
                 argv[1], *near);
      return kExitUsage;
    }
  }
  return run_main(argc, argv);
}

}  // namespace
}  // namespace onnxrun::cli

int main(int argc, char** argv) {
  using namespace onnxrun::cli;
  guard_stdout();
  // SIGINT/SIGTERM remove the run's temporaries and half-committed outputs (io/cleanup_signals.h).
  onnxrun::install_cleanup_signal_handlers();
  try {
    const int code = dispatch(argc, argv);
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
    return report_error(onnxrun::Error(onnxrun::ErrorKind::kIo, fmt::format("stdout: {}", std::strerror(e.code().value()))));
  } catch (const onnxrun::Error& e) {
    return report_error(e);
  } catch (const std::bad_alloc&) {
    fmt::print(stderr, "onnx-run: out of memory{}\n", held_messages_note());
    return kExitRejected;
  } catch (const std::exception& e) {
    return report_error(onnxrun::Error(onnxrun::ErrorKind::kInternal, e.what()));
  }
}
