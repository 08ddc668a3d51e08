// Tensors written on the command line: `-i x=[-1,0,1]`, `-i m=[[1,2],[3,4]]`.
// The nesting gives the shape (every list at one depth must have the same length); a
// shape given with --shape replaces it when the element counts agree ([5] with
// --shape x= is a 0-d tensor, [1,2,3,4,5,6] with --shape x=2,3 a 2x3 matrix).
// Elements are numbers (decimal, with exponent), nan, inf, -inf, true and false,
// converted to the input's declared type: one correct rounding for float types; integer
// types take only whole numbers in range; bool takes 0, 1, true, false.
#pragma once

#include <optional>
#include <string>

#include "core/tensor.h"

namespace onnxrun {

// True when `text` is meant as a literal rather than a file name (it starts with '[').
bool is_tensor_literal(const std::string& text);

// Throws Error(kUsage) naming `what` and the expected form for malformed text, an
// element the type cannot hold, or a --shape whose size differs. A finite number that
// rounds to inf in a float type is taken (as numpy takes it) and, when `warning` is
// given, described there ("1e40 is beyond float's range and becomes inf"); else "".
Tensor parse_tensor_literal(const std::string& text, DType type, const std::optional<Shape>& shape,
                            const std::string& what, std::string* warning = nullptr);

}  // namespace onnxrun
