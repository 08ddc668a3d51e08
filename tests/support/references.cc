#include "support/references.h"

#include <cmath>

namespace onnxrun {

Comparison compare_tensors_reference(const Tensor& expected, const Tensor& actual, const Tolerance& tol) {
  ComparisonBuilder b(expected, actual.dtype(), actual.shape(), tol, ComparisonBuilder::Path::kReference);
  return b.finish_in_passes([&](int) { b.add(0, actual); });
}

int decade_of_reference(double v) {
  int d = static_cast<int>(std::floor(std::log10(v)));
  if (std::pow(10.0, d + 1) <= v) ++d;
  else if (std::pow(10.0, d) > v) --d;
  return d;
}

}  // namespace onnxrun
