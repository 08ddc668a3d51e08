#include "io/owned_temp.h"

#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <utility>

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"
#include "io/cleanup_signals.h"

namespace onnxrun {

namespace {

std::atomic<bool> g_unnamed_allowed{true};

constexpr char kMark[] = ".onnx-run.";
constexpr size_t kMarkSize = sizeof kMark - 1;
constexpr char kSuffix[] = ".tmp";
constexpr size_t kSuffixSize = sizeof kSuffix - 1;
constexpr size_t kLetters = 12;

// Twelve letters or digits, different in every call of every process (mkstemp's idea).
std::string random_letters() {
  static std::atomic<uint64_t> counter{0};
  uint64_t x = static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
               (static_cast<uint64_t>(::getpid()) << 32) ^ (counter.fetch_add(1) * 0x9E3779B97F4A7C15ull);
  static const char kAlphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  std::string out;
  for (int round = 0; round < 2; ++round) {
    // splitmix64; six letters from each of two outputs
    x += 0x9E3779B97F4A7C15ull;
    uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    for (int k = 0; k < 6; ++k, z /= 62) out += kAlphabet[z % 62];
  }
  return out;
}

std::string temp_name_for(const std::string& name) { return "." + name + kMark + random_letters() + kSuffix; }

// Whether `entry` is ".NAME.onnx-run.XXXXXXXXXXXX.tmp" (for `name`, when not empty).
bool is_temp_name(const std::string& entry, const std::string& name) {
  if (entry.size() < 2 + kMarkSize + kLetters + kSuffixSize || entry[0] != '.') return false;
  if (entry.compare(entry.size() - kSuffixSize, kSuffixSize, kSuffix) != 0) return false;
  const size_t letters_at = entry.size() - kSuffixSize - kLetters;
  for (size_t k = letters_at; k < letters_at + kLetters; ++k)
    if (!std::isalnum(static_cast<unsigned char>(entry[k]))) return false;
  const size_t mark_at = letters_at - kMarkSize;
  if (entry.compare(mark_at, kMarkSize, kMark) != 0) return false;
  return name.empty() || (mark_at - 1 == name.size() && entry.compare(1, name.size(), name) == 0);
}

bool same_file(const struct stat& a, const struct stat& b) { return a.st_dev == b.st_dev && a.st_ino == b.st_ino; }

// Whether `temp` in `dir` is the file open as `fd`.
bool name_leads_to(int dir, const std::string& temp, int fd) {
  struct stat open_st {
  }, named_st{};
  return ::fstat(fd, &open_st) == 0 && ::fstatat(dir, temp.c_str(), &named_st, AT_SYMLINK_NOFOLLOW) == 0 &&
         same_file(open_st, named_st);
}

// linkat needs /proc/self/fd (or, without it, CAP_DAC_READ_SEARCH) to name an unnamed file.
bool can_name_unnamed() { return ::geteuid() == 0 || ::access("/proc/self/fd", X_OK) == 0; }

}  // namespace

void set_unnamed_temporaries_allowed(bool allowed) { g_unnamed_allowed = allowed; }

OwnedTemp::OwnedTemp(std::shared_ptr<const OutputFolder> folder, std::string name)
    : folder_(std::move(folder)), name_(std::move(name)), path_(folder_->path_of(name_)) {
  const int dir = folder_->fd();
  slot_ = cleanup::claim("", name_, dir);
  auto give_up = [&](int err) {
    cleanup::release(std::exchange(slot_, nullptr));
    fail(ErrorKind::kIo, "cannot write {}: {}", path_, std::strerror(err));
  };
  if (g_unnamed_allowed && can_name_unnamed()) {
    fd_ = ::openat(dir, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
    if (fd_ >= 0) {
      ::flock(fd_, LOCK_EX);  // nobody else can reach it: locked before it ever has a name
      return;
    }
    // The filesystem or kernel lacks O_TMPFILE: a named temporary instead.
    if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL && errno != ENOENT) give_up(errno);
  }
  for (int attempt = 0; attempt < 100; ++attempt) {
    const std::string temp = temp_name_for(name_);
    const int fd = ::openat(dir, temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
      if (errno == EEXIST) continue;
      give_up(errno);
    }
    // Ours once locked while the name still leads to it: a clean-up that locked it first
    // removes the name (or has), and this attempt starts again under another.
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0 && name_leads_to(dir, temp, fd)) {
      fd_ = fd;
      temp_ = temp;
      cleanup::set_temp(slot_, temp_);
      cleanup::set_state(slot_, cleanup::SlotState::kTemp);
      return;
    }
    ::close(fd);
  }
  give_up(EEXIST);
}

