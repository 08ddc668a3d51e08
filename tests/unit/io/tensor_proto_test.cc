// TensorProto <-> Tensor: every storable type through raw_data and through its typed
// field, and the refusals for data that disagrees with the dims.
#include <catch2/catch.hpp>

#include <cstring>
#include <random>

#include <fmt/format.h>

#include "core/dtype.h"
#include "core/error.h"
#include "io/streamed_tensor_file.h"
#include "io/tensor_file.h"
#include "io/tensor_proto.h"
#include "onnx/onnx.pb.h"
#include "support/model_builder.h"
#include "support/paths.h"
#include "support/shortcuts.h"

using namespace onnxrun;
using Catch::Matchers::Contains;

namespace {

const DType kTypes[] = {DType::kFloat,  DType::kUInt8,  DType::kInt8,     DType::kUInt16,    DType::kInt16,
                        DType::kInt32,  DType::kInt64,  DType::kBool,     DType::kFloat16,   DType::kDouble,
                        DType::kUInt32, DType::kUInt64, DType::kBFloat16, DType::kComplex64, DType::kComplex128};

Tensor random_tensor_of(DType t, const Shape& shape, uint64_t seed) {
  Tensor x(t, shape);
  std::mt19937_64 rng(seed);
  auto* p = static_cast<unsigned char*>(x.mutable_raw());
  for (size_t k = 0; k < x.nbytes(); ++k) p[k] = static_cast<unsigned char>(rng());
  if (t == DType::kBool)
    for (size_t k = 0; k < x.nbytes(); ++k) p[k] &= 1;
  return x;
}

bool same_bytes(const Tensor& a, const Tensor& b) {
  return a.dtype() == b.dtype() && a.shape() == b.shape() && std::memcmp(a.raw(), b.raw(), a.nbytes()) == 0;
}

// The same tensor written into the typed field ONNX defines for its type.
onnx::TensorProto typed_proto(const Tensor& t) {
  onnx::TensorProto p;
  p.set_data_type(static_cast<int>(t.dtype()));
  for (int64_t d : t.shape()) p.add_dims(d);
  const int64_t n = t.numel();
  switch (t.dtype()) {
    case DType::kFloat:
      for (int64_t k = 0; k < n; ++k) p.add_float_data(t.data<float>()[k]);
      break;
    case DType::kComplex64:
      for (int64_t k = 0; k < 2 * n; ++k) p.add_float_data(t.data<float>()[k]);
      break;
    case DType::kDouble:
      for (int64_t k = 0; k < n; ++k) p.add_double_data(t.data<double>()[k]);
      break;
    case DType::kComplex128:
      for (int64_t k = 0; k < 2 * n; ++k) p.add_double_data(t.data<double>()[k]);
      break;
    case DType::kInt64:
      for (int64_t k = 0; k < n; ++k) p.add_int64_data(t.data<int64_t>()[k]);
      break;
    case DType::kUInt32:
      for (int64_t k = 0; k < n; ++k) p.add_uint64_data(t.data<uint32_t>()[k]);
      break;
    case DType::kUInt64:
      for (int64_t k = 0; k < n; ++k) p.add_uint64_data(t.data<uint64_t>()[k]);
      break;
    case DType::kInt32:
      for (int64_t k = 0; k < n; ++k) p.add_int32_data(t.data<int32_t>()[k]);
      break;
    case DType::kInt16:
      for (int64_t k = 0; k < n; ++k) p.add_int32_data(t.data<int16_t>()[k]);
      break;
    case DType::kUInt16:
    case DType::kFloat16:
    case DType::kBFloat16:
      for (int64_t k = 0; k < n; ++k) p.add_int32_data(t.data<uint16_t>()[k]);
      break;
    case DType::kInt8:
      for (int64_t k = 0; k < n; ++k) p.add_int32_data(t.data<int8_t>()[k]);
      break;
    default:  // uint8, bool
      for (int64_t k = 0; k < n; ++k) p.add_int32_data(t.data<uint8_t>()[k]);
  }
  return p;
}

Error error_of(const onnx::TensorProto& p) {
  try {
    tensor_from_proto(p);
  } catch (const Error& e) {
    return e;
  }
  FAIL("accepted");
  return Error(ErrorKind::kInternal, "");
}

}  // namespace

TEST_CASE("every type round-trips through raw_data, typed fields and files", "[io]") {
  onnxrun::test::TempDir tmp;
  for (DType t : kTypes) {
    for (const Shape& shape : {Shape{}, Shape{0}, Shape{3, 0, 2}, Shape{7}, Shape{2, 3, 4}}) {
      INFO(dtype_name(t) << shape_to_string(shape));
      const Tensor x = random_tensor_of(t, shape, 99);
      onnx::TensorProto raw;
      test::tensor_to_proto(x, "x", &raw);
      CHECK(same_bytes(tensor_from_proto(raw), x));
      CHECK(same_bytes(tensor_from_proto(typed_proto(x)), x));
      const std::string path = tmp.file("t.pb");
      write_tensor_file(path, x, "name_of_x");
      NamedTensor back = read_tensor_file(path);
      CHECK(back.name == "name_of_x");
      CHECK(same_bytes(back.tensor, x));
      // The streamed file parses as the same TensorProto protobuf itself would write.
      onnx::TensorProto parsed;
      REQUIRE(parsed.ParseFromString(test::read_file(path)));
      CHECK(parsed.raw_data() == raw.raw_data());
      CHECK(parsed.data_type() == static_cast<int>(t));
    }
  }
}

