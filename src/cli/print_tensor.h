// Short, readable renderings of tensors for the terminal.
#pragma once

#include <string>

#include "core/tensor.h"

namespace onnxrun::cli {

// "float[3,4,5] [-0.0123, 0.5, 1, ... ] (60 values)": type, shape and the first values.
std::string format_tensor_short(const Tensor& t, size_t max_values = 8);

}  // namespace onnxrun::cli
