// Tensors and their statistics as JSON values, for --json reports.
#pragma once

#include <nlohmann/json.hpp>

#include "core/tensor.h"
#include "core/tensor_stats.h"

namespace onnxrun {

// The elements as nested lists in the tensor's shape (a 0-d tensor is its element):
// bools as true/false, integers exactly, a float as the shortest decimal that reads back
// as it in its own type (float 0.1f is 0.1, not 0.10000000149011612; float16 and
// bfloat16 likewise), NaN and infinities as the strings "nan", "inf" and "-inf" (JSON
// has no such numbers). An empty tensor (any zero dim) is [] whatever its shape, as its
// text is "[]": np.array([]).reshape(shape) reads it back (nested as numpy's tolist(),
// a [100000, 100000, 0] tensor of no elements would be 10^10 lists). Built without
// recursion over the rank; types without arithmetic (complex, string) give null.
nlohmann::ordered_json tensor_values_json(const Tensor& t);

// {"min", "max", "mean", "std", "nan", "inf"} as format_stats() prints them (min and max
// over the non-NaN values, mean and std over the finite ones, NaN or infinite as the
// strings above); {"empty": true} for a tensor without elements; {"count": n} for types
// without arithmetic.
nlohmann::ordered_json tensor_stats_json(const TensorStats& s);
// The same with min and max, which are elements, written as the tensor's values are (the
// shortest decimal of their type `t`, io/shortest_number.h), and mean and std as numpy
// gives them: in `t`, but in float32 for float16 and bfloat16 (rounded to a float16, the
// mean of a tensor that is not constant could read 0).
nlohmann::ordered_json tensor_stats_json(const TensorStats& s, DType t);

// A double as JSON: the number, or "nan", "inf", "-inf" (JSON has no such numbers).
nlohmann::ordered_json json_real(double v);

}  // namespace onnxrun
