#include "io/read_at.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/error.h"
#include "core/fail.h"
#include "io/read_open.h"

namespace onnxrun {

std::shared_ptr<const ReadAtFile> ReadAtFile::open(const std::string& path) {
  struct stat st {};
  const int fd = open_regular_file(path, &st).release();
  return std::shared_ptr<const ReadAtFile>(new ReadAtFile(fd, static_cast<uint64_t>(st.st_size), path));
}

ReadAtFile::~ReadAtFile() { ::close(fd_); }

size_t ReadAtFile::read_at(uint64_t at, void* dst, size_t n) const {
  auto* out = static_cast<char*>(dst);
  size_t done = 0;
  while (done < n) {
    const ssize_t got = ::pread(fd_, out + done, n - done, static_cast<off_t>(at + done));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) fail(ErrorKind::kIo, "cannot read {}: {}", path_, std::strerror(errno));
    if (got == 0) break;
    done += static_cast<size_t>(got);
  }
  return done;
}

}  // namespace onnxrun
