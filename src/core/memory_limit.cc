#include "core/memory_limit.h"

#include <atomic>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>

#include <unistd.h>

#include <fmt/format.h>

#include "core/error.h"
#include "core/fail.h"

namespace onnxrun {
namespace {

size_t cgroup_limit() {
  // cgroup v2 ("max" when unlimited); cgroup v1 reports a huge number when unlimited.
  for (const char* path : {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
    std::ifstream f(path);
    unsigned long long v = 0;
    if (f >> v && v > 0) return static_cast<size_t>(v);
  }
  return SIZE_MAX;
}

size_t compute_default() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page = ::sysconf(_SC_PAGESIZE);
  size_t physical = pages > 0 && page > 0 ? static_cast<size_t>(pages) * static_cast<size_t>(page) : SIZE_MAX;
  const size_t total = std::min(physical, cgroup_limit());
  if (total == SIZE_MAX) return SIZE_MAX / 4 * 3;
  return total / 4 * 3;
}

std::atomic<size_t>& limit_cell() {
  static std::atomic<size_t> limit{default_memory_limit()};
  return limit;
}

std::atomic<size_t> g_in_use{0};

[[noreturn]] void refuse(size_t bytes, std::string_view what, size_t in_use, size_t limit) {
  fail(ErrorKind::kSecurity, "{} needs {}, more than the memory limit of {} leaves{} (raise it with --max-memory)",
       what, format_bytes(bytes), format_bytes(limit),
       in_use == 0 ? "" : fmt::format(" with {} in use", format_bytes(in_use)));
}

}  // namespace

size_t default_memory_limit() {
  static const size_t value = compute_default();
  return value;
}

size_t memory_limit() { return limit_cell().load(std::memory_order_relaxed); }
void set_memory_limit(size_t bytes) { limit_cell().store(bytes, std::memory_order_relaxed); }
size_t memory_in_use() { return g_in_use.load(std::memory_order_relaxed); }

void reserve_memory(size_t bytes, std::string_view what) {
  const size_t limit = memory_limit();
  size_t cur = g_in_use.load(std::memory_order_relaxed);
  do {
    if (bytes > limit || cur > limit - bytes) refuse(bytes, what, cur, limit);
  } while (!g_in_use.compare_exchange_weak(cur, cur + bytes, std::memory_order_relaxed));
}

void release_memory(size_t bytes) { g_in_use.fetch_sub(bytes, std::memory_order_relaxed); }

void check_memory_fits(size_t bytes, std::string_view what) {
  const size_t limit = memory_limit();
  const size_t cur = memory_in_use();
  if (bytes > limit || cur > limit - bytes) refuse(bytes, what, cur, limit);
}

size_t parse_memory_size(std::string_view text) {
  auto bad = [&]() -> size_t {
    fail(ErrorKind::kUsage, "--max-memory {}: expected a size such as 512M, 4G or a number of bytes",
         text.empty() ? "''" : text);
  };
  size_t i = 0;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) ++i;
  if (i == 0) return bad();
  // The number's whole part and its fraction's first 19 digits, as integers: the floor of
  // number * scale is then exact to the byte (through a double, 2^64 - 1 became 2^64 and
  // was refused, and 73.99999999999999999 became 74). Digits past the 19th change no size
  // below an exabyte.
  const std::string_view number = text.substr(0, i);
  const size_t dot = std::min(number.find('.'), number.size());
  if (number.find('.', dot + 1) != std::string_view::npos || number == ".") return bad();
  __extension__ using U128 = unsigned __int128;  // GCC and clang: no -Wpedantic warning
  U128 whole = 0;
  for (char c : number.substr(0, dot)) {
    whole = whole * 10 + static_cast<unsigned>(c - '0');
    if (whole >> 64) return bad();
  }
  const std::string_view fraction = number.substr(std::min(dot + 1, number.size())).substr(0, 19);
  uint64_t tenths = 0, denominator = 1;  // the fraction is tenths / denominator
  for (char c : fraction) {
    tenths = tenths * 10 + static_cast<unsigned>(c - '0');
    denominator *= 10;
  }
  std::string unit(text.substr(i));
  for (char& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  int shift = 0;  // the unit's power of two
  if (!unit.empty() && unit != "B") {
    const char* units = "KMGT";
    const char* p = unit.size() <= 3 ? std::strchr(units, unit[0]) : nullptr;
    if (!p || unit[0] == '\0' || !(unit.size() == 1 || unit.substr(1) == "B" || unit.substr(1) == "IB")) return bad();
    shift = 10 * static_cast<int>(p - units + 1);
  }
  // At most 2^64 << 40 and 10^19 << 40: both fit 128 bits.
  const U128 bytes = (whole << shift) + ((static_cast<U128>(tenths) << shift) / denominator);
  if (bytes < 1 || bytes >> 64) return bad();
  return static_cast<size_t>(bytes);
}

std::string format_bytes(size_t bytes) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 6) {
    v /= 1024;
    ++u;
  }
  if (u == 0) return fmt::format("{} byte{}", bytes, bytes == 1 ? "" : "s");
  return fmt::format("{:.2f} {} ({} bytes)", v, units[u], bytes);
}

}  // namespace onnxrun
