#include "io/atomic_file.h"

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"
#include "core/fail.h"
#include "io/output_set.h"
#include "io/owned_temp.h"
#include "io/page_matched_write.h"
#include "io/temp_names.h"

namespace onnxrun {

namespace {

// From this size on, AtomicFile::write writes past the stream's buffer.
constexpr size_t kLargeWriteBytes = size_t{64} << 10;

struct Target {
  bool in_place = false;
  std::string path;  // the file to replace (symlinks resolved), or to open in place
};

// Paths the kernel makes up: they stand for open descriptors (a pipe, a terminal, the
// file a shell redirected stdout to) and are written where they are, never replaced.
bool is_descriptor_path(const std::string& p) {
  return p.rfind("/proc/", 0) == 0 || p.rfind("/dev/fd/", 0) == 0 || p == "/dev/stdout" || p == "/dev/stderr" ||
         p == "/dev/stdin";
}

Target resolve_target(const std::string& path) {
  if (!is_descriptor_path(path)) {
    try {
      refuse_foreign_symlinks(path);
    } catch (const Error& e) {
      throw e.with_context("cannot write " + path);
    }
  }
  std::string p = path;
  for (int hops = 0; hops < 40; ++hops) {
    if (is_descriptor_path(p)) return {true, path};
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0) {
      if (errno == ENOENT || errno == ENOTDIR) return {false, p};  // created; a bad folder fails there
      fail(ErrorKind::kIo, "cannot write {}: {}", path, std::strerror(errno));
    }
    if (S_ISLNK(st.st_mode)) {
      std::error_code ec;
      const std::filesystem::path link = std::filesystem::read_symlink(p, ec);
      if (ec) fail(ErrorKind::kIo, "cannot write {}: {}", path, ec.message());
      p = link.is_absolute() ? link.string() : (std::filesystem::path(p).parent_path() / link).string();
      continue;
    }
    if (S_ISREG(st.st_mode)) return {false, p};
    if (S_ISDIR(st.st_mode)) fail(ErrorKind::kIo, "cannot write {}: it is a folder", path);
    return {true, p};  // FIFO, device, socket
  }
  fail(ErrorKind::kIo, "cannot write {}: {}", path, std::strerror(ELOOP));
}

// The stream of a temporary writes through the temporary's own descriptor, which it does
// not own: closing the stream leaves the temporary open, and locked, until it is in place,
// and a file being written holds one descriptor, not two (a dump's values written block
// by block are all open at once: README "Outputs"). All n bytes, or -1 with errno set.
ssize_t write_to_descriptor(void* cookie, const char* data, size_t n) {
  const int fd = static_cast<int>(reinterpret_cast<intptr_t>(cookie));
  for (size_t done = 0; done < n;) {
    const ssize_t w = ::write(fd, data + done, n - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return -1;  // write(2) gives 0 only where it cannot go on (a full disk)
    done += static_cast<size_t>(w);
  }
  return static_cast<ssize_t>(n);
}

}  // namespace

void write_text_file(const WriteTarget& target, const std::string& text) {
  AtomicFile file(target);
  file.write(text.data(), text.size());
  file.commit();
}

void write_text_file_now(const WriteTarget& target, const std::string& text) {
  WriteTarget now = target;
  now.set = nullptr;
  write_text_file(now, text);
}

AtomicFile::AtomicFile(const WriteTarget& target) : path_(target.path), set_(target.set) {
  std::shared_ptr<const OutputFolder> folder = target.folder;
  std::string name = target.name;
  if (!folder) {
    const Target resolved = resolve_target(path_);
    in_place_ = resolved.in_place;
    if (in_place_) {
      f_ = std::fopen(resolved.path.c_str(), "wb");
      if (!f_) fail(ErrorKind::kIo, "cannot write {}: {}", path_, std::strerror(errno));
      return;
    }
    const std::filesystem::path p(resolved.path);
    try {
      folder = OutputFolder::open_existing(p.parent_path().string());
    } catch (const Error& e) {
      throw e.with_context("cannot write " + path_);
    }
    name = p.filename().string();
    // A report's folder is the user's, not onnx-run's: only this file's debris goes.
    remove_stale_temporaries(folder->fd(), name);
  }
  temp_ = std::make_unique<OwnedTemp>(folder, name);
  cookie_io_functions_t io{};
  io.write = write_to_descriptor;
  f_ = ::fopencookie(reinterpret_cast<void*>(static_cast<intptr_t>(temp_->fd())), "wb", io);
  if (!f_) give_up(errno);
}

AtomicFile::~AtomicFile() {
  if (f_) std::fclose(f_);
  // temp_, when still here, removes the temporary
}

int AtomicFile::fd() const { return temp_ ? temp_->fd() : ::fileno(f_); }

void AtomicFile::write(const void* data, size_t n) {
  // A tensor's data goes past the stream's buffer: stdio would copy the data's first bytes
  // into it to fill a buffer's worth, and write the rest from a few bytes past a page
  // boundary to the start of a page (page_matched_write.h).
  if (n >= kLargeWriteBytes) {
    if (std::fflush(f_) != 0) fail(ErrorKind::kIo, "cannot write {}: {}", path_, std::strerror(errno));
    const off_t at = ::lseek(fd(), 0, SEEK_CUR);  // -1 for a pipe: no page to match
    return write_page_matched(fd(), data, n, at < 0 ? 0 : static_cast<uint64_t>(at), true, path_);
  }
  if (n && std::fwrite(data, 1, n, f_) != n) fail(ErrorKind::kIo, "cannot write {}: {}", path_, std::strerror(errno));
}

void AtomicFile::give_up(int err) {
  if (f_) std::fclose(std::exchange(f_, nullptr));
  temp_.reset();
  fail(ErrorKind::kIo, "cannot write {}: {}", path_, std::strerror(err));
}

void AtomicFile::commit() {
  if (!f_) fail(ErrorKind::kInternal, "{}: committed twice", path_);
  if (std::fflush(f_) != 0) give_up(errno);
  if (in_place_) {
    if (std::fclose(std::exchange(f_, nullptr)) != 0)
      fail(ErrorKind::kIo, "cannot write {}: {}", path_, std::strerror(errno));
    return;
  }
  // The temporary is 0600. A file it replaces keeps its permissions (as `sed -i` keeps
  // them: a report made private stays private); a new file gets the usual ones.
  mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(temp_->fd(), temp_->replaced_mode(0666 & ~mask));
  if (std::fclose(std::exchange(f_, nullptr)) != 0) give_up(errno);

  if (set_) return set_->add(std::move(temp_));
  temp_->put_in_place();  // throws; the temporary then goes with temp_
  temp_->keep();          // complete and in place: the user's file now
  temp_.reset();
}

void write_bytes_at(int fd, const void* data, size_t n, uint64_t offset, const std::string& path) {
  write_page_matched(fd, data, n, offset, false, path);
}

std::optional<std::string> replaced_file(const std::string& path) {
  Target resolved;
  try {
    resolved = resolve_target(path);
  } catch (const Error&) {
    return std::nullopt;  // a folder, a loop: refused when written
  }
  if (resolved.in_place) return std::nullopt;
  std::error_code ec;
  const std::filesystem::path p = std::filesystem::weakly_canonical(std::filesystem::absolute(resolved.path, ec), ec);
  if (ec) return std::nullopt;
  return p.string();
}

void check_writable_target(const WriteTarget& target) {
  const std::string& path = target.path;
  std::filesystem::path dir;
  if (target.folder) {
    // The name's entry is replaced whatever it is, except a folder (rename cannot).
    struct stat st {};
    if (::fstatat(target.folder->fd(), target.name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode))
      fail(ErrorKind::kIo, "cannot write {}: it is a folder", path);
    dir = target.folder->path();
  } else {
    const Target resolved = resolve_target(path);  // throws for a folder
    if (resolved.in_place) {
      // Written in place (a FIFO, a device, /proc/self/fd/N): it must already be there.
      if (::access(resolved.path.c_str(), W_OK) != 0)
        fail(ErrorKind::kIo, "cannot write {}: {}", path, std::strerror(errno));
      return;
    }
    dir = std::filesystem::path(resolved.path).parent_path();
  }
  if (dir.empty()) dir = ".";
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0)
    fail(ErrorKind::kIo, "cannot write {}: folder {} does not exist", path, dir.string());
  if (!S_ISDIR(st.st_mode)) fail(ErrorKind::kIo, "cannot write {}: {} is not a folder", path, dir.string());
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    fail(ErrorKind::kIo, "cannot write {}: folder {} is not writable: {}", path, dir.string(), std::strerror(errno));
  // access() says yes to root everywhere, /proc and read-only mounts included: only
  // creating a file there tells. The probe has no name (O_TMPFILE), so a run killed
  // here leaves nothing; where the file system has no unnamed files, a named probe,
  // removed at once.
  int fd = ::open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
  if (fd >= 0) {
    ::close(fd);
    return;
  }
  if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
    fail(ErrorKind::kIo, "cannot write {}: cannot create files in {}: {}", path, dir.string(), std::strerror(errno));
  std::string probe = (dir / ".onnx-run-probe-XXXXXX").string();
  fd = ::mkstemp(probe.data());
  if (fd < 0)
    fail(ErrorKind::kIo, "cannot write {}: cannot create files in {}: {}", path, dir.string(), std::strerror(errno));
  ::close(fd);
  ::unlink(probe.c_str());
}

}  // namespace onnxrun
