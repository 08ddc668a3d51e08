// Fuzz target: the whole run (suite/run.h) on a model from bytes: loaded, run on made-up
// inputs, outputs written as pb, npy or npz, the report rendered as JSON and text, the
// outputs committed (fuzz_cases.h, run_case). Under a 64 MiB memory limit, so a model
// whose inputs or outputs would be big is refused with an Error. Any Error is fine;
// anything else (a crash, a sanitizer report, another exception, a hang) is a finding.
// Mutated as a ModelProto where it parses as one (proto_mutator.h).
#include <cstddef>
#include <cstdint>

#include "fuzz_cases.h"
#include "fuzz_support.h"

using namespace onnxrun;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::run_case(data, size, fuzz::setup(fuzz::kRunMemoryLimit));
  return 0;
}
