// Reading single elements of a tensor of any numeric type, for printing and comparing
// (not for kernels: these go through a switch per element).
#pragma once

#include <cstdint>
#include <string>

#include "core/tensor.h"

namespace onnxrun {

// Element k as a double: exact for every float type and for integers below 2^53; NaN
// for types without arithmetic.
double element_as_double(const Tensor& t, int64_t k);

// Element k's raw bits in hex ("0x3c00"): for the float types, and for the types without
// arithmetic that are compared by their bytes (complex: the imaginary part's bits first;
// float8); empty for integers, bool and the types packed below a byte.
std::string element_bits(const Tensor& t, int64_t k);

}  // namespace onnxrun
