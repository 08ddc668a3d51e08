#include "io/output_files.h"

#include <filesystem>
#include <optional>

#include "core/error.h"
#include "io/output_transaction.h"
#include "io/tensor_file.h"

namespace fs = std::filesystem;

namespace onnxrun {

void make_output_dir(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir))
    fail(ErrorKind::kIo, "cannot create output folder {}: {}", dir, ec ? ec.message() : "not a folder");
}

std::vector<std::string> write_numbered_outputs(const std::string& dir, const std::string& ext, size_t count,
                                                const std::function<void(const std::string&, size_t)>& write_one) {
  make_output_dir(dir);
  // All or none: the caller's transaction holds the files, or this call's own does.
  std::optional<OutputTransaction> own;
  if (!OutputTransaction::current()) own.emplace();
  std::vector<std::string> written;
  for (size_t k = 0; k < count; ++k) {
    const std::string path = (fs::path(dir) / ("output_" + std::to_string(k) + ext)).string();
    write_one(path, k);
    written.push_back(path);
  }
  if (own) own->commit();
  return written;
}

std::vector<std::string> write_output_files(const std::string& dir, const std::vector<std::string>& names,
                                            const std::vector<Tensor>& tensors) {
  return write_numbered_outputs(dir, ".pb", tensors.size(), [&](const std::string& path, size_t k) {
    write_tensor_file(path, tensors[k], names[k]);
  });
}

}  // namespace onnxrun
