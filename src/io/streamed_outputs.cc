#include "io/streamed_outputs.h"

#include <filesystem>

#include "core/error.h"
#include "core/fail.h"
#include "io/atomic_file.h"
#include "io/output_set.h"
#include "io/temp_names.h"

namespace fs = std::filesystem;

namespace onnxrun {

void check_output_targets(TensorFormat format, const std::string& dir, size_t count, TensorRole role,
                          const std::vector<std::string>& reads, const char* option) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) return;  // made by the write; a bad parent fails there
  if (!fs::is_directory(dir, ec)) fail(ErrorKind::kIo, "cannot create output folder {}: not a folder", dir);
  const std::shared_ptr<const OutputFolder> folder = OutputFolder::open_existing(dir);
  // What killed runs left goes now, before the run, so that a run that then fails cleans
  // as one that succeeds does (io/owned_temp.h: only temporaries nobody holds).
  remove_stale_temporaries(folder->fd());
  std::vector<FileEntry> read_entries;  // every link followed, the last one too
  for (const std::string& r : reads) read_entries.push_back(file_entry(fs::weakly_canonical(r, ec).string()));
  for (const std::string& name : tensor_file_names(format, count, role)) {
    check_writable_target(WriteTarget(folder, name));
    const FileEntry entry = file_entry(*folder, name);
    for (size_t k = 0; k < reads.size(); ++k)
      if (read_entries[k] == entry)
        fail(ErrorKind::kUsage, "{} {}: {} is a file this run reads; writing {} there would replace it", option, dir,
             reads[k], name);
  }
}

StreamedOutputs::StreamedOutputs(OutputSet& set, TensorFormat format, const std::string& dir,
                                 const std::vector<ValueSpec>& values, TensorRole role)
    : count_(values.size()) {
  const std::vector<std::string> files = tensor_file_names(format, count_, role);
  if (format == TensorFormat::kNpz) {
    NpzLayout layout(values);  // refuses what an .npz cannot hold, before any file exists
    npz_ = std::make_unique<StreamedNpzFile>(set.target(set.folder(dir), files[0]), std::move(layout));
    return;
  }
  const std::shared_ptr<const OutputFolder> folder = set.folder(dir);
  for (size_t k = 0; k < count_; ++k)
    files_.push_back(std::make_unique<StreamedTensorFile>(set.target(folder, files[k]), format, values[k].dtype,
                                                          values[k].shape, values[k].name));
}

StreamedOutputs::~StreamedOutputs() = default;  // each AtomicFile removes its temporary

void StreamedOutputs::append(size_t k, const void* data, size_t n) {
  if (finished_ || k >= count_) fail(ErrorKind::kInternal, "StreamedOutputs: append to output {}", k);
  if (npz_) return npz_->append(k, data, n);
  files_[k]->append(data, n);
}

std::vector<std::string> StreamedOutputs::finish() {
  if (finished_) fail(ErrorKind::kInternal, "StreamedOutputs: finished twice");
  finished_ = true;
  if (npz_) {
    npz_->commit();  // into the set
    return {npz_->path()};
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
