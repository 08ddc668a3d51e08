// LeakyRelu against plain references: every float16 and bfloat16 bit pattern for a set
// of alphas, edge values for float and double, and the three versions through the
// executor. References are written from the definition, independently of src/ops.
#include <catch2/catch.hpp>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "core/half.h"
#include "exec/executor.h"
#include "model/load.h"
#include "ops/leaky_relu_kernels.h"
#include "support/edge_values.h"
#include "support/model_builder.h"
#include "support/reference_float.h"

using namespace onnxrun;
using namespace onnxrun::test;

namespace {

const float kAlphas[] = {0.01f, 0.1f, 0.0f, -0.3f, 2.0f, 1e-5f, 65504.0f, 1e6f, -0.0f};

template <typename T, typename U>
U bits_of(T v) {
  static_assert(sizeof(T) == sizeof(U));
  U u;
  std::memcpy(&u, &v, sizeof u);
  return u;
}

// Y = x < 0 ? round(alpha_t * x) : x for a 16-bit format, from the reference decoder and
// rounder: the product of two 16-bit values is exact in double.
uint16_t reference_16(SmallFloatFormat f, uint16_t x, float alpha) {
  const double v = ref_decode(f, x);
  if (!(v < 0)) return x;
  const double a = ref_decode(f, ref_round(f, alpha));
  return ref_round(f, v * a);
}

bool same_16(SmallFloatFormat f, uint16_t want, uint16_t got) {
  return want == got || (ref_is_nan(f, want) && ref_is_nan(f, got));
}

// float: the double product of two floats is exact, so one conversion is one rounding.
float reference_float(float x, float alpha) {
  return x < 0 ? static_cast<float>(static_cast<double>(x) * static_cast<double>(alpha)) : x;
}

// double: __float128 holds the exact product (113-bit significand), so again one rounding.
double reference_double(double x, double alpha) {
  return x < 0 ? static_cast<double>(static_cast<__float128>(x) * static_cast<__float128>(alpha)) : x;
}

}  // namespace

TEST_CASE("float16 and bfloat16 kernels: all 65536 patterns for every alpha", "[leaky_relu][exhaustive]") {
  struct Kernel {
    const char* name;
    SmallFloatFormat fmt;
    void (*run)(const uint16_t*, uint16_t*, size_t, uint16_t);
    uint16_t (*round_alpha)(float);
  };
  std::vector<uint16_t> x(65536), y(65536);
  for (uint32_t b = 0; b < 65536; ++b) x[b] = static_cast<uint16_t>(b);
  for (const Kernel& k : {Kernel{"float16", kF16, leaky_relu_float16, float_to_float16},
                          Kernel{"bfloat16", kBF16, leaky_relu_bfloat16, float_to_bfloat16}}) {
    for (float alpha : kAlphas) {
      INFO(k.name << " alpha " << alpha);
      k.run(x.data(), y.data(), x.size(), k.round_alpha(alpha));
      for (uint32_t b = 0; b < 65536; ++b) {
        const uint16_t want = reference_16(k.fmt, x[b], alpha);
        if (!same_16(k.fmt, want, y[b])) FAIL("x=0x" << std::hex << b << " want 0x" << want << " got 0x" << y[b]);
        // Non-negative inputs and NaN pass through bit for bit.
        if (!(ref_decode(k.fmt, x[b]) < 0)) REQUIRE(y[b] == x[b]);
      }
    }
  }
}

TEST_CASE("NaN keeps its bits, -0 stays -0, -inf times 0 is NaN", "[leaky_relu]") {
  const float nan_payload = bits_of<uint32_t, float>(0xffc12345u);
  float in[] = {nan_payload, -0.0f, -INFINITY, INFINITY};
  float out[4];
  leaky_relu_float(in, out, 4, 0.0f);
  CHECK(bits_of<float, uint32_t>(out[0]) == 0xffc12345u);
  CHECK(bits_of<float, uint32_t>(out[1]) == 0x80000000u);
  CHECK(std::isnan(out[2]));
  CHECK(out[3] == INFINITY);
  uint16_t h[] = {0xfc00, 0x8000, 0x7e01};
  uint16_t ho[3];
  leaky_relu_float16(h, ho, 3, float_to_float16(0.0f));
  CHECK(ref_is_nan(kF16, ho[0]));
  CHECK(ho[1] == 0x8000);
  CHECK(ho[2] == 0x7e01);
}

