#include "io/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/error.h"
#include "core/fail.h"

namespace onnxrun {
namespace {

// Files from this size on are mapped with MAP_POPULATE: one call maps every page from
// the page cache instead of a fault per few pages.
constexpr size_t kPopulateBytes = size_t{1} << 20;

}  // namespace

std::shared_ptr<const MappedFile> MappedFile::open(const std::string& path, bool prefault) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail(ErrorKind::kIo, "cannot open {}: {}", path, std::strerror(errno));
  struct stat st {};
  if (fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    fail(ErrorKind::kIo, "cannot read {}: {}", path, std::strerror(err));
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    fail(ErrorKind::kIo, "{}: is a folder, not a file", path);
  }
  std::shared_ptr<MappedFile> f(new MappedFile);
  if (!S_ISREG(st.st_mode)) {  // a pipe or device: read it through
    char chunk[1 << 16];
    for (;;) {
      const ssize_t n = ::read(fd, chunk, sizeof chunk);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        const int err = errno;
        ::close(fd);
        fail(ErrorKind::kIo, "cannot read {}: {}", path, std::strerror(err));
      }
      if (n == 0) break;
      f->bytes_.append(chunk, static_cast<size_t>(n));
    }
    ::close(fd);
    f->data_ = f->bytes_.data();
    f->size_ = f->bytes_.size();
    return f;
  }
  f->size_ = static_cast<size_t>(st.st_size);
  if (f->size_ > 0) {
    const int flags = MAP_PRIVATE | (prefault && f->size_ >= kPopulateBytes ? MAP_POPULATE : 0);
    void* p = mmap(nullptr, f->size_, PROT_READ, flags, fd, 0);
    if (p == MAP_FAILED) {
      const int err = errno;
      ::close(fd);
      f->size_ = 0;
      fail(ErrorKind::kIo, "cannot map {}: {}", path, std::strerror(err));
    }
    f->data_ = static_cast<const char*>(p);
    f->mapped_ = true;
  }
  ::close(fd);  // the mapping stays valid without the descriptor
  return f;
}

MappedFile::~MappedFile() {
  if (mapped_) munmap(const_cast<char*>(data_), size_);
}

}  // namespace onnxrun