OwnedTemp::~OwnedTemp() {
  if (slot_) cleanup::set_state(slot_, cleanup::SlotState::kClaimed);
  if (!temp_.empty()) ::unlinkat(folder_->fd(), temp_.c_str(), 0);
  if (slot_) cleanup::release(slot_);
  if (fd_ >= 0) ::close(fd_);
}

void OwnedTemp::link_name() {
  const int dir = folder_->fd();
  char self[64];
  std::snprintf(self, sizeof self, "/proc/self/fd/%d", fd_);
  for (int attempt = 0; attempt < 100; ++attempt) {
    const std::string temp = temp_name_for(name_);
    int rc = ::linkat(AT_FDCWD, self, dir, temp.c_str(), AT_SYMLINK_FOLLOW);
    if (rc != 0 && errno != EEXIST) rc = ::linkat(fd_, "", dir, temp.c_str(), AT_EMPTY_PATH);
    if (rc == 0) {
      temp_ = temp;
      // Registered only once the name is surely this file's: a signal in between leaves a
      // named temporary whose lock dies with the process, for the next run to remove.
      cleanup::set_temp(slot_, temp_);
      cleanup::set_state(slot_, cleanup::SlotState::kTemp);
      return;
    }
    if (errno != EEXIST) fail(ErrorKind::kIo, "cannot write {}: {}", path_, std::strerror(errno));
  }
  fail(ErrorKind::kIo, "cannot write {}: {}", path_, std::strerror(EEXIST));
}

void OwnedTemp::put_in_place() {
  if (placed_) fail(ErrorKind::kInternal, "{}: put in place twice", path_);
  if (temp_.empty()) link_name();
  const int dir = folder_->fd();
  cleanup::set_state(slot_, cleanup::SlotState::kRenaming);
  // renameat replaces the entry itself, whatever it is: a symlink there is not followed.
  if (::renameat(dir, temp_.c_str(), dir, name_.c_str()) != 0) {
    const int err = errno;
    cleanup::set_state(slot_, cleanup::SlotState::kTemp);
    fail(ErrorKind::kIo, "cannot write {}: {}", path_, err == EISDIR ? "it is a folder" : std::strerror(err));
  }
  placed_ = true;
  temp_.clear();
  cleanup::set_state(slot_, cleanup::SlotState::kRenamed);
}

void OwnedTemp::keep() {
  if (slot_) cleanup::release(std::exchange(slot_, nullptr));
  if (fd_ >= 0) ::close(std::exchange(fd_, -1));  // the lock goes with it
}

void OwnedTemp::remove_placed() noexcept {
  if (!placed_) return;
  ::unlinkat(folder_->fd(), name_.c_str(), 0);
  placed_ = false;
}

void remove_stale_temporaries(const OutputFolder& folder, const std::string& name) {
  // A descriptor of its own: reading a folder moves the descriptor's position.
  const int listing = ::openat(folder.fd(), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (listing < 0) return;
  DIR* d = ::fdopendir(listing);
  if (!d) {
    ::close(listing);
    return;
  }
  while (const dirent* e = ::readdir(d)) {
    const std::string entry = e->d_name;
    if (!is_temp_name(entry, name)) continue;
    const int fd = ::openat(folder.fd(), entry.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) continue;
    struct stat st {};
    // Removed only while locked here: no writer holds it, none can take it meanwhile.
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && ::flock(fd, LOCK_EX | LOCK_NB) == 0 &&
        name_leads_to(folder.fd(), entry, fd))
      ::unlinkat(folder.fd(), entry.c_str(), 0);
    ::close(fd);
  }
  ::closedir(d);
}

}  // namespace onnxrun
