// The command line with model functions and --expand-functions / --print-graph:
// a model calling a local LeakyRelu wrapper runs and writes the same bits as the fused
// op, the printed graph shows what will run, and a recursive model is refused cleanly.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "core/tensor.h"
#include "io/streamed_tensor_file.h"
#include "io/tensor_file.h"
#include "support/check_exit.h"
#include "support/model_builder.h"
#include "support/op_runner.h"
#include "support/paths.h"
#include "support/process.h"
#include "support/shortcuts.h"

using namespace onnxrun;
using namespace onnxrun::test;

namespace {

// y = Wrap(x; alpha=0.2), Wrap(X) = LeakyRelu-16(X, alpha=@alpha)
onnx::ModelProto wrapper_model(bool recursive = false) {
  onnx::ModelProto m = make_model(16, {"local"});
  auto* g = m.mutable_graph();
  auto call = make_node("Wrap", {"x"}, {"y"}, "local", "call");
  add_float_attr(call, "alpha", 0.2f);
  *g->add_node() = call;
  add_value(g->mutable_input(), "x", 10, {4});  // float16
  add_value(g->mutable_output(), "y", 10, {4});
  onnx::FunctionProto f = make_function("local", "Wrap", {"X"}, {"Y"}, 16);
  f.add_attribute("alpha");
  auto body = make_node(recursive ? "Wrap" : "LeakyRelu", {"X"}, {"Y"}, recursive ? "local" : "", "leaky");
  add_ref_attr(body, "alpha", "alpha", onnx::AttributeProto::FLOAT);
  *f.add_node() = body;
  *m.add_functions() = f;
  return m;
}

onnx::ModelProto fused_model() {
  onnx::ModelProto m = make_model(16);
  auto* g = m.mutable_graph();
  auto n = make_node("LeakyRelu", {"x"}, {"y"}, "", "leaky");
  add_float_attr(n, "alpha", 0.2f);
  *g->add_node() = n;
  add_value(g->mutable_input(), "x", 10, {4});
  add_value(g->mutable_output(), "y", 10, {4});
  return m;
}

}  // namespace

TEST_CASE("cli: a model calling a local LeakyRelu function writes the fused op's bits, expanded or not",
          "[cli][functions]") {
  TempDir dir;
  write_file(dir.file("wrap.onnx"), serialize(wrapper_model()));
  write_file(dir.file("fused.onnx"), serialize(fused_model()));
  write_tensor_file(dir.file("x.pb"), make_tensor<uint16_t>(DType::kFloat16, {4}, {0xbc00, 0x3c00, 0x8001, 0xfbff}),
                    "x");
  const ProcessResult a = run_cli({dir.file("fused.onnx"), "-q", "-i", dir.file("x.pb"), "-o", dir.file("fused")});
  const ProcessResult b = run_cli({dir.file("wrap.onnx"), "-q", "-i", dir.file("x.pb"), "-o", dir.file("wrap")});
  const ProcessResult c =
      run_cli({dir.file("wrap.onnx"), "-q", "--expand-functions", "-i", dir.file("x.pb"), "-o", dir.file("expanded")});
  INFO(a.err << b.err << c.err);
  REQUIRE_EXIT(a, 0);
  REQUIRE_EXIT(b, 0);
  REQUIRE_EXIT(c, 0);
  const std::string want = read_file(dir.file("fused/output_0.pb"));
  REQUIRE(!want.empty());
  REQUIRE(read_file(dir.file("wrap/output_0.pb")) == want);
  REQUIRE(read_file(dir.file("expanded/output_0.pb")) == want);
}

TEST_CASE("cli: --print-graph shows the graph as it will run", "[cli][functions]") {
  TempDir dir;
  write_file(dir.file("wrap.onnx"), serialize(wrapper_model()));
  const ProcessResult inlined = run_cli({dir.file("wrap.onnx"), "--print-graph"});
  REQUIRE_EXIT(inlined, 0);
  REQUIRE_THAT(inlined.out, Catch::Contains("'call/leaky' LeakyRelu v16 (16+): (x) -> (y) {alpha=0.2}"));
  const ProcessResult expanded = run_cli({dir.file("wrap.onnx"), "--print-graph", "--expand-functions"});
  REQUIRE_EXIT(expanded, 0);
  for (const char* op : {"Constant v13", "CastLike v15", "Less v13", "Mul v14", "Where v16"})
    REQUIRE_THAT(expanded.out, Catch::Contains(op));
  REQUIRE_THAT(expanded.out, !Catch::Contains("LeakyRelu v16"));
}

TEST_CASE("cli: a recursive model function is refused with exit 3 and nothing written", "[cli][functions]") {
  TempDir dir;
  write_file(dir.file("rec.onnx"), serialize(wrapper_model(true)));
  write_tensor_file(dir.file("x.pb"), make_tensor<uint16_t>(DType::kFloat16, {4}, {0, 0, 0, 0}), "x");
  const ProcessResult r = run_cli({dir.file("rec.onnx"), "-i", dir.file("x.pb"), "-o", dir.file("out")});
  REQUIRE_EXIT(r, 3);
  REQUIRE_THAT(r.err, Catch::Contains("calls itself"));
  REQUIRE(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  REQUIRE(r.out.empty());
  REQUIRE(!std::filesystem::exists(dir.file("out/output_0.pb")));
  // info --verify plans what verify does: the call left whole is not checked (it said
  // "checked given input x and output y").
  const ProcessResult plan = run_cli({"info", dir.file("rec.onnx"), "--verify"});
  CHECK_EXIT(plan, 0);
  CHECK_THAT(plan.out, Catch::Contains("verify would check 0 of 1 node:\n  node 'call' (Wrap): not checked: a call of "
                                       "model function 'local.Wrap' that was not inlined"));
}

TEST_CASE("cli: testdata/local_function_leakyrelu passes its test set, inlined and expanded", "[cli][functions]") {
  const std::string model = testdata_dir() + "/local_function_leakyrelu/model.onnx";
  REQUIRE(std::filesystem::exists(model));
  for (const std::vector<std::string>& extra :
       {std::vector<std::string>{}, std::vector<std::string>{"--expand-functions"}}) {
    std::vector<std::string> args = {model, "-q"};
    args.insert(args.end(), extra.begin(), extra.end());
    const ProcessResult r = run_cli(args);
    INFO(r.out << r.err);
    REQUIRE_EXIT(r, 0);
    CHECK(r.out.empty());  // -q: a run that passes prints nothing
  }
}
