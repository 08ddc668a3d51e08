#include "cli/commands.h"

#include <cstring>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "cli/suggest.h"

namespace onnxrun::cli {
namespace {

// Subcommands by name; anything else in argv[1] is a model path for `run`.
constexpr Command kCommands[] = {
    {"run", run_main, run_check_args, "run a model (the default: `onnx-run MODEL` is `onnx-run run MODEL`)"},
    {"test", test_main, test_check_args, "run every model test under PATH... and report (JSON, JUnit, baselines)"},
    {"info", info_main, info_check_args, "what a model is and how onnx-run resolves it"},
    {"bench", bench_main, bench_check_args, "time repeated runs of a model, or of memcpy"},
};

}  // namespace

CommandLine select_command(int argc, char** argv) {
  if (argc > 1) {
    for (const Command& c : kCommands)
      if (std::strcmp(argv[1], c.name) == 0) return {&c, argc - 1, argv + 1};
    std::vector<std::string> names;
    for (const Command& c : kCommands) names.push_back(c.name);
    if (auto near = misspelt_command(argv[1], names)) {
      fmt::print(stderr,
                 "onnx-run: '{}' is neither a command nor a file; did you mean `onnx-run {}`? (see onnx-run --help)\n",
                 argv[1], *near);
      return {nullptr, argc, argv};
    }
  }
  return {&kCommands[0], argc, argv};  // run, with argv[0] as its name
}

}  // namespace onnxrun::cli
