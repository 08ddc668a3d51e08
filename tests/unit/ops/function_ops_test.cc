// Constant, Cast/CastLike, Less, Mul and Where: values at the edges of each rule
// (integer wrap-around, rounding ties, NaN and signed zeros, saturation, legacy
// broadcasting) and the refusals, checked against hand-computed or independent values.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "core/error.h"
#include "core/half.h"
#include "ops/registry.h"
#include "support/op_runner.h"
#include "support/reference_float.h"
#include "support/shortcuts.h"

using namespace onnxrun;
using namespace onnxrun::test;

namespace {

// The kind and message of the error `fn` throws.
std::pair<ErrorKind, std::string> error_of(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return {e.kind(), e.what()};
  }
  FAIL("no error thrown");
  return {ErrorKind::kInternal, ""};
}

template <typename T>
Tensor vec(DType t, std::vector<T> v) {
  const int64_t n = static_cast<int64_t>(v.size());
  return make_tensor(t, {n}, v);
}

}  // namespace

TEST_CASE("Mul on integers wraps as two's complement", "[ops][mul]") {
  REQUIRE(values_of<int8_t>(run_op("Mul", 14, {},
                                   {vec<int8_t>(DType::kInt8, {127, -128, 100}),
                                    vec<int8_t>(DType::kInt8, {2, -1, 3})})[0]) == std::vector<int8_t>{-2, -128, 44});
  REQUIRE(values_of<int16_t>(
              run_op("Mul", 14, {}, {vec<int16_t>(DType::kInt16, {32767}), vec<int16_t>(DType::kInt16, {2})})[0]) ==
          std::vector<int16_t>{-2});
  REQUIRE(values_of<uint16_t>(run_op(
              "Mul", 14, {}, {vec<uint16_t>(DType::kUInt16, {65535}), vec<uint16_t>(DType::kUInt16, {65535})})[0]) ==
          std::vector<uint16_t>{1});
  REQUIRE(values_of<uint8_t>(
              run_op("Mul", 14, {}, {vec<uint8_t>(DType::kUInt8, {200}), vec<uint8_t>(DType::kUInt8, {2})})[0]) ==
          std::vector<uint8_t>{144});
  const int32_t i32min = std::numeric_limits<int32_t>::min();
  REQUIRE(values_of<int32_t>(run_op("Mul", 7, {},
                                    {vec<int32_t>(DType::kInt32, {i32min, 65536}),
                                     vec<int32_t>(DType::kInt32, {-1, 65536})})[0]) == std::vector<int32_t>{i32min, 0});
  const int64_t i64min = std::numeric_limits<int64_t>::min();
  REQUIRE(values_of<int64_t>(run_op(
              "Mul", 13, {},
              {vec<int64_t>(DType::kInt64, {i64min, 3037000500}), vec<int64_t>(DType::kInt64, {-1, 3037000500})})[0]) ==
          std::vector<int64_t>{i64min, static_cast<int64_t>(uint64_t{3037000500} * uint64_t{3037000500})});
  const uint64_t u64max = std::numeric_limits<uint64_t>::max();
  REQUIRE(values_of<uint64_t>(run_op(
              "Mul", 14, {}, {vec<uint64_t>(DType::kUInt64, {u64max}), vec<uint64_t>(DType::kUInt64, {u64max})})[0]) ==
          std::vector<uint64_t>{1});
}

TEST_CASE("Mul on 16-bit floats rounds the exact product once", "[ops][mul]") {
  std::mt19937 rng(3);
  for (auto [dtype, format] : {std::pair{DType::kFloat16, kF16}, std::pair{DType::kBFloat16, kBF16}}) {
    std::vector<uint16_t> a(100000), b(100000);
    for (size_t i = 0; i < a.size(); ++i) {
      a[i] = static_cast<uint16_t>(rng());
      b[i] = static_cast<uint16_t>(rng());
      // Make many products land among the subnormals (bfloat16's double-rounding trap).
      if (i % 3 == 0) b[i] = static_cast<uint16_t>((b[i] & 0x807f) | (dtype == DType::kBFloat16 ? 0x0300 : 0x0400));
    }
    const auto got = values_of<uint16_t>(run_op("Mul", 14, {}, {vec(dtype, a), vec(dtype, b)})[0]);
    for (size_t i = 0; i < a.size(); ++i) {
      const double p = ref_decode(format, a[i]) * ref_decode(format, b[i]);  // exact in double
      INFO(dtype_name(dtype) << " " << a[i] << " * " << b[i]);
      if (std::isnan(p)) REQUIRE(ref_is_nan(format, got[i]));
      else REQUIRE(got[i] == ref_round(format, p));
    }
  }
}

