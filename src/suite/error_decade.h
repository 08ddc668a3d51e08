// The decade of an error, floor(log10(v)), for the error histogram (suite/error_stats.h):
// computed from the binary exponent and a table of std::pow(10, d), so that a comparison
// of millions of differing elements spends no log10 and no pow on each.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>

namespace onnxrun {

inline constexpr int kMinDecade = -324;  // of the smallest subnormal double, 4.9e-324
inline constexpr int kMaxDecade = 308;   // of the largest double, 1.8e308

// What decade_of reads, built once: the same std::pow the reference calls, so the bounds
// are the reference's bit for bit (pow(10, -324) is 0 and pow(10, 309) is inf: the table
// covers every finite double).
struct DecadeTables {
  std::array<double, kMaxDecade - kMinDecade + 2> power;  // pow(10, d) at d - kMinDecade, up to kMaxDecade + 1
  std::array<int16_t, 2047> binade;  // the decade of 2^(b - 1023) at each biased exponent b of a normal double
};
const DecadeTables& decade_tables();

// The decade of a subnormal v > 0.
int decade_of_subnormal(double v);

// floor(log10(v)) for a finite v > 0: the d with pow(10, d) <= v < pow(10, d + 1), exact at
// the powers of ten themselves. Always what decade_of_reference (tests/support) gives. Inline
// with the tables at hand: the histogram asks it of every differing element.
[[gnu::always_inline]] inline int decade_of(double v, const DecadeTables& t) {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  const int biased = static_cast<int>((bits >> 52) & 0x7ff);
  if (biased == 0) return decade_of_subnormal(v);
  // [2^e, 2^(e+1)) spans less than a decade: v's decade is 2^e's or the next.
  const int d = t.binade[biased];
  return t.power[d + 1 - kMinDecade] <= v ? d + 1 : d;
}
inline int decade_of(double v) { return decade_of(v, decade_tables()); }

}  // namespace onnxrun
