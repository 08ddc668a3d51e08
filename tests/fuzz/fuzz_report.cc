// Fuzz target: a JSON test report as `onnx-run report merge` and `--baseline` read it
// (fuzz_cases.h, report_case).
#include <cstddef>
#include <cstdint>

#include "fuzz_cases.h"
#include "fuzz_support.h"

using namespace onnxrun;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::report_case(data, size, fuzz::setup(fuzz::kRunMemoryLimit));
  return 0;
}
