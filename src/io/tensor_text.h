// Tensors printed the way numpy's str() prints arrays: nested brackets, elements in a
// common width (floats with aligned decimal points, the shortest digits that identify
// each value, at most 8 after the point; scientific when magnitudes are too far apart),
// lines wrapped at 75 columns, and arrays of more than 1000 elements summarised with
// '...' after the first and before the last 3 items of each axis.
#pragma once

#include <cstdint>
#include <string>

#include "core/tensor.h"
#include "core/tensor_stats.h"

namespace onnxrun {

struct ArrayPrintOptions {
  bool full = false;          // never summarise
  int64_t threshold = 1000;   // summarise above this many elements
  int64_t edge_items = 3;
  size_t line_width = 75;
};

std::string format_array(const Tensor& t, const ArrayPrintOptions& options = {});

// "min -1 max 3.5 mean 0.75 std 1.2 nan 0 inf 0"
std::string format_stats(const TensorStats& s);

// The shortest decimal text that reads back as element k in its own type (float16 and
// bfloat16 too): "0.1", "-inf", "nan", "3", "True".
std::string format_element_shortest(const Tensor& t, int64_t k);

}  // namespace onnxrun
