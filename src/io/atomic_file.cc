#include "io/atomic_file.h"

#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <csignal>
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
#include "io/cleanup_signals.h"
#include "io/output_transaction.h"
#include "io/page_matched_write.h"

namespace onnxrun {

namespace {

thread_local int t_immediate_depth = 0;

// From this size on, write_bytes writes past the stream's buffer.
constexpr size_t kLargeWriteBytes = size_t{64} << 10;

// When this process started, as file times count: a temporary last written before then
// by a process that no longer exists is debris (remove_stale_temporaries).
const std::filesystem::file_time_type kProcessStart = std::filesystem::file_time_type::clock::now();

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

// Temporaries are ".NAME.tmp.PID.XXXXXX": the writer's process id, six random letters.
std::string temp_prefix(const std::string& filename) { return "." + filename + ".tmp."; }

std::string temp_name(const std::string& target) {
  static std::atomic<uint64_t> counter{0};
  uint64_t x = static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
               (static_cast<uint64_t>(::getpid()) << 32) ^ (counter.fetch_add(1) * 0x9E3779B97F4A7C15ull);
  // splitmix64, for six letters like mkstemp's
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  x ^= x >> 31;
  static const char kLetters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  std::string suffix;
  for (int k = 0; k < 6; ++k, x /= 62) suffix += kLetters[x % 62];
  const std::filesystem::path t(target);
  const std::string name = temp_prefix(t.filename().string()) + std::to_string(::getpid()) + "." + suffix;
  return t.parent_path().empty() ? name : (t.parent_path() / name).string();
}

// The process id in `rest` when it is "PID.XXXXXX" (six letters or digits), else -1.
long temp_owner(const std::string& rest) {
  const size_t dot = rest.find('.');
  if (dot == 0 || dot == std::string::npos || rest.size() != dot + 7 || dot > 9) return -1;
  for (size_t k = 0; k < rest.size(); ++k)
    if (k < dot ? !std::isdigit(static_cast<unsigned char>(rest[k]))
                : k > dot && !std::isalnum(static_cast<unsigned char>(rest[k])))
      return -1;
  return std::stol(rest.substr(0, dot));
}

// SIGKILL (or a power cut) runs no handler, so a killed run leaves its temporary. Before
// writing `target`, this removes the temporaries for it of the exact pattern whose
// process no longer exists and that were last written before this process started: a
// live run's temporary, even one waiting for its commit, is never touched. Best effort:
// what cannot be read or removed stays.
void remove_stale_temporaries(const std::string& target) {
  const std::filesystem::path t(target);
  const std::filesystem::path dir = t.parent_path().empty() ? "." : t.parent_path();
  const std::string prefix = temp_prefix(t.filename().string());
  std::error_code ec;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    const long pid = temp_owner(name.substr(prefix.size()));
    if (pid <= 0 || pid == ::getpid() || ::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;
    std::error_code e;
    if (!it->is_regular_file(e) || it->is_symlink(e) || it->last_write_time(e) >= kProcessStart || e) continue;
    ::unlink(it->path().c_str());
  }
}

}  // namespace

ImmediateWrites::ImmediateWrites() { ++t_immediate_depth; }
ImmediateWrites::~ImmediateWrites() { --t_immediate_depth; }

void write_bytes(std::FILE* f, const void* data, size_t n, const std::string& path) {
  // A tensor's data goes past the stream's buffer: stdio would copy the data's first bytes
  // into it to fill a buffer's worth, and write the rest from a few bytes past a page
  // boundary to the start of a page (page_matched_write.h).
  if (n >= kLargeWriteBytes) {
    if (std::fflush(f) != 0) fail(ErrorKind::kIo, "cannot write {}: {}", path, std::strerror(errno));
    const off_t at = ::lseek(::fileno(f), 0, SEEK_CUR);  // -1 for a pipe: no page to match
    return write_page_matched(::fileno(f), data, n, at < 0 ? 0 : static_cast<uint64_t>(at), true, path);
  }
  if (n && std::fwrite(data, 1, n, f) != n) fail(ErrorKind::kIo, "cannot write {}: {}", path, std::strerror(errno));
}

void write_text_file_now(const std::string& path, const std::string& text) {
  ImmediateWrites now;
  write_file_atomically(path, [&](std::FILE* f) { write_bytes(f, text.data(), text.size(), path); });
}

AtomicFile::AtomicFile(const std::string& path) : path_(path) {
  const Target target = resolve_target(path);
  target_ = target.path;
  in_place_ = target.in_place;
  if (in_place_) {
    f_ = std::fopen(target_.c_str(), "wb");
    if (!f_) fail(ErrorKind::kIo, "cannot write {}: {}", path_, std::strerror(errno));
    struct stat st {};
    can_seek_ = ::fstat(::fileno(f_), &st) == 0 && S_ISREG(st.st_mode);
    return;
  }
  can_seek_ = true;
  remove_stale_temporaries(target_);
  // The temporary's name is in a signal-safe slot before the file exists (cleanup_signals.h).
  slot_ = cleanup::claim("", target_);
  int fd = -1;
  for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
    tmp_ = temp_name(target_);
    cleanup::set_temp(slot_, tmp_);
    cleanup::set_state(slot_, cleanup::SlotState::kTemp);
    fd = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) {
      const int err = errno;
      cleanup::set_state(slot_, cleanup::SlotState::kClaimed);  // the name is someone else's, or nothing
      if (err != EEXIST) {
        cleanup::release(std::exchange(slot_, nullptr));
        fail(ErrorKind::kIo, "cannot write {}: {}", path_, std::strerror(err));
      }
    }
  }
  if (fd < 0) {
    cleanup::release(std::exchange(slot_, nullptr));
    fail(ErrorKind::kIo, "cannot write {}: {}", path_, std::strerror(EEXIST));
  }
  f_ = ::fdopen(fd, "wb");
  if (!f_) {
    const int err = errno;
    ::close(fd);
    give_up(err);
  }
}

