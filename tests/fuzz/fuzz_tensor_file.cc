// Fuzz target: a tensor file (.pb, one TensorProto) from bytes, read the way the command
// line reads -i and test-set files (read_tensor_file, so the same code whatever reading
// strategy it uses), then written back and read again: the round trip must agree.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/error.h"
#include "fuzz_support.h"
#include "io/tensor_file.h"

using namespace onnxrun;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& dir = fuzz::setup();
  const std::string path = dir + "/input.pb";
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) std::abort();
    if (size && std::fwrite(data, 1, size, f) != size) std::abort();
    std::fclose(f);
  }
  NamedTensor nt;
  try {
    nt = read_tensor_file(path);
  } catch (const Error&) {
    return 0;
  }
  // A tensor that was read must survive a round trip bit for bit.
  const std::string back = dir + "/back.pb";
  write_tensor_file(back, nt.tensor, nt.name);
  NamedTensor again = read_tensor_file(back);
  if (again.name != nt.name || again.tensor.dtype() != nt.tensor.dtype() || again.tensor.shape() != nt.tensor.shape() ||
      again.tensor.nbytes() != nt.tensor.nbytes() ||
      (nt.tensor.nbytes() && std::memcmp(again.tensor.raw(), nt.tensor.raw(), nt.tensor.nbytes()) != 0))
    std::abort();
  return 0;
}