TEST_CASE("Mul-1 and Mul-6 broadcast the legacy way, Mul-7 numpy style", "[ops][mul][broadcast]") {
  const Tensor a = make_tensor<float>(DType::kFloat, {2, 3, 2}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  const Tensor b = vec<float>(DType::kFloat, {10, 100, 1000});
  AttributeMap legacy{{"broadcast", int_attr(1)}, {"axis", int_attr(1)}};
  const Tensor c = run_op("Mul", 6, legacy, {a, b})[0];
  REQUIRE(c.shape() == Shape{2, 3, 2});
  REQUIRE(values_of<float>(c) == std::vector<float>{10, 20, 300, 400, 5000, 6000, 70, 80, 900, 1000, 11000, 12000});
  legacy["consumed_inputs"] = Attribute{AttrKind::kInts};
  REQUIRE(values_of<float>(run_op("Mul", 1, legacy, {a, b})[0]) == values_of<float>(c));
  // Without broadcast=1 the shapes must agree.
  REQUIRE(error_of([&] { run_op("Mul", 6, {}, {a, b}); }).first == ErrorKind::kInvalid);
  // Suffix matching by default: B [2] onto A's last dim.
  const Tensor s = run_op("Mul", 6, {{"broadcast", int_attr(1)}}, {a, vec<float>(DType::kFloat, {1, -1})})[0];
  REQUIRE(values_of<float>(s) == std::vector<float>{1, -2, 3, -4, 5, -6, 7, -8, 9, -10, 11, -12});
  // numpy style: [3] does not broadcast onto [2,3,2] from the right.
  REQUIRE(error_of([&] { run_op("Mul", 7, {}, {a, b}); }).first == ErrorKind::kInvalid);
  // Legacy attributes are not defined from v7 on; integer types not before v6.
  REQUIRE(error_of([&] { run_op("Mul", 7, {{"broadcast", int_attr(1)}}, {a, a}); }).first == ErrorKind::kInvalid);
  auto [kind, msg] = error_of([&] {
    run_op("Mul", 1, {}, {vec<int32_t>(DType::kInt32, {1}), vec<int32_t>(DType::kInt32, {1})});
  });
  REQUIRE(kind == ErrorKind::kInvalid);  // a type ONNX allows not there either
  REQUIRE_THAT(msg, Catch::Contains("int32"));
}

TEST_CASE("Less: NaN compares false, -0 is not below 0, integers compare exactly", "[ops][less]") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const Tensor a = vec<float>(DType::kFloat, {nan, -0.0f, -1e-45f, 1.0f, -INFINITY, 2.0f});
  const Tensor b = vec<float>(DType::kFloat, {0.0f, 0.0f, 0.0f, nan, 0.0f, 2.0f});
  const Tensor c = run_op("Less", 13, {}, {a, b})[0];
  REQUIRE(c.dtype() == DType::kBool);
  REQUIRE(values_of<uint8_t>(c) == std::vector<uint8_t>{0, 0, 1, 0, 1, 0});
  // 16-bit floats against a one-element B (the fast path).
  const Tensor h = vec<uint16_t>(DType::kFloat16, {0xbc00, 0x8000, 0x7e00, 0x0001, 0xfc00});
  REQUIRE(values_of<uint8_t>(run_op("Less", 13, {}, {h, make_tensor<uint16_t>(DType::kFloat16, {}, {0})})[0]) ==
          std::vector<uint8_t>{1, 0, 0, 0, 1});
  const Tensor bf = vec<uint16_t>(DType::kBFloat16, {0xbf80, 0x3f80});
  REQUIRE(values_of<uint8_t>(run_op("Less", 13, {}, {bf, vec<uint16_t>(DType::kBFloat16, {0x3f80, 0xbf80})})[0]) ==
          std::vector<uint8_t>{1, 0});
  REQUIRE(error_of([&] { run_op("Less", 9, {}, {bf, bf}); }).first == ErrorKind::kInvalid);  // bfloat16 from v13
  const uint64_t big = (uint64_t{1} << 63) + 1;
  REQUIRE(values_of<uint8_t>(run_op("Less", 9, {},
                                    {vec<uint64_t>(DType::kUInt64, {big - 1, big}),
                                     vec<uint64_t>(DType::kUInt64, {big, big - 1})})[0]) == std::vector<uint8_t>{1, 0});
  REQUIRE(values_of<uint8_t>(run_op("Less", 9, {},
                                    {vec<int64_t>(DType::kInt64, {-(int64_t{1} << 62)}),
                                     vec<int64_t>(DType::kInt64, {1})})[0]) == std::vector<uint8_t>{1});
  // Less-1: legacy broadcast of B onto A.
  const Tensor m = make_tensor<float>(DType::kFloat, {2, 2}, {1, 5, 1, 5});
  const Tensor lc =
      run_op("Less", 1, {{"broadcast", int_attr(1)}, {"axis", int_attr(0)}}, {m, vec<float>(DType::kFloat, {2, 6})})[0];
  REQUIRE(values_of<uint8_t>(lc) == std::vector<uint8_t>{1, 0, 1, 1});
}