AtomicFile::~AtomicFile() {
  if (f_) std::fclose(f_);
  if (slot_) {
    ::unlink(tmp_.c_str());
    cleanup::release(slot_);
  }
}

int AtomicFile::fd() const { return ::fileno(f_); }

void AtomicFile::give_up(int err) {
  if (f_) std::fclose(std::exchange(f_, nullptr));
  if (slot_) {
    ::unlink(tmp_.c_str());
    cleanup::release(std::exchange(slot_, nullptr));
  }
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
  // The temporary is 0600; give the result the usual permissions of a new file.
  mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(::fileno(f_), 0666 & ~mask);
  if (std::fclose(std::exchange(f_, nullptr)) != 0) give_up(errno);

  OutputTransaction* tx = t_immediate_depth == 0 ? OutputTransaction::current() : nullptr;
  if (tx) {
    tx->add(std::exchange(tmp_, std::string()), target_, std::exchange(slot_, nullptr));
    return;
  }
  if (std::rename(tmp_.c_str(), target_.c_str()) != 0) give_up(errno);
  cleanup::release(std::exchange(slot_, nullptr));  // complete and in place: the user's file now
}

bool AtomicFile::can_seek_at(const std::string& path) {
  const Target target = resolve_target(path);
  if (!target.in_place) return true;
  struct stat st {};
  return ::stat(target.path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

void write_file_atomically(const std::string& path, const std::function<void(std::FILE*)>& write) {
  AtomicFile file(path);
  write(file.file());
  file.commit();
}

void write_bytes_at(int fd, const void* data, size_t n, uint64_t offset, const std::string& path) {
  write_page_matched(fd, data, n, offset, false, path);
}

void check_writable_target(const std::string& path) {
  const Target target = resolve_target(path);  // throws for a folder
  if (target.in_place) {
    // Written in place (a FIFO, a device, /proc/self/fd/N): it must already be there.
    if (::access(target.path.c_str(), W_OK) != 0)
      fail(ErrorKind::kIo, "cannot write {}: {}", path, std::strerror(errno));
    return;
  }
  std::filesystem::path dir = std::filesystem::path(target.path).parent_path();
  if (dir.empty()) dir = ".";
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0)
    fail(ErrorKind::kIo, "cannot write {}: folder {} does not exist", path, dir.string());
  if (!S_ISDIR(st.st_mode)) fail(ErrorKind::kIo, "cannot write {}: {} is not a folder", path, dir.string());
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    fail(ErrorKind::kIo, "cannot write {}: folder {} is not writable: {}", path, dir.string(), std::strerror(errno));
  // access() says yes to root everywhere, /proc and read-only mounts included: only
  // creating a file there tells (the probe is removed at once).
  std::string probe = (dir / ".onnx-run-probe-XXXXXX").string();
  const int fd = ::mkstemp(probe.data());
  if (fd < 0)
    fail(ErrorKind::kIo, "cannot write {}: cannot create files in {}: {}", path, dir.string(), std::strerror(errno));
  ::close(fd);
  ::unlink(probe.c_str());
}

}  // namespace onnxrun
