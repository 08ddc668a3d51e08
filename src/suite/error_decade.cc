#include "suite/error_decade.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace onnxrun {
namespace {

constexpr int kTableSize = kMaxDecade - kMinDecade + 2;  // pow(10, d) for d in [kMinDecade, kMaxDecade + 1]

// The same std::pow the reference calls, so the bounds are the reference's bit for bit
// (pow(10, -324) is 0 and pow(10, 309) is inf: the table covers every finite double).
const std::array<double, kTableSize>& powers_of_ten() {
  static const std::array<double, kTableSize> table = [] {
    std::array<double, kTableSize> t{};
    for (int k = 0; k < kTableSize; ++k) t[k] = std::pow(10.0, static_cast<double>(k + kMinDecade));
    return t;
  }();
  return table;
}

// The search from a guess: floor(e * log10(2)) (78913 / 2^18 is log10(2) to 6 digits; the
// shift floors) is the decade of a normal v in [2^e, 2^(e+1)) or one off, and the table
// settles which. A subnormal's guess is too high by up to 16 decades, stepped down.
int decade_by_search(double v, int e) {
  const std::array<double, kTableSize>& p = powers_of_ten();
  int d = (e * 78913) >> 18;
  if (d < kMinDecade) d = kMinDecade;
  if (d > kMaxDecade) d = kMaxDecade;
  while (d < kMaxDecade && p[d + 1 - kMinDecade] <= v) ++d;
  while (d > kMinDecade && p[d - kMinDecade] > v) --d;
  return d;
}

// The decade of 2^e for each biased exponent of a normal double (index 0, subnormals, unused).
const std::array<int16_t, 2047>& decade_of_binade() {
  static const std::array<int16_t, 2047> table = [] {
    std::array<int16_t, 2047> t{};
    for (int biased = 1; biased < 2047; ++biased)
      t[biased] = static_cast<int16_t>(decade_by_search(std::ldexp(1.0, biased - 1023), biased - 1023));
    return t;
  }();
  return table;
}

}  // namespace

int decade_of(double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  const int biased = static_cast<int>((bits >> 52) & 0x7ff);
  if (biased == 0) return decade_by_search(v, -1023);
  // [2^e, 2^(e+1)) spans less than a decade: v's decade is 2^e's or the next.
  static const std::array<int16_t, 2047>& binade = decade_of_binade();
  static const std::array<double, kTableSize>& p = powers_of_ten();
  const int d = binade[biased];
  return p[d + 1 - kMinDecade] <= v ? d + 1 : d;
}

int decade_of_reference(double v) {
  int d = static_cast<int>(std::floor(std::log10(v)));
  if (std::pow(10.0, d + 1) <= v) ++d;
  else if (std::pow(10.0, d) > v) --d;
  return d;
}

}  // namespace onnxrun
