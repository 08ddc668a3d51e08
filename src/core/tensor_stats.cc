#include "core/tensor_stats.h"

#include <cmath>
#include <limits>

#include "core/element.h"

namespace onnxrun {

TensorStats tensor_stats(const Tensor& t) {
  TensorStats s;
  s.count = t.numel();
  if (t.dtype() == DType::kComplex64 || t.dtype() == DType::kComplex128 || !dtype_is_storable(t.dtype())) return s;
  s.numeric = true;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  s.min = s.max = s.mean = s.std = nan;
  // Welford's update: one pass, no cancellation from summing squares.
  double mean = 0, m2 = 0;
  bool any = false;
  for (int64_t k = 0; k < s.count; ++k) {
    const double v = element_as_double(t, k);
    if (std::isnan(v)) {
      ++s.nan;
      continue;
    }
    if (!any || v < s.min) s.min = v;
    if (!any || v > s.max) s.max = v;
    any = true;
    if (std::isinf(v)) {
      ++(v > 0 ? s.pos_inf : s.neg_inf);
      continue;
    }
    ++s.finite;
    const double d = v - mean;
    mean += d / static_cast<double>(s.finite);
    m2 += d * (v - mean);
  }
  if (s.finite) {
    s.mean = mean;
    s.std = std::sqrt(m2 / static_cast<double>(s.finite));
  }
  return s;
}

}  // namespace onnxrun
