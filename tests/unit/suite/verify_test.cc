// Dumped values checked node by node (suite/verify.h): a Conv -> LeakyRelu model built
// with model_builder, Conv not checked with its reason, LeakyRelu recomputed on exactly
// the dumped input; planted bugs found with their ULP distance.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include <catch2/catch.hpp>

#include "core/half.h"
#include "io/streamed_tensor_file.h"
#include "io/tensor_file.h"
#include "io/value_index.h"
#include "model/load.h"
#include "suite/compare.h"
#include "suite/verify.h"
#include "suite/verify_report.h"
#include "support/model_builder.h"
#include "support/paths.h"
#include "support/shortcuts.h"
#include "support/tensors.h"

using namespace onnxrun;
using namespace onnxrun::test;

namespace {

// x -> Conv (node 'conv') -> c -> LeakyRelu alpha 0.1 (node 'lr') -> y, float16.
Model conv_leaky(const TempDir& d) {
  onnx::ModelProto m = make_model(16);
  add_input(m, "x", onnx::TensorProto::FLOAT16, {1, 1, 16, 16});
  add_output(m, "y", onnx::TensorProto::FLOAT16, {1, 1, 16, 16});
  *m.mutable_graph()->add_initializer() = float_tensor("w", {1, 1, 1, 1}, {1.f});
  add_node(m, "Conv", {"x", "w"}, {"c"}, "conv");
  add_float_attr(*add_node(m, "LeakyRelu", {"c"}, {"y"}, "lr"), "alpha", 0.1f);
  LoadOptions o;
  o.keep_unsupported = true;
  return load_model(save_model(m, d.file("m.onnx")), o);
}

// Every float16 pattern from `first`, 256 of them.
Tensor patterns(uint16_t first) {
  std::vector<uint16_t> bits(256);
  for (size_t k = 0; k < bits.size(); ++k) bits[k] = static_cast<uint16_t>(first + k);
  return make_tensor(DType::kFloat16, {1, 1, 16, 16}, bits);
}

// LeakyRelu by its definition, in float16: alpha rounded to float16, one rounding.
Tensor leaky(const Tensor& x, float alpha) {
  const float a = float16_to_float(float_to_float16(alpha));
  std::vector<uint16_t> y(static_cast<size_t>(x.numel()));
  for (size_t k = 0; k < y.size(); ++k) {
    const uint16_t b = x.data<uint16_t>()[k];
    const float v = float16_to_float(b);
    y[k] = v < 0 ? float_to_float16(v * a) : b;
  }
  return make_tensor(DType::kFloat16, x.shape(), y);
}

VerifyReport check(const Model& m, const Tensor& c, const Tensor& y, const TempDir& d, VerifyOptions o = {}) {
  write_tensor_file(d.file("c.pb"), c, "c");
  write_tensor_file(d.file("y.pb"), y, "y");
  ValueIndex index;
  index.add(d.file("c.pb"));
  index.add(d.file("y.pb"));
  return verify_graph(m, index, o);
}

}  // namespace

TEST_CASE("verify: Conv not checked, LeakyRelu exact on the dumped values", "[verify]") {
  TempDir d;
  const Model m = conv_leaky(d);
  const Tensor c = patterns(0xbc00);  // negative values from -1 down
  const VerifyReport r = check(m, c, leaky(c, 0.1f), d);
  REQUIRE(r.nodes.size() == 2);
  CHECK_FALSE(r.nodes[0].checked);
  CHECK(r.nodes[0].reason == "onnx-run does not run Conv (ai.onnx)");
  CHECK(r.nodes[1].checked);
  CHECK(r.nodes[1].exact());
  CHECK(r.nodes[1].version.rfind("v16", 0) == 0);
  CHECK(r.passed());
  CHECK_FALSE(r.first_differing);
  CHECK(verify_summary_line(r) == "2 nodes: 1 checked (1 exact, 0 differ), 1 not checked");
}

