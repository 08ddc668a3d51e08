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
#include "core/fail.h"
#include "io/cleanup_signals.h"
#include "io/temp_names.h"

namespace onnxrun {

namespace {

std::atomic<bool> g_unnamed_allowed{true};

// linkat needs /proc/self/fd (or, without it, CAP_DAC_READ_SEARCH) to name an unnamed file.
bool can_name_unnamed() { return ::geteuid() == 0 || ::access("/proc/self/fd", X_OK) == 0; }

}  // namespace

void set_unnamed_temporaries_allowed(bool allowed) { g_unnamed_allowed = allowed; }

// The name of the hard link that keeps a replaced file until the commit is done: the
// temporaries' pattern ending ".old", which no clean-up of stale temporaries touches.
std::string backup_name_for(const std::string& name) {
  std::string b = temp_name_for(name);
  b.replace(b.size() - 4, 4, ".old");  // ".tmp"
  return b;
}

OwnedTemp::OwnedTemp(std::shared_ptr<const OutputFolder> folder, std::string name)
    : folder_(std::move(folder)),
      name_(std::move(name)),
      path_(folder_->path_of(name_)),
      backup_(backup_name_for(name_)) {
  const int dir = folder_->fd();
  slot_ = cleanup::claim("", name_, dir, backup_);
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
  if (backed_up_) ::unlinkat(folder_->fd(), backup_.c_str(), 0);
  if (slot_) cleanup::release(slot_);
  if (fd_ >= 0) ::close(fd_);
}

void OwnedTemp::link_name() {
  const int dir = folder_->fd();
  char self[64];
  std::snprintf(self, sizeof self, "/proc/self/fd/%d", fd_);
  cleanup::set_fd(slot_, fd_);
  for (int attempt = 0; attempt < 100; ++attempt) {
    const std::string temp = temp_name_for(name_);
    // The handler knows the name before it may exist, and removes it only if it leads to
    // this file: a signal right after linkat leaves no named temporary, and a name that
    // was another's (EEXIST) is never touched.
    cleanup::set_temp(slot_, temp);
    cleanup::set_state(slot_, cleanup::SlotState::kLinking);
    int rc = ::linkat(AT_FDCWD, self, dir, temp.c_str(), AT_SYMLINK_FOLLOW);
    if (rc != 0 && errno != EEXIST) rc = ::linkat(fd_, "", dir, temp.c_str(), AT_EMPTY_PATH);
    if (rc == 0) {
      temp_ = temp;
      cleanup::set_state(slot_, cleanup::SlotState::kTemp);
      return;
    }
    const int err = errno;
    cleanup::set_state(slot_, cleanup::SlotState::kClaimed);
    if (err != EEXIST) fail(ErrorKind::kIo, "cannot write {}: {}", path_, std::strerror(err));
  }
  fail(ErrorKind::kIo, "cannot write {}: {}", path_, std::strerror(EEXIST));
}

unsigned OwnedTemp::replaced_mode(unsigned otherwise) const {
  struct stat st {};
  if (::fstatat(folder_->fd(), name_.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode)) return otherwise;
  return st.st_mode & 0777;
}

void OwnedTemp::put_in_place() {
  if (placed_) fail(ErrorKind::kInternal, "{}: put in place twice", path_);
  if (temp_.empty()) link_name();
  const int dir = folder_->fd();
  // The entry the rename will replace keeps a second name until the commit is done, so
  // that a commit failing at a later file, or a signal, can put it back. Where it cannot
  // (none stands there, a folder, a filesystem without hard links) the rename goes on
  // without: what stood there is then gone once the rename is done.
  backed_up_ = ::linkat(dir, name_.c_str(), dir, backup_.c_str(), 0) == 0;
  cleanup::set_backed_up(slot_, backed_up_);
  cleanup::set_state(slot_, cleanup::SlotState::kRenaming);
  // renameat replaces the entry itself, whatever it is: a symlink there is not followed.
  if (::renameat(dir, temp_.c_str(), dir, name_.c_str()) != 0) {
    const int err = errno;
    cleanup::set_state(slot_, cleanup::SlotState::kTemp);
    if (std::exchange(backed_up_, false)) ::unlinkat(dir, backup_.c_str(), 0);
    fail(ErrorKind::kIo, "cannot write {}: {}", path_, err == EISDIR ? "it is a folder" : std::strerror(err));
  }
  placed_ = true;
  temp_.clear();
  cleanup::set_state(slot_, cleanup::SlotState::kRenamed);
}

void OwnedTemp::join(const std::atomic<int>* kept) {
  if (slot_) cleanup::set_kept_flag(slot_, kept);
}

void OwnedTemp::keep() {
  // The replaced file's link goes before the slot: a signal in between finds the slot
  // kept and removes the link itself, so none is left behind.
  if (std::exchange(backed_up_, false)) ::unlinkat(folder_->fd(), backup_.c_str(), 0);
  if (slot_) cleanup::release(std::exchange(slot_, nullptr));
  if (fd_ >= 0) ::close(std::exchange(fd_, -1));  // the lock goes with it
}

void OwnedTemp::remove_placed() noexcept {
  if (!placed_) return;
  const int dir = folder_->fd();
  // The slot says whether a backup stands, so a signal in the middle neither removes
  // the file just renamed back nor leaves the new one.
  if (!std::exchange(backed_up_, false) || ::renameat(dir, backup_.c_str(), dir, name_.c_str()) != 0)
    ::unlinkat(dir, name_.c_str(), 0);
  placed_ = false;
  if (slot_) cleanup::set_state(slot_, cleanup::SlotState::kClaimed);
}

}  // namespace onnxrun
