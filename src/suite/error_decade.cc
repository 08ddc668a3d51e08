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

}  // namespace

int decade_of(double v) {
  const std::array<double, kTableSize>& p = powers_of_ten();
  // A normal v lies in [2^e, 2^(e+1)), so log10(v) in [e * log10(2), (e + 1) * log10(2)):
  // the guess floor(e * log10(2)) (78913 / 2^18 is log10(2) to 6 digits; the shift
  // floors) is the decade or one off; the table settles which. A subnormal's guess is
  // too high by up to 16 decades, stepped down (rare: an error below 2.2e-308).
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  const int e = static_cast<int>((bits >> 52) & 0x7ff) - 1023;
  int d = (e * 78913) >> 18;
  if (d < kMinDecade) d = kMinDecade;
  if (d > kMaxDecade) d = kMaxDecade;
  while (d < kMaxDecade && p[d + 1 - kMinDecade] <= v) ++d;
  while (d > kMinDecade && p[d - kMinDecade] > v) --d;
  return d;
}

int decade_of_reference(double v) {
  int d = static_cast<int>(std::floor(std::log10(v)));
  if (std::pow(10.0, d + 1) <= v) ++d;
  else if (std::pow(10.0, d) > v) --d;
  return d;
}

}  // namespace onnxrun
