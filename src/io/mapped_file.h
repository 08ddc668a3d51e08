// A whole file mapped read-only into memory. Tensors read from it may point into the
// mapping (Buffer::borrow with the MappedFile as owner), so it lives as long as they do.
// Changes to the file while mapped are not guarded against (as with any reader). Only a
// regular file is opened (io/read_open.h): a pipe or device is refused, never waited on.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace onnxrun {

class MappedFile {
 public:
  // Throws Error(kIo) naming the path when the file cannot be opened, is a folder or not
  // a regular file, or cannot be mapped. `prefault`: map every page now (large files), as a reader of the
  // whole file wants; without it pages are mapped only when touched.
  static std::shared_ptr<const MappedFile> open(const std::string& path, bool prefault = true);

  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  const char* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  MappedFile() = default;
  const char* data_ = nullptr;
  size_t size_ = 0;
  bool mapped_ = false;
  std::string bytes_;  // the contents when not mapped
};

}  // namespace onnxrun
