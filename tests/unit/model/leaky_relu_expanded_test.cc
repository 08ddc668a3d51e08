// The differential test of LeakyRelu-16: the fused kernel and the function body
// (Constant, CastLike, Less, Mul, Where, as --expand-functions runs it) must give the
// same bits for every float16 and bfloat16 pattern and for random and edge-value float
// and double tensors, for each alpha below.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "exec/executor.h"
#include "model/load.h"
#include "support/edge_values.h"
#include "support/model_builder.h"
#include "support/op_runner.h"

using namespace onnxrun;
using namespace onnxrun::test;

namespace {

const float kAlphas[] = {0.01f, 0.1f, 0.0f, -0.3f, 2.0f};

Model load_leaky16(int elem, int64_t n, float alpha, bool expand) {
  onnx::ModelProto m = make_model(16);
  auto* g = m.mutable_graph();
  auto node = make_node("LeakyRelu", {"x"}, {"y"}, "", "leaky");
  add_float_attr(node, "alpha", alpha);
  *g->add_node() = node;
  add_value(g->mutable_input(), "x", elem, {n});
  add_value(g->mutable_output(), "y", elem, {n});
  const std::string bytes = serialize(m);
  LoadOptions o;
  o.expand_schema_functions = expand;
  return load_model_from_bytes(bytes.data(), bytes.size(), ".", o);
}

// Runs LeakyRelu-16 fused and expanded on (copies of) x; returns both outputs.
std::pair<Tensor, Tensor> both_ways(const Tensor& x, int elem, float alpha) {
  Model fused = load_leaky16(elem, x.numel(), alpha, false);
  Model expanded = load_leaky16(elem, x.numel(), alpha, true);
  REQUIRE(fused.graph.nodes.size() == 1);
  REQUIRE(expanded.graph.nodes.size() == 7);
  REQUIRE(expanded.graph.nodes.back().op_type == "Where");
  auto copy = [&] {
    Tensor c(x.dtype(), x.shape());
    std::memcpy(c.mutable_raw(), x.raw(), x.nbytes());
    return c;
  };
  Executor ef(std::move(fused.graph));
  Executor ee(std::move(expanded.graph), unfused());  // the body node by node, not recognised back
  Tensor yf = ef.run({{"x", copy()}})[0];
  Tensor ye = ee.run({{"x", copy()}})[0];
  return {yf, ye};
}

void require_same_bits(const Tensor& a, const Tensor& b, const Tensor& x) {
  REQUIRE(a.dtype() == b.dtype());
  REQUIRE(a.shape() == b.shape());
  const size_t size = dtype_size(a.dtype());
  const auto* pa = static_cast<const unsigned char*>(a.raw());
  const auto* pb = static_cast<const unsigned char*>(b.raw());
  const auto* px = static_cast<const unsigned char*>(x.raw());
  size_t differing = 0;
  for (int64_t i = 0; i < a.numel(); ++i) {
    if (std::memcmp(pa + i * size, pb + i * size, size) != 0) {
      if (differing++ == 0) {
        uint64_t xa = 0, va = 0, vb = 0;
        std::memcpy(&xa, px + i * size, size);
        std::memcpy(&va, pa + i * size, size);
        std::memcpy(&vb, pb + i * size, size);
        UNSCOPED_INFO("first difference at " << i << ": x=0x" << std::hex << xa << " fused=0x" << va << " expanded=0x"
                                             << vb);
      }
    }
  }
  REQUIRE(differing == 0);
}

template <typename T, typename Bits>
Tensor random_plus_edges(DType dtype, std::mt19937_64& rng, const std::vector<T>& edges) {
  const size_t n_random = 200000;
  Tensor t(dtype, {static_cast<int64_t>(n_random + edges.size())});
  T* p = t.mutable_data<T>();
  for (size_t i = 0; i < n_random; ++i) {
    Bits b = static_cast<Bits>(rng());
    std::memcpy(&p[i], &b, sizeof(T));                           // every bit pattern: NaNs, infinities, subnormals
    if (i % 2) p[i] = static_cast<T>(std::fmod(p[i], T(1000)));  // and plenty of ordinary values
  }
  for (size_t i = 0; i < edges.size(); ++i) p[n_random + i] = edges[i];
  return t;
}

}  // namespace

TEST_CASE("LeakyRelu-16 fused and expanded agree on all 65536 float16 and bfloat16 patterns", "[leakyrelu][expand]") {
  for (auto [dtype, elem] : {std::pair{DType::kFloat16, 10}, std::pair{DType::kBFloat16, 16}}) {
    Tensor x(dtype, {65536});
    for (uint32_t b = 0; b < 65536; ++b) x.mutable_data<uint16_t>()[b] = static_cast<uint16_t>(b);
    for (float alpha : kAlphas) {
      INFO(dtype_name(dtype) << " alpha " << alpha);
      auto [fused, expanded] = both_ways(x, elem, alpha);
      require_same_bits(fused, expanded, x);
    }
  }
}

TEST_CASE("LeakyRelu-16 fused and expanded agree on random and edge float and double tensors", "[leakyrelu][expand]") {
  std::mt19937_64 rng(2024);
  const Tensor xf = random_plus_edges<float, uint32_t>(DType::kFloat, rng, edge_values<float>());
  const Tensor xd = random_plus_edges<double, uint64_t>(DType::kDouble, rng, edge_values<double>());
  for (float alpha : kAlphas) {
    INFO("alpha " << alpha);
    auto [ff, fe] = both_ways(xf, 1, alpha);
    require_same_bits(ff, fe, xf);
    auto [df, de] = both_ways(xd, 11, alpha);
    require_same_bits(df, de, xd);
  }
}

TEST_CASE("the expanded LeakyRelu-16 still computes LeakyRelu", "[leakyrelu][expand]") {
  const Tensor x = make_tensor<float>(DType::kFloat, {5}, {-2.0f, -0.0f, 0.0f, 3.0f, -INFINITY});
  auto [fused, expanded] = both_ways(x, 1, 0.5f);
  const auto y = values_of<float>(expanded);
  REQUIRE(y[0] == -1.0f);
  REQUIRE(std::signbit(y[1]));
  REQUIRE(y[3] == 3.0f);
  REQUIRE(y[4] == -INFINITY);
}
