// Summary statistics of a tensor, as printed after each output: min, max, mean, standard
// deviation, and counts of NaN and infinities.
#pragma once

#include <cstdint>

#include "core/tensor.h"

namespace onnxrun {

struct TensorStats {
  bool numeric = false;  // false for types without arithmetic (complex, string): the rest is zero
  int64_t count = 0;     // elements
  int64_t nan = 0;
  int64_t pos_inf = 0;
  int64_t neg_inf = 0;
  int64_t finite = 0;
  // min and max over the non-NaN elements (so they may be infinite); mean and std
  // (population, ddof=0, as numpy's) over the finite elements. NaN when there are none.
  double min = 0, max = 0, mean = 0, std = 0;
};

TensorStats tensor_stats(const Tensor& t);

}  // namespace onnxrun
