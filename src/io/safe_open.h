// Opening a file named by an untrusted model (external data) so that it cannot reach
// anything outside the model's folder. Refused, with Error(kSecurity):
//   - an empty name, an absolute name, a NUL byte, any ".." component;
//   - a symbolic link anywhere on the way: the file itself or any folder above it
//     inside the model's folder (whatever it points at);
//   - anything but a regular file, and a file with more than one hard link (a hard
//     link is how a file elsewhere can be made to appear inside the folder).
// The open itself uses openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS) where the kernel
// has it (Linux 5.6+); elsewhere it walks the path one component at a time with
// openat(O_NOFOLLOW), which gives the same guarantee without a check-then-use race.
// The link count is checked on the opened descriptor, not on a path.
#pragma once

#include <string>

namespace onnxrun {

// An open file descriptor, closed on destruction.
class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  UniqueFd(UniqueFd&& o) noexcept : fd_(o.release()) {}
  UniqueFd& operator=(UniqueFd&& o) noexcept;
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd();
  int get() const { return fd_; }
  int release() {
    int fd = fd_;
    fd_ = -1;
    return fd;
  }

 private:
  int fd_ = -1;
};

enum class SafeOpenMethod {
  kAuto,      // openat2 when the kernel has it, else the component walk
  kWalkOnly,  // the component walk only (for tests of the fallback)
};

// Opens `relative` beneath `base_dir` for reading, as described above. Throws
// Error(kSecurity) for a refused name or file, Error(kIo) when the file does not exist
// or cannot be opened. Messages name `relative` and `base_dir`.
UniqueFd open_beneath(const std::string& base_dir, const std::string& relative,
                      SafeOpenMethod method = SafeOpenMethod::kAuto);

}  // namespace onnxrun