TEST_CASE("Where selects bits unchanged and broadcasts all three inputs", "[ops][where]") {
  const uint32_t payload_nan = 0x7fc00123u;
  const Tensor cond = make_tensor<uint8_t>(DType::kBool, {2, 1}, {1, 2});  // any nonzero byte is true
  const Tensor x = make_tensor<uint32_t>(DType::kFloat, {1, 3}, {payload_nan, 0x80000000u, 0x3f800000u});
  const Tensor y = make_tensor<uint32_t>(DType::kFloat, {}, {0x40000000u});
  const Tensor w = run_op("Where", 9, {}, {cond, x, y})[0];
  REQUIRE(w.shape() == Shape{2, 3});
  REQUIRE(values_of<uint32_t>(w) ==
          std::vector<uint32_t>{payload_nan, 0x80000000u, 0x3f800000u, payload_nan, 0x80000000u, 0x3f800000u});
  const Tensor cond2 = make_tensor<uint8_t>(DType::kBool, {2, 1}, {0, 1});
  REQUIRE(values_of<uint32_t>(run_op("Where", 9, {}, {cond2, x, y})[0]) ==
          std::vector<uint32_t>{0x40000000u, 0x40000000u, 0x40000000u, payload_nan, 0x80000000u, 0x3f800000u});
  const Tensor xi = vec<int64_t>(DType::kInt64, {1, 2}), yi = vec<int64_t>(DType::kInt64, {-1, -2});
  REQUIRE(values_of<int64_t>(run_op("Where", 16, {}, {vec<uint8_t>(DType::kBool, {0, 1}), xi, yi})[0]) ==
          std::vector<int64_t>{-1, 2});
  const Tensor bf = vec<uint16_t>(DType::kBFloat16, {1, 2});
  REQUIRE(error_of([&] {
            run_op("Where", 9, {}, {vec<uint8_t>(DType::kBool, {0, 1}), bf, bf});
          }).first == ErrorKind::kInvalid);
  REQUIRE(run_op("Where", 16, {}, {vec<uint8_t>(DType::kBool, {0, 1}), bf, bf})[0].dtype() == DType::kBFloat16);
  auto [kind, msg] = error_of([&] {
    const Tensor f8 = vec<uint8_t>(DType::kFloat8E4M3FN, {1, 2});
    run_op("Where", 16, {}, {vec<uint8_t>(DType::kBool, {0, 1}), f8, f8});
  });
  REQUIRE(kind == ErrorKind::kUnsupported);
  REQUIRE_THAT(msg, Catch::Contains("float8e4m3fn") && Catch::Contains("not implemented"));
}

