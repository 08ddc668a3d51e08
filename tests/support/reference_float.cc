#include "support/reference_float.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace onnxrun::test {

double ref_decode(SmallFloatFormat f, uint16_t bits) {
  const int bias = (1 << (f.exp_bits - 1)) - 1;
  const int sign = (bits >> (f.exp_bits + f.man_bits)) & 1;
  const int e = (bits >> f.man_bits) & ((1 << f.exp_bits) - 1);
  const int m = bits & ((1 << f.man_bits) - 1);
  double v;
  if (e == (1 << f.exp_bits) - 1) v = m ? NAN : INFINITY;
  else if (e == 0) v = std::ldexp(m, 1 - bias - f.man_bits);          // subnormal: 0.m * 2^(1-bias)
  else v = std::ldexp(m + (1 << f.man_bits), e - bias - f.man_bits);  // 1.m * 2^(e-bias)
  return sign ? -v : v;
}

bool ref_is_nan(SmallFloatFormat f, uint16_t bits) { return std::isnan(ref_decode(f, bits)); }

namespace {
struct Table {
  std::vector<double> values;  // every non-negative finite value, ascending, then 2^(emax+1)
  std::vector<uint16_t> bits;  // their patterns; the last is +infinity
};

const Table& table_for(SmallFloatFormat f) {
  static std::map<int, Table> tables;
  Table& t = tables[f.exp_bits * 100 + f.man_bits];
  if (t.values.empty()) {
    const uint16_t inf = static_cast<uint16_t>(((1 << f.exp_bits) - 1) << f.man_bits);
    for (uint32_t b = 0; b < inf; ++b) {  // non-negative patterns below +inf are ascending
      t.values.push_back(ref_decode(f, static_cast<uint16_t>(b)));
      t.bits.push_back(static_cast<uint16_t>(b));
    }
    // Rounding treats infinity as the next power of two, whose pattern is even.
    const int bias = (1 << (f.exp_bits - 1)) - 1;
    t.values.push_back(std::ldexp(1.0, bias + 1));
    t.bits.push_back(inf);
  }
  return t;
}
}  // namespace

uint16_t ref_round(SmallFloatFormat f, double v) {
  const uint16_t sign = static_cast<uint16_t>(1u << (f.exp_bits + f.man_bits));
  const uint16_t inf = static_cast<uint16_t>(((1 << f.exp_bits) - 1) << f.man_bits);
  if (std::isnan(v)) return static_cast<uint16_t>(inf | (1 << (f.man_bits - 1)));
  const uint16_t s = std::signbit(v) ? sign : 0;
  const double a = std::fabs(v);
  const Table& t = table_for(f);
  if (a >= t.values.back()) return s | inf;
  auto hi = std::lower_bound(t.values.begin(), t.values.end(), a);
  size_t k = static_cast<size_t>(hi - t.values.begin());
  if (t.values[k] == a || k == 0) return s | t.bits[k];
  const double down = a - t.values[k - 1], up = t.values[k] - a;
  size_t pick = down < up ? k - 1 : up < down ? k : ((t.bits[k - 1] & 1) == 0 ? k - 1 : k);
  return s | t.bits[pick];
}

}  // namespace onnxrun::test
