#include "io/page_matched_write.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>

#include <unistd.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "core/error.h"
#include "core/fail.h"

namespace onnxrun {
namespace {

constexpr uint64_t kPage = 4096;
constexpr uint64_t kShortDistance = 64;
// A piece staged at a time: stays in L2 between the copy in and the kernel's copy out.
constexpr size_t kStageBytes = size_t{256} << 10;

void write_all(int fd, const unsigned char* p, size_t n, uint64_t position, bool sequential, const std::string& path) {
  while (n > 0) {
    const ssize_t put = sequential ? ::write(fd, p, n) : ::pwrite(fd, p, n, static_cast<off_t>(position));
    if (put < 0 && errno == EINTR) continue;
    if (put <= 0) fail(ErrorKind::kIo, "cannot write {}: {}", path, std::strerror(put < 0 ? errno : ENOSPC));
    p += put;
    position += static_cast<uint64_t>(put);
    n -= static_cast<size_t>(put);
  }
}

// A copy by vector moves: glibc's memcpy takes `rep movsb` for a copy this size, which is
// as slow into the shifted staging buffer as the kernel's copy out of the block.
void copy_by_vectors(unsigned char* dst, const unsigned char* src, size_t n) {
  size_t i = 0;
#ifdef __SSE2__
  for (; i + 64 <= n; i += 64)
    for (size_t j = 0; j < 64; j += 16)
      _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i + j),
                       _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + j)));
#endif
  std::memcpy(dst + i, src + i, n - i);
}

struct FreeDeleter {
  void operator()(unsigned char* p) const { std::free(p); }
};

// This thread's staging buffer: a page more than a piece, so that a piece can start at
// any offset within its first page.
unsigned char* stage() {
  thread_local std::unique_ptr<unsigned char, FreeDeleter> buffer(
      static_cast<unsigned char*>(std::aligned_alloc(kPage, kStageBytes + kPage)));
  if (!buffer) throw std::bad_alloc();
  return buffer.get();
}

}  // namespace

bool is_short_distance_copy(const void* data, uint64_t position) {
  const uint64_t distance = (position - reinterpret_cast<uintptr_t>(data)) % kPage;
  return distance != 0 && (distance < kShortDistance || distance > kPage - kShortDistance);
}

void write_page_matched(int fd, const void* data, size_t n, uint64_t position, bool sequential,
                        const std::string& path) {
  const auto* p = static_cast<const unsigned char*>(data);
  if (n < kStageBytes || !is_short_distance_copy(p, position)) return write_all(fd, p, n, position, sequential, path);
  unsigned char* const base = stage();
  while (n > 0) {
    const size_t piece = std::min(n, kStageBytes);
    unsigned char* at = base + position % kPage;  // distance 0 from the file position
    copy_by_vectors(at, p, piece);
    write_all(fd, at, piece, position, sequential, path);
    p += piece;
    position += piece;
    n -= piece;
  }
}

}  // namespace onnxrun
