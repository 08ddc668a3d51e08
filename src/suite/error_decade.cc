#include "suite/error_decade.h"

#include <cmath>

namespace onnxrun {
namespace {

// The search from a guess: floor(e * log10(2)) (78913 / 2^18 is log10(2) to 6 digits; the
// shift floors) is the decade of a normal v in [2^e, 2^(e+1)) or one off, and the table
// settles which. A subnormal's guess is too high by up to 16 decades, stepped down.
int decade_by_search(const DecadeTables& t, double v, int e) {
  int d = (e * 78913) >> 18;
  if (d < kMinDecade) d = kMinDecade;
  if (d > kMaxDecade) d = kMaxDecade;
  while (d < kMaxDecade && t.power[d + 1 - kMinDecade] <= v) ++d;
  while (d > kMinDecade && t.power[d - kMinDecade] > v) --d;
  return d;
}

}  // namespace

const DecadeTables& decade_tables() {
  static const DecadeTables tables = [] {
    DecadeTables t{};
    for (size_t k = 0; k < t.power.size(); ++k) t.power[k] = std::pow(10.0, static_cast<double>(k) + kMinDecade);
    for (int biased = 1; biased < 2047; ++biased)
      t.binade[biased] = static_cast<int16_t>(decade_by_search(t, std::ldexp(1.0, biased - 1023), biased - 1023));
    return t;
  }();
  return tables;
}

int decade_of_subnormal(double v) { return decade_by_search(decade_tables(), v, -1023); }

}  // namespace onnxrun
