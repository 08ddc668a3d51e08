#include "core/element.h"

#include <cstring>
#include <limits>

#include <fmt/format.h>

#include "core/half.h"

namespace onnxrun {
namespace {

template <typename T>
T load(const Tensor& t, int64_t k) {
  T v;
  std::memcpy(&v, static_cast<const char*>(t.raw()) + k * sizeof(T), sizeof(T));
  return v;
}

}  // namespace

double element_as_double(const Tensor& t, int64_t k) {
  switch (t.dtype()) {
    case DType::kFloat: return load<float>(t, k);
    case DType::kDouble: return load<double>(t, k);
    case DType::kFloat16: return float16_to_float(load<uint16_t>(t, k));
    case DType::kBFloat16: return bfloat16_to_float(load<uint16_t>(t, k));
    case DType::kInt8: return load<int8_t>(t, k);
    case DType::kUInt8: return load<uint8_t>(t, k);
    case DType::kBool: return load<uint8_t>(t, k) != 0;
    case DType::kInt16: return load<int16_t>(t, k);
    case DType::kUInt16: return load<uint16_t>(t, k);
    case DType::kInt32: return load<int32_t>(t, k);
    case DType::kUInt32: return load<uint32_t>(t, k);
    case DType::kInt64: return static_cast<double>(load<int64_t>(t, k));
    case DType::kUInt64: return static_cast<double>(load<uint64_t>(t, k));
    default: return std::numeric_limits<double>::quiet_NaN();
  }
}

std::string element_bits(const Tensor& t, int64_t k) {
  switch (t.dtype()) {
    case DType::kFloat: return fmt::format("0x{:08x}", load<uint32_t>(t, k));
    case DType::kDouble: return fmt::format("0x{:016x}", load<uint64_t>(t, k));
    case DType::kFloat16:
    case DType::kBFloat16: return fmt::format("0x{:04x}", load<uint16_t>(t, k));
    case DType::kComplex64: return fmt::format("0x{:016x}", load<uint64_t>(t, k));
    case DType::kComplex128:
      return fmt::format("0x{:016x}{:016x}", load<uint64_t>(t, 2 * k + 1), load<uint64_t>(t, 2 * k));
    case DType::kFloat8E4M3FN:
    case DType::kFloat8E4M3FNUZ:
    case DType::kFloat8E5M2:
    case DType::kFloat8E5M2FNUZ:
    case DType::kFloat8E8M0: return fmt::format("0x{:02x}", load<uint8_t>(t, k));
    default: return "";
  }
}

}  // namespace onnxrun
