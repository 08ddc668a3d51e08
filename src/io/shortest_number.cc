#include "io/shortest_number.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>

#include <fmt/format.h>

#include "core/half.h"

namespace onnxrun {
namespace {

// The fewest significant digits (1..9 suffice for 16-bit floats) that read back as `bits`.
template <typename ToBits, typename ToFloat>
std::string shortest_16(uint16_t bits, ToBits to_bits, ToFloat to_float) {
  const double v = to_float(bits);
  for (int digits = 1; digits < 17; ++digits) {
    // Those digits, written as to_chars writes a double (65500, 1e-07): the form of the
    // printed arrays' format_element_shortest.
    const double d = std::strtod(fmt::format("{:.{}g}", v, digits).c_str(), nullptr);
    char buf[64];
    if (to_bits(d) == bits) return std::string(buf, std::to_chars(buf, buf + sizeof buf, d).ptr);
  }
  return fmt::format("{}", v);
}

}  // namespace

std::string shortest_in_type(double v, DType t) {
  if (std::isnan(v)) return "nan";
  char buf[64];
  switch (t) {
    case DType::kFloat: {
      const float f = static_cast<float>(v);
      if (std::isinf(f)) return f > 0 ? "inf" : "-inf";
      return std::string(buf, std::to_chars(buf, buf + sizeof buf, f).ptr);
    }
    case DType::kFloat16: {
      const uint16_t bits = double_to_float16(v);
      if (std::isinf(float16_to_float(bits))) return v > 0 ? "inf" : "-inf";
      return shortest_16(bits, double_to_float16, float16_to_float);
    }
    case DType::kBFloat16: {
      const uint16_t bits = double_to_bfloat16(v);
      if (std::isinf(bfloat16_to_float(bits))) return v > 0 ? "inf" : "-inf";
      return shortest_16(bits, double_to_bfloat16, bfloat16_to_float);
    }
    case DType::kBool:
    case DType::kInt8:
    case DType::kUInt8:
    case DType::kInt16:
    case DType::kUInt16:
    case DType::kInt32:
    case DType::kUInt32:
    case DType::kInt64:
    case DType::kUInt64:
      if (std::isfinite(v) && v == std::trunc(v)) return fmt::format("{:.0f}", v);
      [[fallthrough]];
    default:
      if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
      return std::string(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
  }
}

nlohmann::ordered_json json_real_in_type(double v, DType t) {
  const std::string text = shortest_in_type(v, t);
  if (text == "nan" || text == "inf" || text == "-inf") return text;  // JSON has no such numbers
  return std::strtod(text.c_str(), nullptr);
}

}  // namespace onnxrun