TEST_CASE("data that disagrees with the dims is refused", "[io]") {
  onnx::TensorProto p;
  p.set_data_type(onnx::TensorProto::FLOAT);
  p.add_dims(3);
  p.add_float_data(1);
  p.add_float_data(2);
  CHECK_THAT(error_of(p).what(), Contains("float_data holds 2 values") && Contains("needs 3"));
  p.clear_float_data();
  p.set_raw_data(std::string(8, '\0'));
  CHECK_THAT(error_of(p).what(), Contains("raw_data holds 8 bytes") && Contains("needs 12"));
  p.add_float_data(1);
  CHECK_THAT(error_of(p).what(), Contains("both raw_data and float_data"));
  p.clear_raw_data();
  p.clear_float_data();
  for (int k = 0; k < 3; ++k) p.add_int32_data(k);
  CHECK_THAT(error_of(p).what(), Contains("float_data, not int32_data"));
  p.clear_int32_data();
  CHECK_THAT(error_of(p).what(), Contains("holds 0 values"));
}

// ONNX keeps a 16-bit float's bits, an int8's value, in int32_data: an entry outside the
// type's values is no element of it. 0xFFFFFFFF in a float16 tensor read as NaN.
TEST_CASE("int32_data entries outside the element type's values are refused, not cut to its bits", "[io]") {
  struct Case {
    int data_type;
    int32_t lowest, highest;
  };
  for (const Case c : {Case{onnx::TensorProto::FLOAT16, 0, 65535}, Case{onnx::TensorProto::BFLOAT16, 0, 65535},
                       Case{onnx::TensorProto::UINT16, 0, 65535}, Case{onnx::TensorProto::INT16, -32768, 32767},
                       Case{onnx::TensorProto::INT8, -128, 127}, Case{onnx::TensorProto::UINT8, 0, 255},
                       Case{onnx::TensorProto::BOOL, 0, 1}}) {
    INFO("data_type " << c.data_type);
    onnx::TensorProto p;
    p.set_data_type(c.data_type);
    p.add_dims(2);
    p.add_int32_data(c.lowest);
    p.add_int32_data(c.highest);
    const Tensor both_ends = tensor_from_proto(p);
    CHECK(both_ends.numel() == 2);
    for (const int32_t bad : {c.lowest - 1, c.highest + 1, int32_t{-1} /* 0xFFFFFFFF */, INT32_MAX}) {
      if (bad >= c.lowest && bad <= c.highest) continue;  // -1 is an int16's and an int8's
      p.set_int32_data(1, bad);
      const Error e = error_of(p);
      CHECK(e.kind() == ErrorKind::kInvalid);
      CHECK(std::string(e.what()) == fmt::format("int32_data[1] holds {} but a {} element there is {} to {}", bad,
                                                 dtype_name(*dtype_from_onnx(c.data_type)), c.lowest, c.highest));
    }
  }
}

// The same for a uint32 in uint64_data: 2^32 was read as 0.
TEST_CASE("uint64_data entries beyond a uint32 are refused, not cut to its bits", "[io]") {
  onnx::TensorProto p;
  p.set_data_type(onnx::TensorProto::UINT32);
  p.add_dims(2);
  p.add_uint64_data(0);
  p.add_uint64_data(UINT32_MAX);
  const Tensor both_ends = tensor_from_proto(p);
  CHECK(both_ends.data<uint32_t>()[1] == UINT32_MAX);
  p.set_uint64_data(1, uint64_t{1} << 32);
  const Error e = error_of(p);
  CHECK(e.kind() == ErrorKind::kInvalid);
  CHECK(std::string(e.what()) == "uint64_data[1] holds 4294967296 but a uint32 element there is 0 to 4294967295");
}

TEST_CASE("bad types and dims are refused", "[io]") {
  onnx::TensorProto p;
  p.set_data_type(99);
  CHECK(error_of(p).kind() == ErrorKind::kInvalid);
  p.set_data_type(onnx::TensorProto::STRING);
  CHECK(error_of(p).kind() == ErrorKind::kUnsupported);
  p.set_data_type(onnx::TensorProto::FLOAT);
  p.add_dims(-1);
  CHECK_THAT(error_of(p).what(), Contains("negative dimension"));
  p.clear_dims();
  p.add_dims(int64_t{1} << 40);
  p.add_dims(int64_t{1} << 40);
  Error e = error_of(p);
  CHECK(e.kind() == ErrorKind::kSecurity);
  CHECK_THAT(e.what(), Contains("more elements than 2^63"));
}

TEST_CASE("a file that is not a TensorProto is refused with its name", "[io]") {
  onnxrun::test::TempDir tmp;
  const std::string path = tmp.file("junk.pb");
  FILE* f = std::fopen(path.c_str(), "wb");
  std::fputs("\xff\xff\xff garbage", f);
  std::fclose(f);
  try {
    read_tensor_file(path);
    FAIL("accepted");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::kInvalid);
    CHECK_THAT(e.what(), Contains("junk.pb") && Contains("not a valid TensorProto"));
  }
  CHECK_THROWS_WITH(read_tensor_file(tmp.file("missing.pb")), Contains("cannot open") && Contains("missing.pb"));
}