TEST_CASE("Constant gives its attribute's value in every form", "[ops][constant]") {
  Tensor t = run_op("Constant", 12, {{"value_float", float_attr(0.1f)}}, {})[0];
  REQUIRE(t.dtype() == DType::kFloat);
  REQUIRE(t.shape().empty());
  REQUIRE(values_of<float>(t) == std::vector<float>{0.1f});
  Attribute ints{AttrKind::kInts};
  ints.ints = {1, -2, 3};
  t = run_op("Constant", 13, {{"value_ints", ints}}, {})[0];
  REQUIRE(t.dtype() == DType::kInt64);
  REQUIRE(values_of<int64_t>(t) == std::vector<int64_t>{1, -2, 3});
  t = run_op("Constant", 25, {{"value_int", int_attr(-7)}}, {})[0];
  REQUIRE(values_of<int64_t>(t) == std::vector<int64_t>{-7});
  Attribute floats{AttrKind::kFloats};
  floats.floats = {1.5f, -0.0f};
  t = run_op("Constant", 12, {{"value_floats", floats}}, {})[0];
  REQUIRE(t.shape() == Shape{2});
  REQUIRE(std::signbit(values_of<float>(t)[1]));
  const Tensor d = vec<double>(DType::kDouble, {0.1, 0.2});
  REQUIRE(values_of<double>(run_op("Constant", 1, {{"value", tensor_attr(d)}}, {})[0]) ==
          std::vector<double>{0.1, 0.2});

  // Version rules and refusals.
  const Tensor i64 = vec<int64_t>(DType::kInt64, {1});
  REQUIRE(error_of([&] { run_op("Constant", 1, {{"value", tensor_attr(i64)}}, {}); }).first == ErrorKind::kUnsupported);
  REQUIRE(run_op("Constant", 9, {{"value", tensor_attr(i64)}}, {})[0].dtype() == DType::kInt64);
  const Tensor bf = vec<uint16_t>(DType::kBFloat16, {0x3f80});
  REQUIRE(error_of([&] { run_op("Constant", 12, {{"value", tensor_attr(bf)}}, {}); }).first == ErrorKind::kUnsupported);
  REQUIRE(run_op("Constant", 13, {{"value", tensor_attr(bf)}}, {})[0].dtype() == DType::kBFloat16);
  REQUIRE(error_of([&] { run_op("Constant", 11, {{"value_float", float_attr(1)}}, {}); }).first == ErrorKind::kInvalid);
  REQUIRE(error_of([&] {
            run_op("Constant", 13, {{"value_float", float_attr(1)}, {"value_int", int_attr(1)}}, {});
          }).first == ErrorKind::kInvalid);
  REQUIRE(error_of([&] { run_op("Constant", 13, {}, {}); }).first == ErrorKind::kInvalid);
  Attribute str{AttrKind::kString};
  str.s = "hello";
  auto [kind, msg] = error_of([&] { run_op("Constant", 13, {{"value_string", str}}, {}); });
  REQUIRE(kind == ErrorKind::kUnsupported);
  REQUIRE_THAT(msg, Catch::Contains("string"));
  const Tensor f8 = vec<uint8_t>(DType::kFloat8E5M2, {1});
  REQUIRE(error_of([&] { run_op("Constant", 25, {{"value", tensor_attr(f8)}}, {}); }).first == ErrorKind::kUnsupported);
}

TEST_CASE("CastLike float to integer truncates and saturates, NaN gives 0", "[ops][cast]") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const Tensor x = vec<float>(DType::kFloat, {1.9f, -1.9f, 3e9f, -3e9f, INFINITY, -INFINITY, nan, -0.5f});
  const auto i32 = values_of<int32_t>(run_op("CastLike", 15, {}, {x, vec<int32_t>(DType::kInt32, {0})})[0]);
  const int32_t mx = std::numeric_limits<int32_t>::max(), mn = std::numeric_limits<int32_t>::min();
  REQUIRE(i32 == std::vector<int32_t>{1, -1, mx, mn, mx, mn, 0, 0});
  const auto u8 = values_of<uint8_t>(
      run_op("CastLike", 15, {},
             {vec<float>(DType::kFloat, {-0.5f, -1.0f, 255.9f, 256.0f, 7.5f}), vec<uint8_t>(DType::kUInt8, {0})})[0]);
  REQUIRE(u8 == std::vector<uint8_t>{0, 0, 255, 255, 7});
  const auto i64 = values_of<int64_t>(run_op(
      "CastLike", 19, {},
      {vec<double>(DType::kDouble, {9.3e18, -9.3e18, -9223372036854775808.0}), vec<int64_t>(DType::kInt64, {0})})[0]);
  REQUIRE(i64 == std::vector<int64_t>{std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min(),
                                      std::numeric_limits<int64_t>::min()});
  // Integer to integer wraps; to and from bool.
  REQUIRE(values_of<int8_t>(run_op("CastLike", 15, {},
                                   {vec<int32_t>(DType::kInt32, {300, -129}), vec<int8_t>(DType::kInt8, {0})})[0]) ==
          std::vector<int8_t>{44, 127});
  REQUIRE(values_of<uint32_t>(
              run_op("CastLike", 15, {}, {vec<int64_t>(DType::kInt64, {-1}), vec<uint32_t>(DType::kUInt32, {0})})[0]) ==
          std::vector<uint32_t>{0xffffffffu});
  REQUIRE(values_of<uint8_t>(run_op("CastLike", 15, {},
                                    {vec<float>(DType::kFloat, {0.0f, -0.0f, 0.5f, nan}),
                                     vec<uint8_t>(DType::kBool, {0})})[0]) == std::vector<uint8_t>{0, 0, 1, 1});
  REQUIRE(values_of<float>(
              run_op("CastLike", 15, {}, {vec<uint8_t>(DType::kBool, {0, 2}), vec<float>(DType::kFloat, {0})})[0]) ==
          std::vector<float>{0.0f, 1.0f});
}