TEST_CASE("verify: a 1-ULP change and a -0 for +0 are found in their node", "[verify]") {
  TempDir d;
  const Model m = conv_leaky(d);
  const Tensor c = patterns(0x0000);  // +0, denormals
  Tensor y = leaky(c, 0.1f);
  y.mutable_data<uint16_t>()[5] += 1;
  VerifyReport r = check(m, c, y, d);
  REQUIRE(r.first_differing == size_t{1});
  const VerifiedOutput& o = r.nodes[1].outputs.at(0);
  CHECK(o.comparison.max_ulp == 1);
  CHECK(o.comparison.mismatches == 1);
  CHECK(o.comparison.worst_index == 5);
  REQUIRE(o.worst_inputs.size() == 1);
  CHECK(o.worst_inputs[0].rfind("c[0,0,0,5] = ", 0) == 0);
  CHECK_FALSE(r.passed());
  CHECK(r.failure_summary().rfind("node 'lr' (LeakyRelu) differs", 0) == 0);

  // Within one ULP, it agrees.
  VerifyOptions one;
  one.tolerance.max_ulp = 1;
  one.exact_by_default = false;
  CHECK(check(m, c, y, d, one).passed());

  Tensor z = leaky(c, 0.1f);
  z.mutable_data<uint16_t>()[0] = 0x8000;  // +0 became -0
  r = check(m, c, z, d);
  REQUIRE(r.first_differing == size_t{1});
  CHECK(r.nodes[1].outputs[0].comparison.max_ulp == 0);
  CHECK(r.nodes[1].outputs[0].comparison.bit_differences == 1);
}

TEST_CASE("verify: a value missing from VALUES leaves its node unchecked, and --require-all fails then", "[verify]") {
  TempDir d;
  onnx::ModelProto two = make_model(16);  // lr1 checked, lr2 lacks its output
  add_input(two, "x", onnx::TensorProto::FLOAT16, {1, 1, 16, 16});
  add_output(two, "z", onnx::TensorProto::FLOAT16, {1, 1, 16, 16});
  add_node(two, "LeakyRelu", {"x"}, {"y"}, "lr1");
  add_node(two, "LeakyRelu", {"y"}, {"z"}, "lr2");
  const Model m = load_model(save_model(two, d.file("two.onnx")));
  const Tensor x = patterns(0xbc00);
  write_tensor_file(d.file("x.pb"), x, "x");
  write_tensor_file(d.file("y.pb"), leaky(x, 0.01f), "y");
  ValueIndex index;
  index.add(d.file("x.pb"));
  index.add(d.file("y.pb"));
  VerifyOptions o;
  VerifyReport r = verify_graph(m, index, o);
  CHECK(r.nodes[0].exact());
  CHECK_FALSE(r.nodes[1].checked);
  CHECK(r.nodes[1].reason == "not in VALUES: output 'z'");
  CHECK(r.passed());
  o.require_all = true;
  r = verify_graph(m, index, o);
  CHECK_FALSE(r.passed());
  CHECK(r.unchecked_runnable() == std::vector<size_t>{1});
}

