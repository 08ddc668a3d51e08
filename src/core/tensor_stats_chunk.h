// The per-chunk kernels of core/tensor_stats.h: one chunk of at most kStatsChunk elements
// in, its StatsPart out. A chunk of finite values takes the fast path: two passes with
// sixteen independent lanes (sum and min/max, then squared deviations from the chunk's
// mean); a chunk with a NaN or an infinity (seen as a non-finite lane sum) is redone by
// the plain loop, which counts them. The AVX2 path uses the same lanes in the same order
// and no fused multiply-add, so it gives the same bits as the portable one.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/dtype.h"
#include "core/stats_part.h"

namespace onnxrun {

// Sixteen lanes: four AVX2 vectors of doubles, enough to hide the latency of the adds.
inline constexpr size_t kStatsLanes = 16;

// n in [1, kStatsChunk]. The dtype's element layout at `data`.
StatsPart chunk_stats(DType dtype, const void* data, size_t n);

// Exposed for the tests, which compare the paths this CPU runs.
namespace stats_portable {
StatsPart f32(const float* x, size_t n);
StatsPart f64(const double* x, size_t n);
StatsPart f16(const uint16_t* x, size_t n);
StatsPart bf16(const uint16_t* x, size_t n);
}  // namespace stats_portable

namespace stats_avx2 {
bool supported();
StatsPart f32(const float* x, size_t n);
StatsPart f64(const double* x, size_t n);
StatsPart f16(const uint16_t* x, size_t n);
StatsPart bf16(const uint16_t* x, size_t n);
}  // namespace stats_avx2

// The plain loop over values already widened to T (float or double): every kind of value.
template <class T>
StatsPart plain_stats(const T* x, size_t n);

// The fast paths' common ends, so that every path fills and reduces its lanes alike.
// Pass 1 from element i (the first not in a whole group of lanes): elements [i, n) into
// lanes s, mn, mx, then the lanes reduced in order into sum, lo, hi.
template <class T>
struct PassOne {
  double sum;
  T lo, hi;
};
template <class T>
inline PassOne<T> finish_pass_one(const T* x, size_t n, size_t i, double* s, T* mn, T* mx) {
  for (size_t l = 0; i + l < n; ++l) {
    const T v = x[i + l];
    s[l] += static_cast<double>(v);
    mn[l] = v < mn[l] ? v : mn[l];
    mx[l] = v > mx[l] ? v : mx[l];
  }
  PassOne<T> r{0, mn[0], mx[0]};
  for (size_t l = 0; l < kStatsLanes; ++l) {
    r.sum += s[l];
    r.lo = mn[l] < r.lo ? mn[l] : r.lo;
    r.hi = mx[l] > r.hi ? mx[l] : r.hi;
  }
  return r;
}
// Pass 2 from element i: squared deviations from `mean` into lanes q, reduced in order.
template <class T>
inline double finish_pass_two(const T* x, size_t n, size_t i, double mean, double* q) {
  for (size_t l = 0; i + l < n; ++l) {
    const double d = static_cast<double>(x[i + l]) - mean;
    q[l] += d * d;
  }
  double m2 = 0;
  for (size_t l = 0; l < kStatsLanes; ++l) m2 += q[l];
  return m2;
}

// The part of n finite values with their lane sums and min/max already reduced (the fast
// paths' second half): `sum` their sum, `mn`/`mx` their min and max, `m2` their sum of
// squared deviations from sum / n.
StatsPart finite_part(size_t n, double sum, double mn, double mx, double m2);

}  // namespace onnxrun
