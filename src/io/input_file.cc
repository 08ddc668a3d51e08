#include "io/input_file.h"

#include <filesystem>

#include "core/error.h"

namespace onnxrun {

NamedTensor read_input_file(const std::string& path) {
  const std::string ext = std::filesystem::path(path).extension().string();
  if (ext == ".npy" || ext == ".npz")
    fail(ErrorKind::kUnsupported, "{}: numpy files are not supported yet; give a TensorProto .pb", path);
  return read_tensor_file(path);
}

}  // namespace onnxrun
