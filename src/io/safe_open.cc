#include "io/safe_open.h"

#include <cerrno>
#include <cstring>
#include <vector>

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/error.h"
#include "core/fail.h"

namespace onnxrun {

UniqueFd& UniqueFd::operator=(UniqueFd&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = o.release();
  }
  return *this;
}

UniqueFd::~UniqueFd() {
  if (fd_ >= 0) ::close(fd_);
}

namespace {

// The components of `relative`, after refusing the names no model may use.
std::vector<std::string> checked_components(const std::string& base_dir, const std::string& relative) {
  if (relative.empty()) fail(ErrorKind::kSecurity, "external data location is empty");
  if (relative.find('\0') != std::string::npos)
    fail(ErrorKind::kSecurity, "external data location '{}' contains a NUL byte", relative.c_str());
  if (relative.front() == '/')
    fail(ErrorKind::kSecurity,
         "external data location '{}' is an absolute path; it must be relative to the model's folder {}", relative,
         base_dir);
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= relative.size()) {
    size_t end = relative.find('/', start);
    if (end == std::string::npos) end = relative.size();
    std::string part = relative.substr(start, end - start);
    if (part == "..")
      fail(ErrorKind::kSecurity, "external data location '{}' escapes the model's folder {} ('..' is not allowed)",
           relative, base_dir);
    if (!part.empty() && part != ".") parts.push_back(std::move(part));
    start = end + 1;
  }
  if (parts.empty()) fail(ErrorKind::kSecurity, "external data location '{}' names no file", relative);
  return parts;
}

[[noreturn]] void refuse_open(int err, const std::string& base_dir, const std::string& relative) {
  switch (err) {
    case ELOOP:
      fail(ErrorKind::kSecurity,
           "external data location '{}' is or passes through a symbolic link (in {}); links are refused", relative,
           base_dir);
    case EXDEV:
      fail(ErrorKind::kSecurity, "external data location '{}' escapes the model's folder {}", relative, base_dir);
    case ENOTDIR:
      fail(ErrorKind::kIo, "cannot open external data '{}' in {}: a component is not a folder", relative, base_dir);
    default: fail(ErrorKind::kIo, "cannot open external data '{}' in {}: {}", relative, base_dir, std::strerror(err));
  }
}

// openat2 with the kernel doing the containment; -1 with errno ENOSYS when the kernel
// (or a seccomp filter) does not offer it.
int open_with_openat2(int dir, const std::string& relative) {
  struct open_how how;
  std::memset(&how, 0, sizeof how);
  how.flags = O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
  return static_cast<int>(::syscall(SYS_openat2, dir, relative.c_str(), &how, sizeof how));
}

// One component at a time, never following a link: O_NOFOLLOW refuses a link as the
// last component of each step, and each step is a single name (no '/', no '..').
int open_by_walking(int dir, const std::vector<std::string>& parts) {
  UniqueFd current(::fcntl(dir, F_DUPFD_CLOEXEC, 0));
  if (current.get() < 0) return -1;
  for (size_t k = 0; k < parts.size(); ++k) {
    const bool last = k + 1 == parts.size();
    const int flags = O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK | (last ? 0 : O_DIRECTORY);
    int fd = ::openat(current.get(), parts[k].c_str(), flags);
    if (fd < 0) {
      // A link given O_DIRECTORY|O_NOFOLLOW fails with ENOTDIR on some systems: tell
      // a link from a real non-folder.
      if (errno == ENOTDIR) {
        struct stat st;
        if (::fstatat(current.get(), parts[k].c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
          errno = ELOOP;
        else errno = ENOTDIR;
      }
      return -1;
    }
    current = UniqueFd(fd);
  }
  return current.release();
}

}  // namespace

UniqueFd open_beneath(const std::string& base_dir, const std::string& relative, SafeOpenMethod method) {
  const std::vector<std::string> parts = checked_components(base_dir, relative);
  UniqueFd dir(::open(base_dir.empty() ? "." : base_dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dir.get() < 0)
    fail(ErrorKind::kIo, "cannot open the model's folder {} to read external data: {}", base_dir, std::strerror(errno));

  int fd = -1;
  bool walked = method == SafeOpenMethod::kWalkOnly;
  if (!walked) {
    fd = open_with_openat2(dir.get(), relative);
    // ENOSYS: kernel before 5.6; EPERM: a seccomp filter that blocks unknown calls.
    if (fd < 0 && (errno == ENOSYS || errno == EPERM)) walked = true;
  }
  if (walked) fd = open_by_walking(dir.get(), parts);
  if (fd < 0) refuse_open(errno, base_dir, relative);
  UniqueFd file(fd);

  struct stat st;
  if (::fstat(file.get(), &st) != 0)
    fail(ErrorKind::kIo, "cannot read external data '{}' in {}: {}", relative, base_dir, std::strerror(errno));
  if (!S_ISREG(st.st_mode))
    fail(ErrorKind::kSecurity, "external data location '{}' in {} is not a regular file", relative, base_dir);
  if (st.st_nlink > 1)
    fail(ErrorKind::kSecurity,
         "external data file '{}' in {} has {} hard links; a hard-linked file may lie outside the "
         "model's folder and is refused",
         relative, base_dir, static_cast<unsigned long>(st.st_nlink));
  // O_NONBLOCK only kept a FIFO from blocking the open; reads are plain from here on.
  ::fcntl(file.get(), F_SETFL, ::fcntl(file.get(), F_GETFL) & ~O_NONBLOCK);
  return file;
}

}  // namespace onnxrun
