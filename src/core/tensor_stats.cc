#include "core/tensor_stats.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/error.h"
#include "core/fail.h"
#include "core/tensor_stats_chunk.h"
#include "core/thread_pool.h"

namespace onnxrun {
namespace {

// Chunks per parallel piece: big enough that a piece outweighs waking a thread.
constexpr size_t kChunksPerPiece = 16;

bool has_arithmetic(DType t) { return t != DType::kComplex64 && t != DType::kComplex128 && dtype_is_storable(t); }

}  // namespace

StatsAccumulator::StatsAccumulator(DType dtype, size_t count)
    : dtype_(dtype),
      esize_(dtype_size(dtype)),
      numeric_(has_arithmetic(dtype)),
      count_(count),
      chunks_((count + kStatsChunk - 1) / kStatsChunk) {}

size_t StatsAccumulator::chunk_size(size_t c) const { return std::min(kStatsChunk, count_ - c * kStatsChunk); }

void StatsAccumulator::add_piece(size_t c, size_t offset, const unsigned char* data, size_t n) {
  const size_t len = chunk_size(c);
  Partial& p = partial_[c];
  if (p.bytes.empty()) p.bytes.resize(len * esize_);
  std::memcpy(p.bytes.data() + offset * esize_, data, n * esize_);
  p.filled += n;
  if (p.filled < len) return;
  ready_[c] = {chunk_stats(dtype_, p.bytes.data(), len)};
  partial_.erase(c);
}

void StatsAccumulator::merge_ready() {
  for (auto it = ready_.find(next_); it != ready_.end(); it = ready_.find(next_)) {
    for (const StatsPart& part : it->second) total_ = merge_stats(total_, part);
    next_ += it->second.size();
    ready_.erase(it);
  }
}

void StatsAccumulator::add(size_t first, const void* data, size_t n, ThreadPool* pool) {
  if (n > count_ || first > count_ - n)
    fail(ErrorKind::kInternal, "statistics of {} elements given elements [{}, {})", count_, first, first + n);
  if (!numeric_ || n == 0) {
    std::lock_guard<std::mutex> lock(mu_);
    added_ += n;
    return;
  }
  const auto* p = static_cast<const unsigned char*>(data);
  // The elements before the first chunk boundary, then whole chunks (the tensor's last
  // chunk may be short, and is whole when the block ends the tensor), then the rest.
  const size_t head = first % kStatsChunk ? std::min(n, kStatsChunk - first % kStatsChunk) : 0;
  const size_t whole_at = first + head, end = first + n, rest = end - whole_at;
  const size_t c0 = whole_at / kStatsChunk;
  const size_t whole = rest / kStatsChunk + (end == count_ && rest % kStatsChunk ? 1 : 0);
  const size_t tail_at = std::min(end, whole_at + whole * kStatsChunk);
  std::vector<StatsPart> parts(whole);
  if (whole) {
    const unsigned char* w = p + head * esize_;
    parallel_for(pool, whole, kChunksPerPiece, 1, [&](size_t b, size_t e) {
      for (size_t c = b; c < e; ++c) parts[c] = chunk_stats(dtype_, w + c * kStatsChunk * esize_, chunk_size(c0 + c));
    });
  }
  std::lock_guard<std::mutex> lock(mu_);
  added_ += n;
  if (head) add_piece(first / kStatsChunk, first % kStatsChunk, p, head);
  if (whole) ready_.emplace(c0, std::move(parts));
  if (tail_at < end) add_piece(tail_at / kStatsChunk, 0, p + (tail_at - first) * esize_, end - tail_at);
  merge_ready();
}

TensorStats StatsAccumulator::result() const {
  std::lock_guard<std::mutex> lock(mu_);
  if (added_ != count_ || (numeric_ && next_ != chunks_))
    fail(ErrorKind::kInternal, "statistics of {} elements given {} of them", count_, added_);
  TensorStats s;
  s.count = static_cast<int64_t>(count_);
  if (!numeric_) return s;
  s.numeric = true;
  const StatsPart& t = total_;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  s.nan = t.nan;
  s.pos_inf = t.pos_inf;
  s.neg_inf = t.neg_inf;
  s.finite = t.finite;
  s.min = t.any ? t.min : nan;
  s.max = t.any ? t.max : nan;
  s.mean = t.finite ? t.mean : nan;
  s.std = stats_std(t);
  return s;
}

TensorStats tensor_stats(const Tensor& t, ThreadPool* pool) {
  StatsAccumulator a(t.dtype(), static_cast<size_t>(t.numel()));
  a.add(0, t.numel() ? t.raw() : nullptr, static_cast<size_t>(t.numel()), pool);
  return a.result();
}

}  // namespace onnxrun
