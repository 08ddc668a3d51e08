// A number as the tensor's own type writes it: the shortest decimal that reads back to
// the same value in that type (float 0.1f is "0.1", not 0.10000000149011612; float16 and
// bfloat16 likewise), as numpy and Polygraphy print them. For the values reports hold as
// double (a comparison's worst element, statistics) but that belong to a tensor's type.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/dtype.h"

namespace onnxrun {

// `v` rounded to type `t` (to nearest even), then its shortest round-trip text; "nan",
// "inf", "-inf" for those; whole numbers for integer types; other types as double.
std::string shortest_in_type(double v, DType t);

// The same as a JSON number (or "nan", "inf", "-inf"): json_text (suite/json_text.cc)
// writes a double in its shortest digits, so those of the text above.
nlohmann::ordered_json json_real_in_type(double v, DType t);

}  // namespace onnxrun
