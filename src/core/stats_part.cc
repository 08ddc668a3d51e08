#include "core/stats_part.h"

namespace onnxrun {

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
    m.finite = b.finite, m.mean = b.mean, m.m2 = b.m2;
    return m;
  }
  // Chan, Golub and LeVeque (1979): the pairwise update of mean and M2.
  const double na = static_cast<double>(a.finite), nb = static_cast<double>(b.finite);
  const double n = na + nb;
  const double delta = b.mean - a.mean;
  m.finite = a.finite + b.finite;
  m.mean = a.mean + delta * (nb / n);
  m.m2 = a.m2 + b.m2 + delta * delta * (na * (nb / n));
  return m;
}

}  // namespace onnxrun
