// The statistics of part of a tensor, as core/tensor_stats.h computes them chunk by
// chunk (core/tensor_stats_chunk.h) and merges them in order.
#pragma once

#include <cstddef>
#include <cstdint>

namespace onnxrun {

inline constexpr size_t kStatsChunk = 4096;

// One chunk's contribution (or several merged): counts, min/max over non-NaN values, and
// the finite values' count, mean and sum of squared deviations from it (M2).
struct StatsPart {
  int64_t count = 0, nan = 0, pos_inf = 0, neg_inf = 0, finite = 0;
  bool any = false;  // a non-NaN value was seen: min and max are set
  double min = 0, max = 0;
  double mean = 0, m2 = 0;
  // m2 is that of the values divided by 2^scale: doubles whose squares would overflow
  // or underflow (tensor_stats_chunk.h, squares_in_range) keep M2 in range so. 0 for
  // every other part, whose arithmetic is then that of no scale at all.
  int scale = 0;
};

// b merged after a: counts added, min/max combined, and the finite values' mean and M2
// by Chan, Golub and LeVeque's pairwise update, at the larger scale of the two.
StatsPart merge_stats(const StatsPart& a, const StatsPart& b);

// The population standard deviation of the part's finite values; NaN when there are none.
double stats_std(const StatsPart& p);

}  // namespace onnxrun
