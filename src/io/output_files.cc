#include "io/output_files.h"

#include <filesystem>
#include <optional>
#include <vector>

#include "core/error.h"
#include "core/fail.h"
#include "io/output_transaction.h"
#include "io/tensor_file.h"

namespace fs = std::filesystem;

namespace onnxrun {

std::string numbered_file_path(const std::string& dir, TensorRole role, size_t k, const std::string& ext) {
  const char* stem = role == TensorRole::kInputs ? "input_" : "output_";
  return (fs::path(dir) / (stem + std::to_string(k) + ext)).string();
}

std::string bundle_file_path(const std::string& dir, TensorRole role) {
  return (fs::path(dir) / (role == TensorRole::kInputs ? "inputs.npz" : "outputs.npz")).string();
}

void make_output_dir(const std::string& dir) {
  // The folders that are not there yet, outermost first, so that a run that fails can
  // take back what it made (OutputTransaction::add_made_folder).
  std::vector<fs::path> missing;
  std::error_code ec;
  fs::path outer = fs::path(dir).lexically_normal();
  if (outer.filename().empty()) outer = outer.parent_path();  // "out/"
  for (fs::path p = outer; !p.empty() && !fs::exists(fs::symlink_status(p, ec)); p = p.parent_path()) {
    missing.insert(missing.begin(), p);
    if (p == p.parent_path()) break;
  }
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir))
    fail(ErrorKind::kIo, "cannot create output folder {}: {}", dir, ec ? ec.message() : "not a folder");
  if (OutputTransaction* tx = OutputTransaction::current())
    for (const fs::path& p : missing) tx->add_made_folder(p.string());
}

std::vector<std::string> write_numbered_outputs(const std::string& dir, const std::string& ext, size_t count,
                                                const std::function<void(const std::string&, size_t)>& write_one,
                                                TensorRole role) {
  make_output_dir(dir);
  // All or none: the caller's transaction holds the files, or this call's own does.
  std::optional<OutputTransaction> own;
  if (!OutputTransaction::current()) own.emplace();
  std::vector<std::string> written;
  for (size_t k = 0; k < count; ++k) {
    const std::string path = numbered_file_path(dir, role, k, ext);
    write_one(path, k);
    written.push_back(path);
  }
  if (own) own->commit();
  return written;
}

std::vector<std::string> write_output_files(const std::string& dir, const std::vector<std::string>& names,
                                            const std::vector<Tensor>& tensors, TensorRole role) {
  return write_numbered_outputs(
      dir, ".pb", tensors.size(),
      [&](const std::string& path, size_t k) { write_tensor_file(path, tensors[k], names[k]); }, role);
}

}  // namespace onnxrun
