// Fuzz target: a model from bytes, loaded and, when it loads, run on inputs made from
// its declared shapes (fuzz_cases.h, model_case). Any Error is a proper refusal;
// anything else escaping, a crash, a leak or a sanitizer report is a bug. Mutated as a
// ModelProto where it parses as one (proto_mutator.h).
#include <cstddef>
#include <cstdint>

#include "fuzz_cases.h"
#include "fuzz_support.h"

using namespace onnxrun;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::model_case(data, size, fuzz::setup(fuzz::kModelMemoryLimit));
  return 0;
}
