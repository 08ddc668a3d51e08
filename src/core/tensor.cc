#include "core/tensor.h"

#include <sys/mman.h>

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <mutex>
#include <new>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.h"
#include "core/fail.h"
#include "core/memory_limit.h"

namespace onnxrun {

std::string shape_to_string(const Shape& shape) { return fmt::format("[{}]", fmt::join(shape, ",")); }

void check_rank(size_t rank) {
  if (rank > kMaxRank)
    fail(ErrorKind::kInvalid, "a shape of rank {} is above the limit of {} dimensions", rank, kMaxRank);
}

int64_t checked_numel(const Shape& shape) {
  check_rank(shape.size());
  int64_t n = 1;
  // Multiplied with an overflow check, not a division per dimension: every tensor made
  // counts its elements, and a division cost a small run more than its arithmetic. A
  // zero dim anywhere makes the count 0, even after huge earlier dims that do not overflow.
  for (int64_t d : shape) {
    if (d < 0) fail(ErrorKind::kInvalid, "negative dimension {} in shape {}", d, shape_to_string(shape));
    if (__builtin_mul_overflow(n, d, &n))
      fail(ErrorKind::kSecurity, "shape {} has more elements than 2^63", shape_to_string(shape));
  }
  return n;
}

namespace {

// The bytes of `n` elements of `t` (n = checked_numel(shape), `shape` for messages).
size_t checked_bytes(DType t, int64_t n, const Shape& shape) {
  const size_t size = dtype_size(t);
  if (size == 0)
    fail_unsupported(Cause{Cause::Kind::kType, "", "", 0, std::string(dtype_name(t)), ""},
                     "element type {} cannot be held in a tensor", dtype_name(t));
  if (static_cast<uint64_t>(n) > SIZE_MAX / size)
    fail(ErrorKind::kSecurity, "{}{} needs more than 2^64 bytes", dtype_name(t), shape_to_string(shape));
  return static_cast<size_t>(n) * size;
}

}  // namespace

size_t checked_nbytes(DType t, const Shape& shape) { return checked_bytes(t, checked_numel(shape), shape); }

namespace {

// Freed large buffers kept for reuse: at most kCacheSlots, each reused only for a
// request at least half its size, so little memory is held beyond what a run needed.
constexpr size_t kCacheSlots = 4;
constexpr size_t kHugePage = size_t{2} << 20;

struct LargeCache {
  std::mutex mu;
  std::vector<std::pair<void*, size_t>> free;  // (address, mapped length)
};
LargeCache& large_cache() {
  static auto* cache = new LargeCache;  // never destroyed: buffers may die at exit
  return *cache;
}

// Mapped memory of at least `bytes` bytes; sets *mapped to its length.
void* large_alloc(size_t bytes, size_t* mapped) {
  const size_t len = (bytes + kHugePage - 1) / kHugePage * kHugePage;
  {
    LargeCache& c = large_cache();
    std::lock_guard<std::mutex> lock(c.mu);
    for (size_t i = 0; i < c.free.size(); ++i) {
      auto [p, plen] = c.free[i];
      if (plen >= len && plen / 2 <= len) {
        c.free.erase(c.free.begin() + static_cast<std::ptrdiff_t>(i));
        *mapped = plen;
        return p;
      }
    }
  }
  void* p = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
  madvise(p, len, MADV_HUGEPAGE);  // advice only: without it the memory still works
#endif
  *mapped = len;
  return p;
}

void large_free(void* p, size_t len) {
  {
    LargeCache& c = large_cache();
    std::lock_guard<std::mutex> lock(c.mu);
    if (c.free.size() < kCacheSlots) {
      c.free.emplace_back(p, len);
      return;
    }
  }
  munmap(p, len);
}

// Freed mid-size blocks, per thread: up to kSlots of each power-of-two size from 1 KiB
// to kLargeBytes. A block freed on another thread joins that thread's cache.
constexpr int kMinClassBits = 10;
constexpr int kClasses = 11;  // 2^10 .. 2^20 bytes
static_assert((size_t{1} << (kMinClassBits + kClasses - 1)) == Buffer::kLargeBytes);
struct SmallCache {
  static constexpr int kSlots = 4;
  void* slots[kClasses][kSlots] = {};
  int count[kClasses] = {};
  ~SmallCache() {
    for (int c = 0; c < kClasses; ++c)
      for (int k = 0; k < count[c]; ++k) std::free(slots[c][k]);
  }
};
thread_local SmallCache small_cache;

int size_class(size_t bytes) {
  const int bits = std::bit_width(bytes - 1);  // 2^bits >= bytes
  return std::max(bits, kMinClassBits) - kMinClassBits;
}

void* small_alloc(int c) {
  SmallCache& cache = small_cache;
  if (cache.count[c] > 0) return cache.slots[c][--cache.count[c]];
  void* p = std::aligned_alloc(Buffer::kAlignment, size_t{1} << (c + kMinClassBits));
  if (!p) throw std::bad_alloc();
  return p;
}

void small_free(void* p, int c) {
  SmallCache& cache = small_cache;
  if (cache.count[c] < SmallCache::kSlots) cache.slots[c][cache.count[c]++] = p;
  else std::free(p);
}

}  // namespace

std::shared_ptr<Buffer> Buffer::allocate(size_t bytes, std::string_view what) {
  // Counted against the memory limit before the system is asked (memory_limit.h).
  reserve_memory(bytes, what);
  try {
    return allocate_uncounted(bytes);
  } catch (...) {
    release_memory(bytes);
    throw;
  }
}

std::shared_ptr<Buffer> Buffer::allocate_uncounted(size_t bytes) {
  if (bytes >= (size_t{1} << kMinClassBits) && bytes < kLargeBytes) {
    const int c = size_class(bytes);
    return adopt(static_cast<std::byte*>(small_alloc(c)), bytes, c, 0);
  }
  if (bytes >= kLargeBytes) {
    size_t mapped = 0;
    void* p = large_alloc(bytes, &mapped);
    return adopt(static_cast<std::byte*>(p), bytes, -1, mapped);
  }
  // aligned_alloc wants a multiple of the alignment; never ask for 0 bytes.
  const size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
  if (rounded < bytes) throw std::bad_alloc();
  void* p = std::aligned_alloc(kAlignment, rounded == 0 ? kAlignment : rounded);
  if (!p) throw std::bad_alloc();
  return adopt(static_cast<std::byte*>(p), bytes, -1, 0);
}

std::shared_ptr<Buffer> Buffer::adopt(std::byte* data, size_t bytes, int size_class, size_t mapped) {
  std::shared_ptr<Buffer> b;
  try {
    b = std::make_shared<Buffer>(Key{}, data, bytes, true, true, nullptr);
  } catch (...) {
    free_owned(data, size_class, mapped);
    throw;
  }
  b->size_class_ = size_class;
  b->mapped_ = mapped;
  return b;
}

void Buffer::free_owned(std::byte* data, int size_class, size_t mapped) {
  if (mapped) large_free(data, mapped);
  else if (size_class >= 0) small_free(data, size_class);
  else std::free(data);
}

std::shared_ptr<Buffer> Buffer::borrow(const void* data, size_t bytes, std::shared_ptr<const void> owner,
                                       bool writable) {
  // The const_cast is safe: mutable_data() refuses to hand it out unless writable.
  auto* p = static_cast<std::byte*>(const_cast<void*>(data));
  return std::make_shared<Buffer>(Key{}, p, bytes, false, writable, std::move(owner));
}

Buffer::~Buffer() {
  if (!owned_) return;
  free_owned(data_, size_class_, mapped_);
  release_memory(size_);
}

std::byte* Buffer::mutable_data() {
  if (!writable_) fail(ErrorKind::kInternal, "write to a read-only tensor buffer");
  return data_;
}

Tensor::Tensor(DType dtype, Shape shape) : dtype_(dtype), shape_(std::move(shape)), numel_(checked_numel(shape_)) {
  allocate(checked_bytes(dtype_, numel_, shape_));
}

void Tensor::allocate(size_t bytes) {
  // The tensor is named only when the memory limit refuses it: formatting its name for
  // every allocation would cost more than a small run's arithmetic.
  try {
    buffer_ = Buffer::allocate(bytes);
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::kSecurity) throw;
    buffer_ = Buffer::allocate(bytes, describe());  // refused again, now with the name
  }
}

Tensor::Tensor(DType dtype, Shape shape, std::shared_ptr<Buffer> buffer)
    : dtype_(dtype), shape_(std::move(shape)), numel_(checked_numel(shape_)), buffer_(std::move(buffer)) {
  if (!buffer_ || buffer_->size() < checked_bytes(dtype_, numel_, shape_))
    fail(ErrorKind::kInternal, "buffer too small for {}", describe());
}

Tensor overwrite_or_allocate(Tensor& x) {
  if (x.can_overwrite()) return std::move(x);
  Tensor y;  // x's shape and size were checked when x was made
  y.dtype_ = x.dtype_;
  y.shape_ = std::move(x.shape_);
  y.numel_ = x.numel_;
  y.allocate(x.nbytes());
  return y;
}

std::string Tensor::describe() const { return fmt::format("{}{}", dtype_name(dtype_), shape_to_string(shape_)); }

}  // namespace onnxrun
