#include "cli/stdout_check.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>

#include "core/error.h"
#include "core/fail.h"

namespace onnxrun::cli {

void guard_stdout() {
  std::signal(SIGPIPE, SIG_IGN);
  if (::fcntl(STDOUT_FILENO, F_GETFD) < 0 && errno == EBADF) {
    const int fd = ::open("/dev/null", O_RDONLY);  // lowest free descriptor: 1 (or 0)
    if (fd >= 0 && fd != STDOUT_FILENO) {
      ::dup2(fd, STDOUT_FILENO);
      ::close(fd);
    }
  }
}

void check_stdout() {
  errno = 0;
  const bool failed = std::fflush(stdout) != 0 || std::ferror(stdout);
  if (!failed) return;
  const int err = errno;
  std::clearerr(stdout);
  if (err == EPIPE) throw StdoutClosed{};
  fail(ErrorKind::kIo, "stdout: {}", err ? std::strerror(err) : "write error");
}

}  // namespace onnxrun::cli
