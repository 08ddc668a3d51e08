#include "io/input_file.h"

#include <filesystem>

#include "core/error.h"
#include "io/npy.h"

namespace onnxrun {

NamedTensor read_input_file(const std::string& path) {
  const std::string ext = std::filesystem::path(path).extension().string();
  if (ext == ".npy") return {"", read_npy_file(path)};
  if (ext == ".npz")
    fail(ErrorKind::kUsage, "{}: an .npz holds named arrays; give it with --npz {} (not -i)", path, path);
  return read_tensor_file(path);
}

}  // namespace onnxrun
