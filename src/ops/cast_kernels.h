// Element type conversion as ONNX's Cast defines it (CastLike converts the same way):
//  - to float16 / bfloat16 / float: one rounding to nearest, ties to even; NaN stays NaN,
//    infinities keep their sign, a finite value too large becomes infinity. Integers
//    convert with one rounding too (int64 -> bfloat16 included).
//  - float to integer: truncation toward zero. Out-of-range results are not specified
//    by ONNX; onnx-run saturates: values beyond the target's range (and +-inf) give its
//    largest / smallest value, NaN gives 0.
//  - integer to integer: two's complement wrap-around (keep the low bits), as numpy.
//  - to bool: nonzero is true (NaN is nonzero); from bool: 1 or 0.
#pragma once

#include "core/tensor.h"

namespace onnxrun {

// Converts every element of `in` into `out`. REQUIRES: equal element counts; both types
// computable (dtype_dispatch.h), else Error(kUnsupported).
void cast_elements(const Tensor& in, Tensor& out);

}  // namespace onnxrun
