// A file opened for reading at offsets (pread), shared by the readers that stream a
// tensor block by block (io/tensor_stream.h): no mapping, no file position, so several
// streams over one file can be read interleaved.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace onnxrun {

class ReadAtFile {
 public:
  // Throws Error(kIo) naming `path` when it cannot be opened.
  static std::shared_ptr<const ReadAtFile> open(const std::string& path);
  ReadAtFile(const ReadAtFile&) = delete;
  ReadAtFile& operator=(const ReadAtFile&) = delete;
  ~ReadAtFile();

  // Copies up to n bytes from `at` into dst; fewer only at the end of the file. Returns
  // how many. Throws Error(kIo) "cannot read PATH: ..." when the read fails.
  size_t read_at(uint64_t at, void* dst, size_t n) const;
  // The size when opened.
  uint64_t size() const { return size_; }
  const std::string& path() const { return path_; }

 private:
  ReadAtFile(int fd, uint64_t size, std::string path) : fd_(fd), size_(size), path_(std::move(path)) {}
  int fd_;
  uint64_t size_;
  std::string path_;
};

}  // namespace onnxrun
