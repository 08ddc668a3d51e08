#include "io/output_files.h"

#include <filesystem>

#include "core/error.h"
#include "core/fail.h"
#include "io/atomic_file.h"
#include "io/npy.h"
#include "io/npz.h"
#include "io/output_set.h"
#include "io/temp_names.h"
#include "io/tensor_file.h"

namespace fs = std::filesystem;

namespace onnxrun {

std::vector<std::string> write_numbered_outputs(OutputSet& set, const std::string& dir, const std::string& ext,
                                                size_t count,
                                                const std::function<void(const WriteTarget&, size_t)>& write_one,
                                                TensorRole role) {
  const std::shared_ptr<const OutputFolder> folder = set.folder(dir);
  std::vector<std::string> written;
  for (size_t k = 0; k < count; ++k) {
    const WriteTarget target = set.target(folder, numbered_file_name(role, k, ext));
    write_one(target, k);
    written.push_back(target.path);
  }
  return written;
}

std::vector<std::string> write_outputs_as(OutputSet& set, TensorFormat format, const std::string& dir,
                                          const std::vector<std::string>& names, const std::vector<Tensor>& tensors,
                                          TensorRole role) {
  if (format == TensorFormat::kNpz) {
    std::vector<NamedArray> arrays;
    for (size_t k = 0; k < tensors.size(); ++k) arrays.push_back({names[k], tensors[k]});
    const WriteTarget target = set.target(set.folder(dir), bundle_file_name(role));
    write_npz_file(target, arrays);
    return {target.path};
  }
  return write_numbered_outputs(
      set, dir, single_file_extension(format), tensors.size(),
      [&](const WriteTarget& target, size_t k) {
        if (format == TensorFormat::kPb) write_tensor_file(target, tensors[k], names[k]);
        else write_npy_file(target, tensors[k]);
      },
      role);
}

void check_output_targets(TensorFormat format, const std::string& dir, size_t count, TensorRole role) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) return;  // made by the write; a bad parent fails there
  if (!fs::is_directory(dir, ec)) fail(ErrorKind::kIo, "cannot create output folder {}: not a folder", dir);
  const std::shared_ptr<const OutputFolder> folder = OutputFolder::open_existing(dir);
  // What killed runs left goes now, before the run, so that a run that then fails cleans
  // as one that succeeds does (io/owned_temp.h: only temporaries nobody holds).
  remove_stale_temporaries(folder->fd());
  for (const std::string& name : tensor_file_names(format, count, role))
    check_writable_target(WriteTarget(folder, name));
}

}  // namespace onnxrun