TEST_CASE("verify: not one node checked is no pass, with or without --require-all", "[verify]") {
  TempDir d;
  const Model m = conv_leaky(d);
  // The values of another type than the graph's (float32 for float16): nothing checked.
  write_tensor_file(d.file("c.pb"), float_tensor({1, 1, 16, 16}, std::vector<float>(256, -1.f)), "c");
  write_tensor_file(d.file("y.pb"), float_tensor({1, 1, 16, 16}, std::vector<float>(256, -0.1f)), "y");
  ValueIndex index;
  index.add(d.file("c.pb"));
  index.add(d.file("y.pb"));
  const VerifyReport r = verify_graph(m, index, {});
  CHECK(r.checked() == 0);
  CHECK_FALSE(r.first_differing);
  CHECK_FALSE(r.passed());  // it passed: exit 0 with nothing verified
  CHECK(r.failure_summary() ==
        "no node could be checked: of 2 nodes, 1 of an operator onnx-run does not run, 1 whose values VALUES lacks "
        "or holds in another type or shape; node 'lr' (LeakyRelu): " +
            r.nodes[1].reason);
  CHECK_THAT(r.nodes[1].reason, Catch::Contains("float"));
  // Names that match none of the graph's values: likewise.
  ValueIndex none;
  write_tensor_file(d.file("q.pb"), patterns(0), "q");
  none.add(d.file("q.pb"));
  const VerifyReport n = verify_graph(m, none, {});
  CHECK_FALSE(n.passed());
  CHECK(n.failure_summary().rfind("no node could be checked: of 2 nodes", 0) == 0);
  CHECK_THAT(n.failure_summary(), Catch::EndsWith("node 'lr' (LeakyRelu): not in VALUES: input 'c', output 'y'"));
}

TEST_CASE("verify: onnx-run's value is the expected side, relative errors measured against it as compare does",
          "[verify]") {
  TempDir d;
  const Model m = conv_leaky(d);
  Tensor c = patterns(0x3c00);  // 1 and up: LeakyRelu gives them back
  c.mutable_data<uint16_t>()[1] = 0x0000;
  const Tensor want = leaky(c, 0.1f);
  Tensor y = leaky(c, 0.1f);
  y.mutable_data<uint16_t>()[0] = 0x4000;  // 2 for 1

  // One element: expected 1 (onnx-run's), got 2 (the dump's): rel err 1, not 0.5.
  VerifyReport r = check(m, c, y, d);
  REQUIRE(r.nodes[1].checked);
  const Comparison& one = r.nodes[1].outputs.at(0).comparison;
  CHECK(one.worst_index == 0);
  CHECK(one.expected == 1);
  CHECK(one.actual == 2);
  CHECK(one.abs_err == 1);
  CHECK(one.rel_err == 1);
  CHECK(one.needed_rtol == Approx(1).epsilon(1e-6));  // (1 - atol) / 1, where it was 0.5
  CHECK(one.errors.max_rel == 1);

  // And 1 for 0: against an expected 0 the relative error is infinite.
  y.mutable_data<uint16_t>()[1] = 0x3c00;
  std::vector<Tolerance> tolerances(3);  // --exact, --max-ulp 1, --atol 0 --rtol 0
  tolerances[0].exact = true;
  tolerances[1].max_ulp = 1;
  tolerances[2].atol = tolerances[2].rtol = 0;
  for (const Tolerance& tol : tolerances) {
    VerifyOptions o;
    o.tolerance = tol;
    o.exact_by_default = tol.exact;
    r = check(m, c, y, d, o);
    REQUIRE(r.nodes[1].checked);
    const Comparison& got = r.nodes[1].outputs.at(0).comparison;
    const Comparison want_c = compare_tensors(want, y, tol);
    CHECK(std::isinf(got.errors.max_rel));
    CHECK(std::isinf(got.needed_rtol));
    CHECK(got.worst_index == want_c.worst_index);
    CHECK(got.expected == want_c.expected);
    CHECK(got.actual == want_c.actual);
    CHECK(got.expected_bits == want_c.expected_bits);
    CHECK(got.actual_bits == want_c.actual_bits);
    CHECK(got.abs_err == want_c.abs_err);
    CHECK(got.rel_err == want_c.rel_err);
    CHECK(got.needed_atol == want_c.needed_atol);
    CHECK(got.needed_rtol == want_c.needed_rtol);
    CHECK(got.mismatches == want_c.mismatches);
    CHECK(got.errors.max_rel == want_c.errors.max_rel);
    CHECK(got.errors.mean_rel == want_c.errors.mean_rel);
    CHECK(got.errors.median_rel == want_c.errors.median_rel);
  }
}