TEST_CASE("CastLike rounds into 16-bit floats once, to nearest even", "[ops][cast]") {
  std::mt19937_64 rng(11);
  std::vector<double> d(50000);
  for (auto& v : d)
    v = std::ldexp(static_cast<double>(rng() >> 11) / 9007199254740992.0, static_cast<int>(rng() % 300) - 150) *
        (rng() & 1 ? -1 : 1);
  d.insert(d.end(), {65504.0, 65519.99, 65520.0, 1e300, -1e300, 0.0, -0.0, INFINITY, -INFINITY, std::ldexp(1.0, -25),
                     std::ldexp(1.5, -25), std::ldexp(1.0, -134)});
  std::vector<float> f(d.begin(), d.end());
  for (auto [dtype, format] : {std::pair{DType::kFloat16, kF16}, std::pair{DType::kBFloat16, kBF16}}) {
    const Tensor like = vec<uint16_t>(dtype, {0});
    const auto from_d = values_of<uint16_t>(run_op("CastLike", 25, {}, {vec(DType::kDouble, d), like})[0]);
    const auto from_f = values_of<uint16_t>(run_op("CastLike", 25, {}, {vec(DType::kFloat, f), like})[0]);
    for (size_t i = 0; i < d.size(); ++i) {
      INFO(dtype_name(dtype) << " " << d[i]);
      REQUIRE(from_d[i] == ref_round(format, d[i]));
      REQUIRE(from_f[i] == ref_round(format, f[i]));
    }
  }
  // NaN stays NaN (the target's NaN, sign kept).
  const auto n16 = values_of<uint16_t>(run_op(
      "CastLike", 15, {},
      {vec<float>(DType::kFloat, {-std::numeric_limits<float>::quiet_NaN()}), vec<uint16_t>(DType::kFloat16, {0})})[0]);
  REQUIRE(ref_is_nan(kF16, n16[0]));
  REQUIRE((n16[0] & 0x8000) != 0);
  // An identity cast keeps the bits, even a signalling NaN's.
  REQUIRE(values_of<uint16_t>(run_op("CastLike", 15, {},
                                     {vec<uint16_t>(DType::kFloat16, {0x7d00}),
                                      vec<uint16_t>(DType::kFloat16, {0})})[0]) == std::vector<uint16_t>{0x7d00});
}

TEST_CASE("CastLike from 64-bit integers to bfloat16 rounds once, not through double", "[ops][cast]") {
  // 2^60 + 2^52 + 1 lies just above the midpoint between bfloat16 neighbours 2^60 and
  // 2^60 + 2^53; through double it would become the midpoint itself and round to even.
  const int64_t v = (int64_t{1} << 60) + (int64_t{1} << 52) + 1;
  const Tensor like = vec<uint16_t>(DType::kBFloat16, {0});
  REQUIRE(values_of<uint16_t>(
              run_op("CastLike", 15, {}, {vec<int64_t>(DType::kInt64, {v, -v, int64_t{1} << 60}), like})[0]) ==
          std::vector<uint16_t>{0x5d81, 0xdd81, 0x5d80});
  REQUIRE(values_of<uint16_t>(
              run_op("CastLike", 15, {}, {vec<uint64_t>(DType::kUInt64, {static_cast<uint64_t>(v)}), like})[0]) ==
          std::vector<uint16_t>{0x5d81});
  REQUIRE(
      values_of<uint16_t>(run_op(
          "CastLike", 15, {}, {vec<int32_t>(DType::kInt32, {65520, 65519}), vec<uint16_t>(DType::kFloat16, {0})})[0]) ==
      std::vector<uint16_t>{0x7c00, 0x7bff});
}

