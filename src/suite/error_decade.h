// The decade of an error, floor(log10(v)), for the error histogram (suite/error_stats.h):
// computed from the binary exponent and a table of std::pow(10, d), so that a comparison
// of millions of differing elements spends no log10 and no pow on each.
#pragma once

namespace onnxrun {

inline constexpr int kMinDecade = -324;  // of the smallest subnormal double, 4.9e-324
inline constexpr int kMaxDecade = 308;   // of the largest double, 1.8e308

// floor(log10(v)) for a finite v > 0: the d with pow(10, d) <= v < pow(10, d + 1), exact at
// the powers of ten themselves. Always what decade_of_reference gives.
int decade_of(double v);

// The definition: log10, then one step of correction against std::pow. Kept for tests.
int decade_of_reference(double v);

}  // namespace onnxrun
