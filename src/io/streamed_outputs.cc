#include "io/streamed_outputs.h"

#include "core/error.h"
#include "core/fail.h"
#include "io/output_set.h"

namespace onnxrun {

StreamedOutputs::StreamedOutputs(OutputSet& set, TensorFormat format, const std::string& dir,
                                 std::vector<std::string> names, std::vector<DType> dtypes, std::vector<Shape> shapes,
                                 TensorRole role)
    : names_(std::move(names)) {
  if (dtypes.size() != names_.size() || shapes.size() != names_.size())
    fail(ErrorKind::kInternal, "StreamedOutputs: {} names, {} types, {} shapes", names_.size(), dtypes.size(),
         shapes.size());
  const std::vector<std::string> files = tensor_file_names(format, names_.size(), role);
  if (format == TensorFormat::kNpz) {
    layout_.emplace(names_, dtypes, shapes);  // refuses what write_npz_file refuses, before any file exists
    npz_ = std::make_unique<AtomicFile>(set.target(set.folder(dir), files[0]));
    const std::string& path = npz_->path();
    for (size_t k = 0; k < names_.size(); ++k) {
      const std::string head = layout_->local_header(k);  // its CRC patched at finish()
      write_bytes_at(npz_->fd(), head.data(), head.size(), layout_->local_offset(k), path);
    }
    written_.assign(names_.size(), 0);
    crcs_.assign(names_.size(), 0);
    return;
  }
  const std::shared_ptr<const OutputFolder> folder = set.folder(dir);
  for (size_t k = 0; k < names_.size(); ++k)
    files_.push_back(
        std::make_unique<StreamedTensorFile>(set.target(folder, files[k]), format, dtypes[k], shapes[k], names_[k]));
}

StreamedOutputs::~StreamedOutputs() = default;  // each AtomicFile removes its temporary

void StreamedOutputs::append(size_t k, const void* data, size_t n) {
  if (finished_ || k >= names_.size()) fail(ErrorKind::kInternal, "StreamedOutputs: append to output {}", k);
  if (!npz_) return files_[k]->append(data, n);
  if (n > layout_->data_size(k) - written_[k])
    fail(ErrorKind::kInternal, "{}: more data than '{}' holds", npz_->path(), names_[k]);
  write_bytes_at(npz_->fd(), data, n, layout_->data_offset(k) + written_[k], npz_->path());
  crcs_[k] = npz_data_crc(crcs_[k], data, n);
  written_[k] += n;
}

std::vector<std::string> StreamedOutputs::finish() {
  if (finished_) fail(ErrorKind::kInternal, "StreamedOutputs: finished twice");
  finished_ = true;
  if (npz_) {
    const std::string& path = npz_->path();
    for (size_t k = 0; k < names_.size(); ++k) {
      if (written_[k] != layout_->data_size(k))
        fail(ErrorKind::kInternal, "{}: '{}': {} bytes of data written, {} expected", path, names_[k], written_[k],
             layout_->data_size(k));
      layout_->set_data_crc(k, crcs_[k]);
      const std::string head = layout_->local_header(k);
      write_bytes_at(npz_->fd(), head.data(), head.size(), layout_->local_offset(k), path);
    }
    const std::string central = layout_->central_directory();
    write_bytes_at(npz_->fd(), central.data(), central.size(), layout_->central_offset(), path);
    npz_->commit();
    return {path};
  }
  for (const auto& f : files_) f->check_complete();  // a short output: none of them is handed over
  std::vector<std::string> written;
  for (const auto& f : files_) {
    f->commit();  // into the set
    written.push_back(f->path());
  }
  return written;
}

}  // namespace onnxrun
