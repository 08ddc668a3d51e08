#include "io/streamed_outputs.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>

#include <sys/stat.h>

#include "core/error.h"
#include "core/fail.h"
#include "io/atomic_file.h"
#include "io/output_set.h"
#include "io/temp_names.h"

namespace fs = std::filesystem;

namespace onnxrun {

namespace {

// An entry by identity: its folder's device and inode, and its name there. A path names
// the same folder by many strings (a symlink, "..", a bind mount of it, as containers
// have), but by one identity.
struct EntryId {
  dev_t dev = 0;
  ino_t ino = 0;
  std::string name;
  bool operator==(const EntryId& o) const { return dev == o.dev && ino == o.ino && name == o.name; }
};

// The entry a file the run reads is, every link followed (the last one too): nullopt
// when its folder is not there (nothing there to replace).
std::optional<EntryId> read_entry(const std::string& path) {
  std::error_code ec;
  const fs::path file = fs::weakly_canonical(fs::absolute(path, ec), ec);
  struct stat st {};
  if (ec || ::stat(file.parent_path().c_str(), &st) != 0) return std::nullopt;
  return EntryId{st.st_dev, st.st_ino, file.filename().string()};
}

}  // namespace

void check_output_targets(TensorFormat format, const std::string& dir, size_t count, TensorRole role,
                          const std::vector<std::string>& reads, const char* option) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) return;  // made by the write; a bad parent fails there
  if (!fs::is_directory(dir, ec)) fail(ErrorKind::kIo, "cannot create output folder {}: not a folder", dir);
  const std::shared_ptr<const OutputFolder> folder = OutputFolder::open_existing(dir);
  // What killed runs left goes now, before the run, so that a run that then fails cleans
  // as one that succeeds does (io/owned_temp.h: only temporaries nobody holds).
  remove_stale_temporaries(folder->fd());
  struct stat at {};  // the folder the files go into (their own names replace the entries there)
  if (::fstat(folder->fd(), &at) != 0)
    fail(ErrorKind::kIo, "cannot read output folder {}: {}", dir, std::strerror(errno));
  std::vector<std::optional<EntryId>> read_entries;
  for (const std::string& r : reads) read_entries.push_back(read_entry(r));
  for (const std::string& name : tensor_file_names(format, count, role)) {
    check_writable_target(WriteTarget(folder, name));
    const EntryId entry{at.st_dev, at.st_ino, name};
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
