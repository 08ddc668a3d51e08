#include "io/file_bytes.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"
#include "core/fail.h"
#include "core/memory_limit.h"

namespace onnxrun {

namespace {

const char* file_type_name(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "not a plain file";
}

[[noreturn]] void refuse_not_regular(const std::string& path, mode_t mode) {
  fail(ErrorKind::kIo, "{}: is not a regular file ({}); it must be a regular file", path, file_type_name(mode));
}

}  // namespace

FileBytes FileBytes::read(const std::string& path, bool regular_only) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) fail(ErrorKind::kIo, "{}: is a folder, not a file", path);
  // Refused before it is opened (opening a FIFO for reading waits for a writer), and again
  // on the descriptor, opened without blocking, in case the path changed in between.
  struct stat before;
  if (regular_only && ::stat(path.c_str(), &before) == 0 && !S_ISREG(before.st_mode))
    refuse_not_regular(path, before.st_mode);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | (regular_only ? O_NONBLOCK : 0));
  if (fd < 0) fail(ErrorKind::kIo, "cannot open {}: {}", path, std::strerror(errno));
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(::fdopen(fd, "rb"), std::fclose);
  if (!f) {
    const int err = errno;
    ::close(fd);
    fail(ErrorKind::kIo, "cannot open {}: {}", path, std::strerror(err));
  }
  if (regular_only) {
    struct stat opened;
    if (::fstat(fd, &opened) == 0 && !S_ISREG(opened.st_mode)) refuse_not_regular(path, opened.st_mode);
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  }
  // The whole file is held in memory: it counts against the memory limit while it is
  // (memory_limit.h), and is refused before it is read when it does not fit.
  FileBytes out;
  struct stat st;
  if (::fstat(::fileno(f.get()), &st) == 0 && st.st_size > 0) {
    if (static_cast<uint64_t>(st.st_size) > static_cast<uint64_t>(INT_MAX))
      fail(ErrorKind::kUnsupported, "{}: larger than the 2 GiB a protobuf message can hold", path);
    out.reservation_ = MemoryReservation(static_cast<size_t>(st.st_size), path);
    out.bytes_.reserve(static_cast<size_t>(st.st_size));
  }
  char chunk[1 << 16];
  size_t n;
  while ((n = std::fread(chunk, 1, sizeof chunk, f.get())) > 0) {
    if (out.bytes_.size() + n > static_cast<size_t>(INT_MAX))
      fail(ErrorKind::kUnsupported, "{}: larger than the 2 GiB a protobuf message can hold", path);
    out.bytes_.append(chunk, n);
  }
  if (std::ferror(f.get())) fail(ErrorKind::kIo, "cannot read {}: {}", path, std::strerror(errno));
  return out;
}

}  // namespace onnxrun
