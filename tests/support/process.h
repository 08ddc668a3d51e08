// Running the onnx-run binary (or any program) from a test and capturing what it says.
#pragma once

#include <string>
#include <vector>

namespace onnxrun::test {

struct ProcessResult {
  int exit_code = -1;  // 128 + signal when killed by a signal
  std::string out;
  std::string err;
};

ProcessResult run_process(const std::vector<std::string>& argv);
// run_process({onnx_run_binary(), args...})
ProcessResult run_cli(const std::vector<std::string>& args);

}  // namespace onnxrun::test
