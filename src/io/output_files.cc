#include "io/output_files.h"

#include <optional>
#include <vector>

#include "core/error.h"
#include "core/fail.h"
#include "io/output_transaction.h"
#include "io/tensor_file.h"

namespace onnxrun {

std::string numbered_file_name(TensorRole role, size_t k, const std::string& ext) {
  return (role == TensorRole::kInputs ? "input_" : "output_") + std::to_string(k) + ext;
}

std::string bundle_file_name(TensorRole role) { return role == TensorRole::kInputs ? "inputs.npz" : "outputs.npz"; }

std::vector<std::string> write_numbered_outputs(const std::string& dir, const std::string& ext, size_t count,
                                                const std::function<void(const WriteTarget&, size_t)>& write_one,
                                                TensorRole role) {
  // All or none: the caller's transaction holds the files, or this call's own does (made
  // first, so that it takes back a folder made for them).
  std::optional<OutputTransaction> own;
  if (!OutputTransaction::current()) own.emplace();
  const std::shared_ptr<const OutputFolder> folder = make_output_folder(dir);
  std::vector<std::string> written;
  for (size_t k = 0; k < count; ++k) {
    const WriteTarget target(folder, numbered_file_name(role, k, ext));
    write_one(target, k);
    written.push_back(target.path);
  }
  if (own) own->commit();
  return written;
}

std::vector<std::string> write_output_files(const std::string& dir, const std::vector<std::string>& names,
                                            const std::vector<Tensor>& tensors, TensorRole role) {
  return write_numbered_outputs(
      dir, ".pb", tensors.size(),
      [&](const WriteTarget& target, size_t k) { write_tensor_file(target, tensors[k], names[k]); }, role);
}

}  // namespace onnxrun
