#include "io/atomic_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"

namespace onnxrun {

void write_bytes(std::FILE* f, const void* data, size_t n, const std::string& path) {
  if (n && std::fwrite(data, 1, n, f) != n)
    fail(ErrorKind::kIo, "cannot write {}: {}", path, std::strerror(errno));
}

void write_file_atomically(const std::string& path, const std::function<void(std::FILE*)>& write) {
  std::filesystem::path target(path);
  std::string tmpl = (target.parent_path() / ("." + target.filename().string() + ".tmp.XXXXXX")).string();
  if (target.parent_path().empty()) tmpl = "." + target.filename().string() + ".tmp.XXXXXX";
  int fd = ::mkstemp(tmpl.data());
  if (fd < 0) fail(ErrorKind::kIo, "cannot write {}: {}", path, std::strerror(errno));
  std::FILE* f = ::fdopen(fd, "wb");
  if (!f) {
    int err = errno;
    ::close(fd);
    ::unlink(tmpl.c_str());
    fail(ErrorKind::kIo, "cannot write {}: {}", path, std::strerror(err));
  }
  try {
    write(f);
    if (std::fflush(f) != 0) fail(ErrorKind::kIo, "cannot write {}: {}", path, std::strerror(errno));
  } catch (...) {
    std::fclose(f);
    ::unlink(tmpl.c_str());
    throw;
  }
  if (std::fclose(f) != 0) {
    int err = errno;
    ::unlink(tmpl.c_str());
    fail(ErrorKind::kIo, "cannot write {}: {}", path, std::strerror(err));
  }
  // mkstemp creates 0600; give the result the usual permissions of a new file.
  mode_t mask = ::umask(0);
  ::umask(mask);
  ::chmod(tmpl.c_str(), 0666 & ~mask);
  if (std::rename(tmpl.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(tmpl.c_str());
    fail(ErrorKind::kIo, "cannot write {}: {}", path, std::strerror(err));
  }
}

}  // namespace onnxrun
