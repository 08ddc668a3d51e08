#include "core/tensor_stats.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/tensor_stats_chunk.h"
#include "core/thread_pool.h"

namespace onnxrun {
namespace {

// Chunks per parallel piece: big enough that a piece outweighs waking a thread.
constexpr size_t kChunksPerPiece = 16;

bool has_arithmetic(DType t) { return t != DType::kComplex64 && t != DType::kComplex128 && dtype_is_storable(t); }

}  // namespace

StatsAccumulator::StatsAccumulator(DType dtype)
    : dtype_(dtype), esize_(dtype_size(dtype)), numeric_(has_arithmetic(dtype)) {}

void StatsAccumulator::add_chunks(const unsigned char* data, size_t chunks, ThreadPool* pool) {
  if (chunks == 1) {
    total_ = merge_stats(total_, chunk_stats(dtype_, data, kStatsChunk));
    return;
  }
  std::vector<StatsPart> parts(chunks);
  parallel_for(pool, chunks, kChunksPerPiece, 1, [&](size_t begin, size_t end) {
    for (size_t c = begin; c < end; ++c) parts[c] = chunk_stats(dtype_, data + c * kStatsChunk * esize_, kStatsChunk);
  });
  for (const StatsPart& p : parts) total_ = merge_stats(total_, p);
}

void StatsAccumulator::add(const void* data, size_t n, ThreadPool* pool) {
  count_ += static_cast<int64_t>(n);
  if (!numeric_ || n == 0) return;
  const auto* p = static_cast<const unsigned char*>(data);
  const size_t chunk_bytes = kStatsChunk * esize_;
  if (!carry_.empty()) {  // complete the chunk the last block ended in
    const size_t take = std::min(n, kStatsChunk - carry_.size() / esize_);
    carry_.insert(carry_.end(), p, p + take * esize_);
    p += take * esize_;
    n -= take;
    if (carry_.size() < chunk_bytes) return;
    add_chunks(carry_.data(), 1, pool);
    carry_.clear();
  }
  const size_t whole = n / kStatsChunk;
  if (whole) add_chunks(p, whole, pool);
  carry_.assign(p + whole * chunk_bytes, p + n * esize_);
}

TensorStats StatsAccumulator::result() const {
  TensorStats s;
  s.count = count_;
  if (!numeric_) return s;
  s.numeric = true;
  StatsPart t = total_;
  if (!carry_.empty()) t = merge_stats(t, chunk_stats(dtype_, carry_.data(), carry_.size() / esize_));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  s.nan = t.nan;
  s.pos_inf = t.pos_inf;
  s.neg_inf = t.neg_inf;
  s.finite = t.finite;
  s.min = t.any ? t.min : nan;
  s.max = t.any ? t.max : nan;
  s.mean = t.finite ? t.mean : nan;
  s.std = t.finite ? std::sqrt(t.m2 / static_cast<double>(t.finite)) : nan;
  return s;
}

TensorStats tensor_stats(const Tensor& t, ThreadPool* pool) {
  StatsAccumulator a(t.dtype());
  a.add(t.numel() ? t.raw() : nullptr, static_cast<size_t>(t.numel()), pool);
  return a.result();
}

}  // namespace onnxrun
