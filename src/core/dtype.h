// Element types of ONNX tensors. The enum values are ONNX's TensorProto.DataType codes,
// so a code read from a file converts with a range check and nothing else.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace onnxrun {

enum class DType : int32_t {
  kUndefined = 0,
  kFloat = 1,
  kUInt8 = 2,
  kInt8 = 3,
  kUInt16 = 4,
  kInt16 = 5,
  kInt32 = 6,
  kInt64 = 7,
  kString = 8,
  kBool = 9,
  kFloat16 = 10,
  kDouble = 11,
  kUInt32 = 12,
  kUInt64 = 13,
  kComplex64 = 14,
  kComplex128 = 15,
  kBFloat16 = 16,
  kFloat8E4M3FN = 17,
  kFloat8E4M3FNUZ = 18,
  kFloat8E5M2 = 19,
  kFloat8E5M2FNUZ = 20,
  kUInt4 = 21,
  kInt4 = 22,
  kFloat4E2M1 = 23,
  kFloat8E8M0 = 24,
  kUInt2 = 25,
  kInt2 = 26,
};

// Lower-case ONNX name ("float", "float16", "bfloat16", ...); "undefined(N)" style
// names are never returned: unknown codes are rejected by dtype_from_onnx first.
std::string_view dtype_name(DType t);

// Bytes per element for types stored one element per byte-aligned slot; 0 for types
// onnx-run cannot hold in a plain buffer (string, sub-byte and packed types).
size_t dtype_size(DType t);

// True for the types a Tensor can carry as a flat buffer (dtype_size(t) > 0).
inline bool dtype_is_storable(DType t) { return dtype_size(t) > 0; }

// The DType for an ONNX data_type code, or nullopt when the code is not one ONNX defines.
std::optional<DType> dtype_from_onnx(int32_t code);

// The DType whose dtype_name is `name`, or nullopt.
std::optional<DType> dtype_from_name(std::string_view name);

}  // namespace onnxrun
