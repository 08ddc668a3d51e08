#include "io/tensor_proto.h"

#include <bit>
#include <cstdint>
#include <cstring>

#include "core/error.h"
#include "core/fail.h"
#include "onnx/onnx.pb.h"

namespace onnxrun {

static_assert(std::endian::native == std::endian::little, "raw_data is little-endian; onnx-run copies it as is");

DType proto_dtype(const onnx::TensorProto& proto) {
  auto t = dtype_from_onnx(proto.data_type());
  if (!t) fail(ErrorKind::kInvalid, "unknown data_type {}", proto.data_type());
  if (!dtype_is_storable(*t))
    fail_unsupported(Cause{Cause::Kind::kType, "", "", 0, std::string(dtype_name(*t)), ""},
                     "tensors of type {} are not supported", dtype_name(*t));
  return *t;
}

Shape proto_shape(const onnx::TensorProto& proto) {
  Shape shape(proto.dims().begin(), proto.dims().end());
  checked_numel(shape);  // refuses negative dims and overflowing products
  return shape;
}

namespace {

// Copies `count` values of a repeated field into `out`, narrowing each with `convert`.
template <typename Out, typename Field, typename Convert>
void copy_field(const Field& field, Out* out, Convert convert) {
  for (int i = 0; i < field.size(); ++i) out[i] = convert(field.Get(i));
}

// Copies a typed field (`what`: its name) into the elements of a type narrower than its
// entries, each entry checked to be one of the type's values, [lo, hi] (16-bit floats and
// float8 in int32_data: their bit patterns, as ONNX stores them; a uint32 in
// uint64_data). One outside is invalid data, refused rather than cut to its low bits (-1
// in a float16 tensor read as NaN).
template <typename Field, typename Out, typename V>
void copy_narrow(const Field& field, const char* what, Out* out, DType t, V lo, V hi) {
  for (int i = 0; i < field.size(); ++i) {
    const V v = field.Get(i);
    if (v < lo || v > hi)
      fail(ErrorKind::kInvalid, "{}[{}] holds {} but a {} element there is {} to {}", what, i, v, dtype_name(t), lo,
           hi);
    out[i] = static_cast<Out>(v);
  }
}

// copy_narrow of int32_data, where every type narrower than 32 bits keeps its elements.
template <typename Out>
void copy_int32_data(const onnx::TensorProto& proto, Out* out, DType t, int32_t lo, int32_t hi) {
  copy_narrow(proto.int32_data(), "int32_data", out, t, lo, hi);
}

// Number of typed-field values a tensor of `t` with `numel` elements must have.
int64_t field_count(DType t, int64_t numel) {
  return (t == DType::kComplex64 || t == DType::kComplex128) ? numel * 2 : numel;
}

// The typed field ONNX stores elements of `t` in.
const char* field_for(DType t) {
  switch (t) {
    case DType::kFloat:
    case DType::kComplex64: return "float_data";
    case DType::kDouble:
    case DType::kComplex128: return "double_data";
    case DType::kInt64: return "int64_data";
    case DType::kUInt32:
    case DType::kUInt64: return "uint64_data";
    case DType::kString: return "string_data";
    default: return "int32_data";
  }
}

// The typed field that holds data, or null; refuses more than one.
const char* present_field(const onnx::TensorProto& p) {
  const char* found = nullptr;
  auto note = [&](bool present, const char* name) {
    if (!present) return;
    if (found) fail(ErrorKind::kInvalid, "tensor data is in both {} and {}", found, name);
    found = name;
  };
  note(p.float_data_size() > 0, "float_data");
  note(p.double_data_size() > 0, "double_data");
  note(p.int32_data_size() > 0, "int32_data");
  note(p.int64_data_size() > 0, "int64_data");
  note(p.uint64_data_size() > 0, "uint64_data");
  note(p.string_data_size() > 0, "string_data");
  return found;
}

// How many values the typed field `name` holds.
int64_t field_size(const onnx::TensorProto& p, const char* name) {
  const std::string_view n(name);
  if (n == "float_data") return p.float_data_size();
  if (n == "double_data") return p.double_data_size();
  if (n == "int64_data") return p.int64_data_size();
  if (n == "uint64_data") return p.uint64_data_size();
  if (n == "string_data") return p.string_data_size();
  return p.int32_data_size();
}

}  // namespace

void check_bools(const void* data, size_t n, size_t offset, const std::string& what) {
  const auto* p = static_cast<const uint8_t*>(data);
  for (size_t k = 0; k < n; ++k)
    if (p[k] > 1)
      fail(ErrorKind::kInvalid, "{}{}bool element {} is {}, not 0 or 1", what, what.empty() ? "" : ": ", offset + k,
           p[k]);
}

Tensor tensor_from_proto(const onnx::TensorProto& proto) {
  const DType t = proto_dtype(proto);
  Shape shape = proto_shape(proto);
  const size_t nbytes = checked_nbytes(t, shape);
  const int64_t numel = checked_numel(shape);

  const char* field = present_field(proto);
  if (proto.has_raw_data() && field) fail(ErrorKind::kInvalid, "tensor data is in both raw_data and {}", field);
  if (field && std::strcmp(field, field_for(t)) != 0)
    fail(ErrorKind::kInvalid, "a {} tensor keeps typed data in {}, not {}", dtype_name(t), field_for(t), field);

  // Every length is checked against the dims before the tensor is allocated: dims are
  // the one part of a hostile file that costs nothing to write and everything to obey.
  if (proto.has_raw_data()) {
    if (proto.raw_data().size() != nbytes)
      fail(ErrorKind::kInvalid, "raw_data holds {} bytes but {}{} needs {}", proto.raw_data().size(), dtype_name(t),
           shape_to_string(shape), nbytes);
    if (t == DType::kBool) check_bools(proto.raw_data().data(), nbytes, 0, "");
    Tensor out(t, shape);
    if (nbytes) std::memcpy(out.mutable_raw(), proto.raw_data().data(), nbytes);
    return out;
  }

  const int64_t want = field_count(t, numel);
  auto check_count = [&](const char* what, int64_t have) {
    if (have != want)
      fail(ErrorKind::kInvalid, "{} holds {} values but {}{} needs {}", what, have, dtype_name(t),
           shape_to_string(shape), want);
  };
  if (!field) {
    check_count("the tensor", 0);  // only an empty tensor may carry no data
    return Tensor(t, shape);
  }
  check_count(field, field_size(proto, field));
  Tensor out(t, shape);

  switch (t) {
    case DType::kFloat:
    case DType::kComplex64:
      check_count("float_data", proto.float_data_size());
      copy_field(proto.float_data(), out.mutable_data<float>(), [](float v) { return v; });
      break;
    case DType::kDouble:
    case DType::kComplex128:
      check_count("double_data", proto.double_data_size());
      copy_field(proto.double_data(), out.mutable_data<double>(), [](double v) { return v; });
      break;
    case DType::kInt64:
      check_count("int64_data", proto.int64_data_size());
      copy_field(proto.int64_data(), out.mutable_data<int64_t>(), [](int64_t v) { return v; });
      break;
    case DType::kUInt32:
      check_count("uint64_data", proto.uint64_data_size());
      copy_narrow(proto.uint64_data(), "uint64_data", out.mutable_data<uint32_t>(), t, uint64_t{0},
                  uint64_t{UINT32_MAX});
      break;
    case DType::kUInt64:
      check_count("uint64_data", proto.uint64_data_size());
      copy_field(proto.uint64_data(), out.mutable_data<uint64_t>(), [](uint64_t v) { return v; });
      break;
    case DType::kInt32:
      check_count("int32_data", proto.int32_data_size());
      copy_field(proto.int32_data(), out.mutable_data<int32_t>(), [](int32_t v) { return v; });
      break;
    // int32_data carries one element per entry for the narrower types; 16-bit floats
    // and float8 as their bit patterns.
    case DType::kInt16: copy_int32_data(proto, out.mutable_data<int16_t>(), t, INT16_MIN, INT16_MAX); break;
    case DType::kUInt16:
    case DType::kFloat16:
    case DType::kBFloat16: copy_int32_data(proto, out.mutable_data<uint16_t>(), t, 0, UINT16_MAX); break;
    case DType::kInt8: copy_int32_data(proto, out.mutable_data<int8_t>(), t, INT8_MIN, INT8_MAX); break;
    case DType::kBool: copy_int32_data(proto, out.mutable_data<uint8_t>(), t, 0, 1); break;
    case DType::kUInt8:
    case DType::kFloat8E4M3FN:
    case DType::kFloat8E4M3FNUZ:
    case DType::kFloat8E5M2:
    case DType::kFloat8E5M2FNUZ:
    case DType::kFloat8E8M0: copy_int32_data(proto, out.mutable_data<uint8_t>(), t, 0, UINT8_MAX); break;
    default: fail(ErrorKind::kInvalid, "a {} tensor cannot take its data from a typed field", dtype_name(t));
  }
  return out;
}

}  // namespace onnxrun
