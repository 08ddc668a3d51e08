// Counting a run of errors against a median's window (suite/error_median.h): how many lie
// below lo, at lo, at hi, how many are zeros (no errors), and which lie strictly between
// lo and hi. The first pass of a comparison whose elements all differ runs this for every
// error; one element at a time, with a compare and a count per case, it took longer than
// the pass it saves (docs/perf.md), so where the CPU has AVX-512 (core/hardware.h) eight
// are counted at once. Every path counts the same: compares of doubles, no NaN among them.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/hardware.h"

namespace onnxrun {

struct WindowCounts {
  uint64_t below = 0, at_lo = 0, at_hi = 0, zeros = 0;
};

// Counts v[0, n) into `counts` (adds to it) and writes those with lo < v < hi, in order, to
// `inside`, which has room for n + 8; returns how many.
using CountWindow = size_t (*)(const double* v, size_t n, double lo, double hi, WindowCounts& counts, double* inside);

// The definition, one element at a time: what the vector path runs for a run's tail.
inline size_t count_window(const double* v, size_t n, double lo, double hi, WindowCounts& counts, double* inside) {
  size_t m = 0;
  for (size_t k = 0; k < n; ++k) {
    const double x = v[k];
    counts.zeros += x == 0;
    counts.below += x < lo;
    counts.at_lo += x == lo;
    counts.at_hi += x == hi;
    inside[m] = x;
    m += x > lo && x < hi;
  }
  return m;
}

CountWindow count_window_for(const HardwareConfig& config);
CountWindow count_window_avx512();  // for the tests, where the CPU has AVX-512

}  // namespace onnxrun
