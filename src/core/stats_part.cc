#include "core/stats_part.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace onnxrun {
namespace {

// The scale a merge works at: the larger of the two parts', but a part whose finite
// values are all zero says nothing by its scale (a tiny part's M2 would be lost at it).
int merged_scale(const StatsPart& a, const StatsPart& b) {
  const bool a_zero = a.mean == 0 && a.m2 == 0, b_zero = b.mean == 0 && b.m2 == 0;
  if (a_zero || b_zero) return a_zero ? b.scale : a.scale;
  return std::max(a.scale, b.scale);
}

}  // namespace

StatsPart merge_stats(const StatsPart& a, const StatsPart& b) {
  StatsPart m = a;
  m.count += b.count;
  m.nan += b.nan;
  m.pos_inf += b.pos_inf;
  m.neg_inf += b.neg_inf;
  if (b.any) {
    m.min = !a.any || b.min < a.min ? b.min : a.min;
    m.max = !a.any || b.max > a.max ? b.max : a.max;
    m.any = true;
  }
  if (b.finite == 0) return m;
  if (a.finite == 0) {
    m.finite = b.finite, m.mean = b.mean, m.m2 = b.m2, m.scale = b.scale;
    return m;
  }
  // Chan, Golub and LeVeque (1979): the pairwise update of mean and M2, on the means
  // divided by 2^s, so that their difference and its square stay finite. Scaling by a
  // power of two is exact in range: at scale 0 these are the unscaled operations' bits.
  const int s = merged_scale(a, b);
  const double na = static_cast<double>(a.finite), nb = static_cast<double>(b.finite);
  const double n = na + nb;
  const double delta = std::ldexp(b.mean, -s) - std::ldexp(a.mean, -s);
  m.finite = a.finite + b.finite;
  m.mean = a.mean + std::ldexp(delta * (nb / n), s);
  m.m2 = std::ldexp(a.m2, 2 * (a.scale - s)) + std::ldexp(b.m2, 2 * (b.scale - s)) + delta * delta * (na * (nb / n));
  m.scale = s;
  return m;
}

double stats_std(const StatsPart& p) {
  if (p.finite == 0) return std::numeric_limits<double>::quiet_NaN();
  return std::ldexp(std::sqrt(p.m2 / static_cast<double>(p.finite)), p.scale);
}

}  // namespace onnxrun
