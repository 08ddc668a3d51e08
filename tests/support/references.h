// Plain definitions the tests hold the product's fast code to. The onnx-run program never
// calls them, so they live here rather than in src/.
#pragma once

#include "core/tensor.h"
#include "suite/compare.h"

namespace onnxrun {

// compare_tensors through ComparisonBuilder::Path::kReference, in one block.
Comparison compare_tensors_reference(const Tensor& expected, const Tensor& actual, const Tolerance& tol);

// floor(log10(v)) for a finite v > 0 by its definition (suite/error_decade.h: decade_of):
// log10, then one step of correction against std::pow.
int decade_of_reference(double v);

}  // namespace onnxrun
