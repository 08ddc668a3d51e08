#include "io/temp_names.h"

#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <string_view>

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace onnxrun {

namespace {

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

// What of `name` a temporary's name holds: all of it, or as much as leaves the whole
// temporary's name within NAME_MAX (255 bytes, every Linux file system's limit).
std::string_view stem_of(const std::string& name) {
  constexpr size_t kNameMax = 255;
  constexpr size_t kMaxStem = kNameMax - (1 + kMarkSize + kLetters + kSuffixSize);
  return std::string_view(name).substr(0, kMaxStem);
}

bool same_file(const struct stat& a, const struct stat& b) { return a.st_dev == b.st_dev && a.st_ino == b.st_ino; }

}  // namespace

std::string temp_name_for(const std::string& name) {
  return "." + std::string(stem_of(name)) + kMark + random_letters() + kSuffix;
}

bool is_temp_name(const std::string& entry, const std::string& name) {
  if (entry.size() < 2 + kMarkSize + kLetters + kSuffixSize || entry[0] != '.') return false;
  if (entry.compare(entry.size() - kSuffixSize, kSuffixSize, kSuffix) != 0) return false;
  const size_t letters_at = entry.size() - kSuffixSize - kLetters;
  for (size_t k = letters_at; k < letters_at + kLetters; ++k)
    if (!std::isalnum(static_cast<unsigned char>(entry[k]))) return false;
  const size_t mark_at = letters_at - kMarkSize;
  if (entry.compare(mark_at, kMarkSize, kMark) != 0) return false;
  const std::string_view stem = stem_of(name);
  return name.empty() || (mark_at - 1 == stem.size() && entry.compare(1, stem.size(), stem) == 0);
}

bool name_leads_to(int dir, const std::string& temp, int fd) {
  struct stat open_st {
  }, named_st{};
  return ::fstat(fd, &open_st) == 0 && ::fstatat(dir, temp.c_str(), &named_st, AT_SYMLINK_NOFOLLOW) == 0 &&
         same_file(open_st, named_st);
}

void remove_stale_temporaries(int folder, const std::string& name) {
  // A descriptor of its own: reading a folder moves the descriptor's position.
  const int listing = ::openat(folder, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (listing < 0) return;
  DIR* d = ::fdopendir(listing);
  if (!d) {
    ::close(listing);
    return;
  }
  while (const dirent* e = ::readdir(d)) {
    const std::string entry = e->d_name;
    if (!is_temp_name(entry, name)) continue;
    const int fd = ::openat(folder, entry.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) continue;
    struct stat st {};
    // Removed only while locked here: no writer holds it, none can take it meanwhile.
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && ::flock(fd, LOCK_EX | LOCK_NB) == 0 &&
        name_leads_to(folder, entry, fd))
      ::unlinkat(folder, entry.c_str(), 0);
    ::close(fd);
  }
  ::closedir(d);
}

}  // namespace onnxrun
