// The few pieces of JSON writing onnx-run needs (info, run --json), without a library:
// strings escaped per RFC 8259, numbers that stay valid JSON.
#pragma once

#include <string>
#include <string_view>

namespace onnxrun {

// "\"a\\\"b\"": quoted and escaped (control characters as \u00XX; other bytes as given,
// so UTF-8 passes through).
std::string json_string(std::string_view s);

// A finite double in the shortest form that reads back exactly; NaN and infinities,
// which JSON lacks, as the strings "nan", "inf", "-inf".
std::string json_number(double v);

}  // namespace onnxrun
