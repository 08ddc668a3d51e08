#include "io/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/error.h"
#include "core/fail.h"
#include "io/read_open.h"

namespace onnxrun {
namespace {

// Files from this size on are mapped with MAP_POPULATE: one call maps every page from
// the page cache instead of a fault per few pages.
constexpr size_t kPopulateBytes = size_t{1} << 20;

}  // namespace

std::shared_ptr<const MappedFile> MappedFile::open(const std::string& path, bool prefault) {
  // A regular file only (io/read_open.h): a pipe or device has no size to map, and
  // nothing bounds what it sends.
  struct stat st {};
  const UniqueFd file = open_regular_file(path, &st);
  const int fd = file.get();
  std::shared_ptr<MappedFile> f(new MappedFile);
  f->size_ = static_cast<size_t>(st.st_size);
  if (f->size_ > 0) {
    const int flags = MAP_PRIVATE | (prefault && f->size_ >= kPopulateBytes ? MAP_POPULATE : 0);
    void* p = mmap(nullptr, f->size_, PROT_READ, flags, fd, 0);
    if (p == MAP_FAILED) {
      const int err = errno;
      f->size_ = 0;
      fail(ErrorKind::kIo, "cannot map {}: {}", path, std::strerror(err));
    }
    f->data_ = static_cast<const char*>(p);
    f->mapped_ = true;
  }
  // The mapping stays valid once the descriptor is closed.
  return f;
}

MappedFile::~MappedFile() {
  if (mapped_) munmap(const_cast<char*>(data_), size_);
}

}  // namespace onnxrun
