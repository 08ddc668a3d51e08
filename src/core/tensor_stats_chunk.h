// The per-chunk kernels of core/tensor_stats.h: one chunk of at most kStatsChunk elements
// in, its StatsPart out. A chunk of finite values takes the fast path: one pass with eight
// independent lanes, each summing d = x - k and d * d in double, k being the chunk's first
// element (so the deviations are those from a value inside the chunk's range, and the
// cancellation in m2 = sum(d * d) - sum(d)^2 / n is bounded: d^2 <= 4 (x - mean)^2 for the
// farthest x); a chunk with a NaN or an infinity (seen as a non-finite lane sum) is redone
// by the plain two-pass loop, which counts them. One pass reads the chunk once and takes
// a quarter fewer operations than two (docs/perf.md, "One-pass statistics"). The AVX2
// and AVX-512 paths use the same lanes in the same order and no fused multiply-add (the
// build has -ffp-contract=off), so every path gives the portable one's bits: the printed
// statistics do not depend on the CPU. Float and double take eight lanes; float16 and
// bfloat16 take sixteen and their min and max from integer keys (half_order_key).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "core/dtype.h"
#include "core/hardware.h"
#include "core/stats_part.h"

namespace onnxrun {

// Eight lanes for float and double: two AVX2 vectors of doubles for each sum, with the
// other sum's adds and the multiplies in between enough to hide their latency (four
// vectors ran out of registers).
inline constexpr size_t kStatsLanes = 8;
// Sixteen for float16 and bfloat16, whose elements come sixteen to a 256-bit load: two
// AVX-512 vectors of doubles per sum, so that no sum waits for its last add (eight lanes
// in one vector were bound by that latency; docs/perf.md, "16-bit statistics").
inline constexpr size_t kStatsLanes16 = 16;

// The min and max of the 16-bit types are taken on these keys, on integer units, by every
// path: a 16-bit float's bits as an int16 ordered as the values are (NaN aside), with -0
// below +0 as IEEE 754-2019's minimum and maximum order them. Negative values have their
// magnitude bits flipped, so that a larger magnitude is a smaller key.
inline int16_t half_order_key(uint16_t bits) { return static_cast<int16_t>(bits ^ ((bits >> 15) * 0x7FFFu)); }
inline uint16_t half_from_order_key(int16_t key) {
  const auto bits = static_cast<uint16_t>(key);
  return static_cast<uint16_t>(bits ^ ((bits >> 15) * 0x7FFFu));
}

// n in [1, kStatsChunk]. The dtype's element layout at `data`. The path of the hardware
// configuration (stats_active_kernels()).
StatsPart chunk_stats(DType dtype, const void* data, size_t n);

// One implementation of the chunk kernels of the four float types.
struct StatsKernels {
  const char* name;
  IsaLevel level;  // what the CPU must have (core/hardware.h)
  StatsPart (*f32)(const float*, size_t);
  StatsPart (*f64)(const double*, size_t);
  StatsPart (*f16)(const uint16_t*, size_t);
  StatsPart (*bf16)(const uint16_t*, size_t);

