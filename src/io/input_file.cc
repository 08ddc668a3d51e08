#include "io/input_file.h"

#include <filesystem>
#include <new>

#include "core/error.h"
#include "core/fail.h"
#include "io/npy.h"

namespace onnxrun {

namespace {

NamedTensor read_any(const std::string& path, std::optional<DType> declared) {
  const std::string ext = std::filesystem::path(path).extension().string();
  if (ext == ".npy") return {"", bfloat16_from_bits(read_npy_file(path), declared)};
  if (ext == ".npz")
    fail(ErrorKind::kUsage, "{}: an .npz holds named arrays; give it with --npz {} (not -i)", path, path);
  return read_tensor_file(path);
}

}  // namespace

NamedTensor read_input_file(const std::string& path, std::optional<DType> declared) {
  try {
    return read_any(path, declared);
  } catch (const std::bad_alloc&) {
    // The system said no before the memory limit did: still a refusal naming the file.
    fail(ErrorKind::kSecurity, "{}: out of memory while reading it", path);
  }
}

}  // namespace onnxrun
