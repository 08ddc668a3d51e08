// The subcommands of onnx-run. Each takes argv with its own name as argv[0] and
// returns the process exit code; errors it does not catch are reported by main().
#pragma once

namespace onnxrun::cli {

// `onnx-run MODEL ...` (also the default when argv[1] names no command).
int run_main(int argc, char** argv);
// `onnx-run bench MODEL ...`: time repeated runs (bench_command.cc).
int bench_main(int argc, char** argv);

// `onnx-run info MODEL [--json]` (info_command.cc).
int info_main(int argc, char** argv);

struct Command {
  const char* name;
  int (*main)(int argc, char** argv);
  const char* summary;
};

}  // namespace onnxrun::cli
