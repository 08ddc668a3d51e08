#include "core/dtype.h"

#include <array>

namespace onnxrun {
namespace {

struct DTypeInfo {
  DType type;
  std::string_view name;
  size_t size;  // 0: not storable as a flat buffer of whole-byte elements
};

// One row per ONNX code, indexed by the code itself.
constexpr std::array<DTypeInfo, 27> kTable = {{
    {DType::kUndefined, "undefined", 0},
    {DType::kFloat, "float", 4},
    {DType::kUInt8, "uint8", 1},
    {DType::kInt8, "int8", 1},
    {DType::kUInt16, "uint16", 2},
    {DType::kInt16, "int16", 2},
    {DType::kInt32, "int32", 4},
    {DType::kInt64, "int64", 8},
    {DType::kString, "string", 0},
    {DType::kBool, "bool", 1},
    {DType::kFloat16, "float16", 2},
    {DType::kDouble, "double", 8},
    {DType::kUInt32, "uint32", 4},
    {DType::kUInt64, "uint64", 8},
    {DType::kComplex64, "complex64", 8},
    {DType::kComplex128, "complex128", 16},
    {DType::kBFloat16, "bfloat16", 2},
    {DType::kFloat8E4M3FN, "float8e4m3fn", 1},
    {DType::kFloat8E4M3FNUZ, "float8e4m3fnuz", 1},
    {DType::kFloat8E5M2, "float8e5m2", 1},
    {DType::kFloat8E5M2FNUZ, "float8e5m2fnuz", 1},
    {DType::kUInt4, "uint4", 0},
    {DType::kInt4, "int4", 0},
    {DType::kFloat4E2M1, "float4e2m1", 0},
    {DType::kFloat8E8M0, "float8e8m0", 1},
    {DType::kUInt2, "uint2", 0},
    {DType::kInt2, "int2", 0},
}};

const DTypeInfo* info(DType t) {
  auto code = static_cast<size_t>(t);
  return code < kTable.size() ? &kTable[code] : nullptr;
}

}  // namespace

std::string_view dtype_name(DType t) {
  const DTypeInfo* i = info(t);
  return i ? i->name : std::string_view("invalid");
}

size_t dtype_size(DType t) {
  const DTypeInfo* i = info(t);
  return i ? i->size : 0;
}

std::optional<DType> dtype_from_onnx(int32_t code) {
  if (code <= 0 || static_cast<size_t>(code) >= kTable.size()) return std::nullopt;
  return kTable[static_cast<size_t>(code)].type;
}

std::optional<DType> dtype_from_name(std::string_view name) {
  for (const DTypeInfo& i : kTable)
    if (i.name == name && i.type != DType::kUndefined) return i.type;
  return std::nullopt;
}

}  // namespace onnxrun
