#include "io/read_open.h"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

#include "core/error.h"
#include "core/fail.h"

namespace onnxrun {

const char* file_type_name(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISDIR(mode)) return "a folder";
  return "not a plain file";
}

UniqueFd open_regular_file(const std::string& path, struct stat* st_out) {
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY));
  if (fd.get() < 0) fail(ErrorKind::kIo, "cannot open {}: {}", path, std::strerror(errno));
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) fail(ErrorKind::kIo, "cannot read {}: {}", path, std::strerror(errno));
  if (S_ISDIR(st.st_mode)) fail(ErrorKind::kIo, "{}: is a folder, not a file", path);
  if (!S_ISREG(st.st_mode))
    fail(ErrorKind::kIo, "{}: is not a regular file ({}); onnx-run reads regular files only", path,
         file_type_name(st.st_mode));
  // O_NONBLOCK only kept the open from waiting; reads of a regular file never do.
  ::fcntl(fd.get(), F_SETFL, ::fcntl(fd.get(), F_GETFL) & ~O_NONBLOCK);
  if (st_out) *st_out = st;
  return fd;
}

}  // namespace onnxrun
