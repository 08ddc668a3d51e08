// Fuzz target: the command line's argument parsing, every command (fuzz_cases.h,
// cli_case). Parses and checks only: nothing runs and no file is written. Run with
// -close_fd_mask=3 (tools/fuzz does): help and usage lines are most of what it prints.
#include <cstddef>
#include <cstdint>

#include "fuzz_cases.h"
#include "fuzz_support.h"

using namespace onnxrun;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::setup(fuzz::kRunMemoryLimit);
  fuzz::cli_case(data, size);
  return 0;
}
