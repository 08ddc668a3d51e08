// Tensors printed exactly as numpy 1.24's str(array) prints them with default options
// (np.array2string(a, separator=' '), legacy=False, precision 8, floatmode 'maxprec'):
// nested brackets; elements in one common width (floats with aligned decimal points, the
// shortest digits that identify each value in its own type, at most 8 after the point;
// scientific when a nonzero magnitude is >= 1e8 or < 1e-4, or max/min > 1000); every
// line within 75 columns including the closing brackets; rows of higher axes separated
// by rank-axis-1 newlines; arrays of more than 1000 elements summarised with '...' after
// the first and before the last 3 items of each longer axis.
//
// float16 prints as numpy prints float16. bfloat16 (unknown to numpy) follows the same
// rules with the shortest digits that read back in bfloat16. A 0-d tensor prints as
// numpy's str() of the scalar ("1.0", "1e-05", "True"); an empty tensor (any zero dim)
// prints "[]" whatever its rank, at once.
//
// Cost: linear in the length of the text produced; the printer never recurses over the
// rank, and a summarised tensor visits only the elements it shows.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/tensor.h"
#include "core/tensor_stats.h"

namespace onnxrun {

struct ArrayPrintOptions {
  bool full = false;         // never summarise
  int64_t threshold = 1000;  // summarise above this many elements
  int64_t edge_items = 3;    // values below 1 are taken as 1
  size_t line_width = 75;
};

// A summarised print shows only some elements; these let a caller that sees a tensor
// block by block keep just those and print the whole tensor `t` as numpy's str does:
//   format_shown(shown_elements(t, o), t.shape(), o)
// True when a tensor of `shape` prints summarised (more than threshold elements, not full).
bool print_summarises(const Shape& shape, const ArrayPrintOptions& options = {});
// The dims of the shown elements: min(d, 2 * edge_items) when summarised, else `shape`.
Shape shown_shape(const Shape& shape, const ArrayPrintOptions& options = {});
// Their offsets in the tensor, ascending (row-major over shown_shape).
std::vector<int64_t> shown_offsets(const Shape& shape, const ArrayPrintOptions& options = {});
// The shown elements of `t` as a tensor of shown_shape (t itself when not summarised).
Tensor shown_elements(const Tensor& t, const ArrayPrintOptions& options = {});
// Prints a tensor of `shape` from its shown elements.
std::string format_shown(const Tensor& shown, const Shape& shape, const ArrayPrintOptions& options = {});

// One line of statistics (TensorStats: min/max over the non-NaN values, mean/std over the
// finite ones):
//   every value finite:      "min -1 max 3.5 mean 0.75 std 1.2 nan 0 inf 0"
//   some NaN or infinite:    "min -1 max inf mean 0.5 std 0.5 (finite values) nan 1 inf 1"
//   infinite, none finite:   "min -inf max inf, no finite values, nan 0 inf 2"
//   every value NaN:         "no finite values, nan 2 inf 0"
//   no elements:             "empty"
//   types without arithmetic: "6 values"
std::string format_stats(const TensorStats& s);

// The shortest decimal text that reads back as element k in its own type (float16 and
// bfloat16 too): "0.1", "-inf", "nan", "3", "True"; a type without arithmetic (complex,
// float8) by its bits, "0x40".
std::string format_element_shortest(const Tensor& t, int64_t k);

}  // namespace onnxrun
