#include "io/tensor_format.h"

#include <filesystem>
#include <optional>

#include "core/error.h"
#include "core/fail.h"
#include "io/atomic_file.h"
#include "io/npy.h"
#include "io/npz.h"
#include "io/output_files.h"
#include "io/output_transaction.h"
#include "io/owned_temp.h"
#include "io/temp_names.h"

namespace fs = std::filesystem;

namespace onnxrun {

TensorFormat parse_tensor_format(const std::string& name) {
  if (name == "pb") return TensorFormat::kPb;
  if (name == "npy") return TensorFormat::kNpy;
  if (name == "npz") return TensorFormat::kNpz;
  fail(ErrorKind::kUsage, "--format {}: expected pb, npy or npz", name);
}

std::vector<std::string> write_outputs_as(TensorFormat format, const std::string& dir,
                                          const std::vector<std::string>& names, const std::vector<Tensor>& tensors,
                                          TensorRole role) {
  if (format == TensorFormat::kPb) return write_output_files(dir, names, tensors, role);
  if (format == TensorFormat::kNpz) {
    std::vector<NamedArray> arrays;
    for (size_t k = 0; k < tensors.size(); ++k) arrays.push_back({names[k], tensors[k]});
    std::optional<OutputTransaction> own;  // takes back a folder made for the file
    if (!OutputTransaction::current()) own.emplace();
    const WriteTarget target(make_output_folder(dir), bundle_file_name(role));
    write_npz_file(target, arrays);
    if (own) own->commit();
    return {target.path};
  }
  return write_numbered_outputs(
      dir, ".npy", tensors.size(), [&](const WriteTarget& target, size_t k) { write_npy_file(target, tensors[k]); },
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
  if (format == TensorFormat::kNpz) return check_writable_target(WriteTarget(folder, bundle_file_name(role)));
  const char* ext = format == TensorFormat::kPb ? ".pb" : ".npy";
  for (size_t k = 0; k < count; ++k) check_writable_target(WriteTarget(folder, numbered_file_name(role, k, ext)));
}

std::string file_name_for_value(const std::string& value_name) {
  std::string out;
  for (char c : value_name) {
    const bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
    out += ok ? c : '_';
  }
  if (out.empty() || out[0] == '.') out = "_" + out;
  return out;
}

}  // namespace onnxrun