TEST_CASE("Cast takes its target from `to` (a name in v1, a code later), out-of-scope targets are refused",
          "[ops][cast]") {
  Attribute name{AttrKind::kString};
  name.s = "FLOAT16";
  REQUIRE(run_op("Cast", 1, {{"to", name}}, {vec<float>(DType::kFloat, {1.0f})})[0].dtype() == DType::kFloat16);
  REQUIRE(values_of<double>(run_op("Cast", 13, {{"to", int_attr(11)}}, {vec<float>(DType::kFloat, {0.1f})})[0]) ==
          std::vector<double>{static_cast<double>(0.1f)});
  REQUIRE(error_of([&] {
            run_op("Cast", 9, {{"to", int_attr(16)}}, {vec<float>(DType::kFloat, {1})});
          }).first == ErrorKind::kUnsupported);  // bfloat16 from v13
  auto [kind, msg] = error_of([&] {
    run_op("Cast", 25, {{"to", int_attr(17)}, {"saturate", int_attr(1)}}, {vec<float>(DType::kFloat, {1})});
  });
  REQUIRE(kind == ErrorKind::kUnsupported);
  REQUIRE_THAT(msg, Catch::Contains("float8e4m3fn") && Catch::Contains("not implemented"));
  REQUIRE(error_of([&] {
            run_op("Cast", 13, {{"to", int_attr(99)}}, {vec<float>(DType::kFloat, {1})});
          }).first == ErrorKind::kInvalid);
  REQUIRE(error_of([&] {
            run_op("CastLike", 15, {{"saturate", int_attr(1)}},
                   {vec<float>(DType::kFloat, {1}), vec<float>(DType::kFloat, {1})});
          }).first == ErrorKind::kInvalid);  // saturate from v19
}

namespace {
// Inputs in a vector built by moving (a braced list would keep a copy of each alive).
std::vector<Tensor> moved(Tensor a, Tensor b, Tensor c = Tensor()) {
  std::vector<Tensor> v;
  v.push_back(std::move(a));
  v.push_back(std::move(b));
  if (c.valid()) v.push_back(std::move(c));
  return v;
}
}  // namespace

TEST_CASE("Mul and Where write in place only into inputs handed over to them", "[ops][inplace]") {
  const Tensor b = vec<float>(DType::kFloat, {2.0f});
  SECTION("handed over: the output reuses A's buffer") {
    Tensor a = vec<float>(DType::kFloat, {1.0f, -3.0f});
    const void* where = a.raw();
    const Tensor out = run_op("Mul", 14, {}, moved(std::move(a), b))[0];
    REQUIRE(out.raw() == where);
    REQUIRE(values_of<float>(out) == std::vector<float>{2.0f, -6.0f});
  }
  SECTION("still referenced elsewhere: A is left alone") {
    const Tensor a = vec<float>(DType::kFloat, {1.0f, -3.0f});
    const Tensor out = run_op("Mul", 14, {}, {a, b})[0];
    REQUIRE(out.raw() != a.raw());
    REQUIRE(values_of<float>(a) == std::vector<float>{1.0f, -3.0f});
  }
  SECTION("a broadcast input smaller than the output is never reused") {
    const Tensor wide = make_tensor<float>(DType::kFloat, {2, 2}, {1, 2, 3, 4});
    Tensor narrow = vec<float>(DType::kFloat, {10.0f, 100.0f});
    const void* where = narrow.raw();
    const Tensor out = run_op("Mul", 14, {}, moved(wide, std::move(narrow)))[0];
    REQUIRE(out.raw() != where);
    REQUIRE(values_of<float>(out) == std::vector<float>{10, 200, 30, 400});
  }
  SECTION("Where reuses Y when X is still referenced") {
    const Tensor x = vec<float>(DType::kFloat, {1.0f, 2.0f});
    Tensor y = vec<float>(DType::kFloat, {-1.0f, -2.0f});
    const void* where = y.raw();
    const Tensor out = run_op("Where", 16, {}, moved(vec<uint8_t>(DType::kBool, {1, 0}), x, std::move(y)))[0];
    REQUIRE(out.raw() == where);
    REQUIRE(values_of<float>(out) == std::vector<float>{1.0f, -2.0f});
  }
}