TEST_CASE("float and double kernels match the exact-product reference on edge and random values", "[leaky_relu]") {
  const auto fx = edge_values<float>();
  const auto dx = edge_values<double>();
  std::vector<float> fy(fx.size());
  std::vector<double> dy(dx.size());
  for (float alpha : kAlphas) {
    INFO("alpha " << alpha);
    leaky_relu_float(fx.data(), fy.data(), fx.size(), alpha);
    for (size_t k = 0; k < fx.size(); ++k) {
      const float want = reference_float(fx[k], alpha);
      if (std::isnan(want)) {
        REQUIRE(std::isnan(fy[k]));
        if (std::isnan(fx[k])) REQUIRE(bits_of<float, uint32_t>(fy[k]) == bits_of<float, uint32_t>(fx[k]));
      } else {
        REQUIRE(bits_of<float, uint32_t>(fy[k]) == bits_of<float, uint32_t>(want));
      }
    }
    // double multiplies by the exact widening of the float alpha.
    const double a = static_cast<double>(alpha);
    leaky_relu_double(dx.data(), dy.data(), dx.size(), a);
    for (size_t k = 0; k < dx.size(); ++k) {
      const double want = reference_double(dx[k], a);
      if (std::isnan(want)) REQUIRE(std::isnan(dy[k]));
      else REQUIRE(bits_of<double, uint64_t>(dy[k]) == bits_of<double, uint64_t>(want));
    }
  }
}

TEST_CASE("denormal results survive (no flush to zero)", "[leaky_relu]") {
  float x = -FLT_MIN, y = 0;
  leaky_relu_float(&x, &y, 1, 0.5f);
  CHECK(y == -FLT_MIN / 2);
  CHECK(std::fpclassify(y) == FP_SUBNORMAL);
  double dxv = -std::numeric_limits<double>::denorm_min() * 4, dyv = 0;
  leaky_relu_double(&dxv, &dyv, 1, 0.25);
  CHECK(dyv == -std::numeric_limits<double>::denorm_min());
}

TEST_CASE("every version runs every legal type through the executor, exactly", "[leaky_relu][exec]") {
  struct Case {
    int64_t opset;
    int elem;
    SmallFloatFormat fmt;
  };
  for (Case c : {Case{1, onnx::TensorProto::FLOAT16, kF16}, Case{6, onnx::TensorProto::FLOAT16, kF16},
                 Case{16, onnx::TensorProto::FLOAT16, kF16}, Case{16, onnx::TensorProto::BFLOAT16, kBF16}}) {
    INFO("opset " << c.opset << " elem " << c.elem);
    onnx::ModelProto mp = make_model(c.opset);
    add_input(mp, "x", c.elem, {256, 256});
    add_output(mp, "y", c.elem, {256, 256});
    add_float_attr(*add_node(mp, "LeakyRelu", {"x"}, {"y"}), "alpha", 0.1f);
    const std::string bytes = mp.SerializeAsString();
    Model m = load_model_from_bytes(bytes.data(), bytes.size(), ".");
    Executor exec(m.graph);
    Tensor x(static_cast<DType>(c.elem), {256, 256});
    for (uint32_t b = 0; b < 65536; ++b) x.mutable_data<uint16_t>()[b] = static_cast<uint16_t>(b);
    auto out = exec.run({{"x", x}});
    REQUIRE(out.size() == 1);
    for (uint32_t b = 0; b < 65536; ++b)
      REQUIRE(same_16(c.fmt, reference_16(c.fmt, static_cast<uint16_t>(b), 0.1f), out[0].data<uint16_t>()[b]));
    // The caller still holds x, so it must not have been overwritten.
    CHECK(x.data<uint16_t>()[0xbc00] == 0xbc00);
  }
  for (int64_t opset : {1, 6, 16}) {
    onnx::ModelProto mp = make_model(opset);
    add_input(mp, "x", onnx::TensorProto::DOUBLE, {3});
    add_output(mp, "y", onnx::TensorProto::DOUBLE, {3});
    add_float_attr(*add_node(mp, "LeakyRelu", {"x"}, {"y"}), "alpha", 0.1f);
    const std::string bytes = mp.SerializeAsString();
    Executor exec(load_model_from_bytes(bytes.data(), bytes.size(), ".").graph);
    Tensor x(DType::kDouble, {3});
    x.mutable_data<double>()[0] = -1;
    x.mutable_data<double>()[1] = 2;
    x.mutable_data<double>()[2] = -0.0;
    auto out = exec.run({{"x", x}});
    CHECK(out[0].data<double>()[0] == -static_cast<double>(0.1f));  // CastLike widens alpha exactly
    CHECK(out[0].data<double>()[1] == 2);
    CHECK(std::signbit(out[0].data<double>()[2]));
  }
}
