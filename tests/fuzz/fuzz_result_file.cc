// Fuzz target: a result file (.pb, .npy, .npz) as `onnx-run compare` and `--expected`
// read it (fuzz_cases.h, result_file_case).
#include <cstddef>
#include <cstdint>

#include "fuzz_cases.h"
#include "fuzz_support.h"

using namespace onnxrun;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::result_file_case(data, size, fuzz::setup(fuzz::kRunMemoryLimit));
  return 0;
}
