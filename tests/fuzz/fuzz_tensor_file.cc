// Fuzz target: a tensor file (.pb, one TensorProto) from bytes, read the way the command
// line reads -i and test-set files (open_tensor_stream, read whole) and by the whole-file
// reader, which must agree; then written back and read again: the round trip must agree
// (fuzz_cases.h, tensor_file_case).
#include <cstddef>
#include <cstdint>

#include "fuzz_cases.h"
#include "fuzz_support.h"

using namespace onnxrun;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::tensor_file_case(data, size, fuzz::setup(fuzz::kModelMemoryLimit));
  return 0;
}
