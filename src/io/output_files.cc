#include "io/output_files.h"

#include <filesystem>

#include "core/error.h"
#include "io/tensor_file.h"

namespace fs = std::filesystem;

namespace onnxrun {

namespace {

void make_output_dir(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir)) fail(ErrorKind::kIo, "cannot create output folder {}: {}", dir, ec ? ec.message() : "not a folder");
}

}  // namespace

std::string write_streamed_output_file(const std::string& dir, const std::string& name, DType dtype,
                                       const Shape& shape, const std::function<void(const ByteSink&)>& produce) {
  make_output_dir(dir);
  const std::string path = (fs::path(dir) / "output_0.pb").string();
  write_tensor_file_streamed(path, dtype, shape, name, produce);
  return path;
}

std::vector<std::string> write_output_files(const std::string& dir, const std::vector<std::string>& names,
                                            const std::vector<Tensor>& tensors) {
  std::error_code ec;
  make_output_dir(dir);
  std::vector<std::string> written;
  try {
    for (size_t k = 0; k < tensors.size(); ++k) {
      const std::string path = (fs::path(dir) / ("output_" + std::to_string(k) + ".pb")).string();
      write_tensor_file(path, tensors[k], names[k]);
      written.push_back(path);
    }
  } catch (...) {
    for (const std::string& p : written) fs::remove(p, ec);
    throw;
  }
  return written;
}

}  // namespace onnxrun