  bool supported() const { return cpu_hardware().has(level); }  // by this CPU
};

// Every path compiled in: the portable one first, then the vector ones in order of speed.
// Exposed for the tests, which compare them (each where cpu_hardware() has its level).
const StatsKernels& stats_portable_kernels();
const StatsKernels& stats_avx2_kernels();
const StatsKernels& stats_avx512_kernels();

// The widest path `config` allows: portable at the scalar level (ONNXRUN_ISA=scalar).
const StatsKernels& stats_kernels_for(const HardwareConfig& config);
// stats_kernels_for(hardware_config()): the path chunk_stats takes. Throws as
// hardware_config() does.
const StatsKernels& stats_active_kernels();

// Whether a chunk whose largest finite magnitude is `biggest` keeps its squared
// deviations, summed, inside double's normal range: only doubles beyond 2^400 or below
// 2^-400 do not (float, the 16-bit floats and the integers always do). Those chunks take
// the plain loop, which computes M2 on the values divided by a power of two
// (StatsPart::scale): unscaled, [1e200, -1e200] had an infinite std and [1e-300, -1e-300]
// a std of 0.
inline bool squares_in_range(double biggest) { return biggest == 0 || (biggest >= 0x1p-400 && biggest <= 0x1p400); }

// The plain loop over values already widened to T (float or double): every kind of value.
template <class T>
StatsPart plain_stats(const T* x, size_t n);
// The plain loop over a chunk of 16-bit floats, widened to float (exactly) first.
template <float (*to_float)(uint16_t)>
StatsPart plain_stats16(const uint16_t* x, size_t n);

// The part of n finite values: their mean, min, max and sum of squared deviations from
// the mean.
StatsPart finite_part(size_t n, double mean, double mn, double mx, double m2);

// One element into its lane's sums, in the order every path keeps (the vector loops do the
// same operations a vector at a time): d = v - k, then the sums of d and d * d.
inline void add_to_sums(double v, double k, double& s, double& q) {
  const double d = v - k;
  s += d;
  q += d * d;
}

// One float or double into its lane: the sums, then min and max.
template <class T>
inline void add_to_lane(T v, double k, double& s, double& q, T& mn, T& mx) {
  add_to_sums(static_cast<double>(v), k, s, q);
  mn = v < mn ? v : mn;
  mx = v > mx ? v : mx;
}

// The fast paths' common end: the L lanes' sums reduced in order and the part of all n
// elements made, with their min and max; nullopt when a sum is not finite (the caller
// then runs the plain loop, which counts NaN and infinities) or the squares are out of
// range (the plain loop scales them). `k` is the chunk's first element as a double.
template <size_t L>
inline std::optional<StatsPart> finish_sums(size_t n, double k, const double* s, const double* q, double lo,
                                            double hi) {
  double sum = 0, squares = 0;
  for (size_t l = 0; l < L; ++l) {
    sum += s[l];
    squares += q[l];
  }
  if (!std::isfinite(sum) || !std::isfinite(squares)) return std::nullopt;
  if (!squares_in_range(std::max(std::fabs(lo), std::fabs(hi)))) return std::nullopt;
  const double count = static_cast<double>(n);
  const double m2 = squares - sum * (sum / count);
  return finite_part(n, k + sum / count, lo, hi, m2 > 0 ? m2 : 0);
}

// finish_sums for float and double, so that every path fills and reduces its lanes alike:
// the `tail_n` elements at `tail` (those after the last whole group of lanes, fewer than
// one) into lanes s, q, mn, mx as the loop puts them, then the lanes' min and max reduced
// in order.
template <class T>
inline std::optional<StatsPart> finish_lanes(const T* tail, size_t tail_n, size_t n, double k, double* s, double* q,
                                             T* mn, T* mx) {
  for (size_t l = 0; l < tail_n; ++l) add_to_lane(tail[l], k, s[l], q[l], mn[l], mx[l]);
  T lo = mn[0], hi = mx[0];
  for (size_t l = 0; l < kStatsLanes; ++l) {
    lo = mn[l] < lo ? mn[l] : lo;
    hi = mx[l] > hi ? mx[l] : hi;
  }
  return finish_sums<kStatsLanes>(n, k, s, q, lo, hi);
}

// finish_sums for the 16-bit types: the tail (fewer than kStatsLanes16 elements, as bits)
// into the lanes' sums and into the min and max keys of the chunk so far.
template <float (*to_float)(uint16_t)>
inline std::optional<StatsPart> finish_lanes16(const uint16_t* tail, size_t tail_n, size_t n, double k, double* s,
                                               double* q, int16_t lo, int16_t hi) {
  for (size_t l = 0; l < tail_n; ++l) {
    add_to_sums(static_cast<double>(to_float(tail[l])), k, s[l], q[l]);
    const int16_t key = half_order_key(tail[l]);
    lo = key < lo ? key : lo;
    hi = key > hi ? key : hi;
  }
  return finish_sums<kStatsLanes16>(n, k, s, q, to_float(half_from_order_key(lo)), to_float(half_from_order_key(hi)));
}

}  // namespace onnxrun
