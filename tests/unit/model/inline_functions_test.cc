// Model-local functions: calls are inlined at load with inputs, outputs and attributes
// bound as ONNX says, names kept unique, the function's own opset_import respected,
// and recursion and runaway expansion refused.
#include <catch2/catch.hpp>

#include <cstring>

#include "core/error.h"
#include "exec/executor.h"
#include "model/load.h"
#include "ops/registry.h"
#include "support/load.h"
#include "support/model_builder.h"
#include "support/op_runner.h"

using namespace onnxrun;
using namespace onnxrun::test;

namespace {

constexpr int kFloat = 1;

// main graph: x -> call(op, domain "local") -> y, float[6]
onnx::ModelProto calling_model(const std::string& op, int64_t opset = 16) {
  onnx::ModelProto m = make_model(opset, {"local"});
  auto* g = m.mutable_graph();
  *g->add_node() = make_node(op, {"x"}, {"y"}, "local", "call");
  add_value(g->mutable_input(), "x", kFloat, {6});
  add_value(g->mutable_output(), "y", kFloat, {6});
  return m;
}

// MyLeaky(X) -> Y: LeakyRelu with alpha taken from the caller's `alpha`.
onnx::FunctionProto my_leaky(int64_t opset = 16) {
  onnx::FunctionProto f = make_function("local", "MyLeaky", {"X"}, {"Y"}, opset);
  f.add_attribute("alpha");
  auto n = make_node("LeakyRelu", {"X"}, {"Y"}, "", "inner");
  add_ref_attr(n, "alpha", "alpha", onnx::AttributeProto::FLOAT);
  *f.add_node() = n;
  return f;
}

const std::vector<float> kX = {-4.0f, -1.0f, -0.0f, 0.0f, 2.0f, -1e-3f};

std::vector<float> run(Model m) {
  Executor e(std::move(m.graph));
  return values_of<float>(e.run({{"x", make_tensor(DType::kFloat, {6}, kX)}})[0]);
}

// The fused LeakyRelu-16 result.
std::vector<float> fused(float alpha) {
  return values_of<float>(
      run_op("LeakyRelu", 16, {{"alpha", float_attr(alpha)}}, {make_tensor(DType::kFloat, {6}, kX)})[0]);
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

}  // namespace

TEST_CASE("a local function wrapping LeakyRelu runs and matches the fused result", "[functions]") {
  onnx::ModelProto m = calling_model("MyLeaky");
  add_float_attr(*m.mutable_graph()->mutable_node(0), "alpha", 0.2f);
  *m.add_functions() = my_leaky();
  Model model = load(m);
  REQUIRE(model.graph.nodes.size() == 1);
  const Node& n = model.graph.nodes[0];
  REQUIRE(n.op_type == "LeakyRelu");
  REQUIRE(n.name == "call/inner");
  REQUIRE(n.inputs == std::vector<std::string>{"x"});
  REQUIRE(n.outputs == std::vector<std::string>{"y"});
  REQUIRE(n.attrs.at("alpha").f == 0.2f);
  REQUIRE(n.attrs.at("alpha").ref_attr_name.empty());
  REQUIRE(same_bits(run(std::move(model)), fused(0.2f)));
}

TEST_CASE("function attributes: the caller's value, else the default, else absent", "[functions]") {
  SECTION("default (IR 9 attribute_proto)") {
    onnx::ModelProto m = calling_model("MyLeaky");
    onnx::FunctionProto f = my_leaky();
    f.clear_attribute();
    add_function_attr_default_float(f, "alpha", 0.3f);
    *m.add_functions() = f;
    Model model = load(m);
    REQUIRE(model.graph.nodes[0].attrs.at("alpha").f == 0.3f);
    REQUIRE(same_bits(run(std::move(model)), fused(0.3f)));
  }
  SECTION("the caller overrides the default") {
    onnx::ModelProto m = calling_model("MyLeaky");
    add_float_attr(*m.mutable_graph()->mutable_node(0), "alpha", 0.7f);
    onnx::FunctionProto f = my_leaky();
    f.clear_attribute();
    add_function_attr_default_float(f, "alpha", 0.3f);
    *m.add_functions() = f;
    REQUIRE(load(m).graph.nodes[0].attrs.at("alpha").f == 0.7f);
  }
  SECTION("neither: the attribute is left out, so the op's own default applies") {
    onnx::ModelProto m = calling_model("MyLeaky");
    *m.add_functions() = my_leaky();
    Model model = load(m);
    REQUIRE(model.graph.nodes[0].attrs.count("alpha") == 0);
    REQUIRE(same_bits(run(std::move(model)), fused(0.01f)));
  }
  SECTION("an attribute the function does not declare is refused") {
    onnx::ModelProto m = calling_model("MyLeaky");
    add_float_attr(*m.mutable_graph()->mutable_node(0), "beta", 1.0f);
    *m.add_functions() = my_leaky();
    const Error e = load_error(m);
    REQUIRE(e.kind() == ErrorKind::kInvalid);
    REQUIRE_THAT(e.what(), Catch::Contains("beta"));
  }
}

TEST_CASE("nested calls inline all the way down with unique names", "[functions]") {
  // Twice(X) = MyLeaky(MyLeaky(X)); the main graph already uses the name "call/T".
  onnx::FunctionProto twice = make_function("local", "Twice", {"X"}, {"Y"}, 16);
  twice.add_attribute("a");
  auto c1 = make_node("MyLeaky", {"X"}, {"T"}, "local", "first");
  add_ref_attr(c1, "alpha", "a", onnx::AttributeProto::FLOAT);
  auto c2 = make_node("MyLeaky", {"T"}, {"Y"}, "local", "second");
  add_ref_attr(c2, "alpha", "a", onnx::AttributeProto::FLOAT);
  *twice.add_node() = c1;
  *twice.add_node() = c2;
  auto* imp = twice.add_opset_import();
  imp->set_domain("local");
  imp->set_version(1);

  onnx::ModelProto m = make_model(16, {"local"});
  auto* g = m.mutable_graph();
  auto pre = make_node("LeakyRelu", {"x"}, {"call/T"}, "", "pre");
  add_float_attr(pre, "alpha", 1.0f);  // identity on every value
  *g->add_node() = pre;
  auto call = make_node("Twice", {"call/T"}, {"y"}, "local", "call");
  add_float_attr(call, "a", 0.5f);
  *g->add_node() = call;
  add_value(g->mutable_input(), "x", kFloat, {6});
  add_value(g->mutable_output(), "y", kFloat, {6});
  *m.add_functions() = twice;
  *m.add_functions() = my_leaky();

  Model model = load(m);
  REQUIRE(model.graph.nodes.size() == 3);
  const Node& a = model.graph.nodes[1];
  const Node& b = model.graph.nodes[2];
  REQUIRE(a.name == "call/first/inner");
  REQUIRE(a.inputs[0] == "call/T");
  REQUIRE(a.outputs[0] != "call/T");  // renamed: the graph's own call/T is taken
  REQUIRE(b.inputs[0] == a.outputs[0]);
  REQUIRE(b.outputs[0] == "y");
  REQUIRE(a.attrs.at("alpha").f == 0.5f);
  std::vector<float> want;
  for (float v : kX) want.push_back(v < 0 ? v * 0.5f * 0.5f : v);
  REQUIRE(same_bits(run(std::move(model)), want));
}

TEST_CASE("a function's body resolves against the function's own opset_import", "[functions]") {
  onnx::ModelProto m = calling_model("MyLeaky", 16);
  *m.add_functions() = my_leaky(6);  // the body imports ai.onnx 6: LeakyRelu-6
  Model model = load(m);
  REQUIRE(model.graph.nodes[0].opset == 6);
  REQUIRE(model.graph.nodes[0].op->since == 6);
  onnx::FunctionProto f = my_leaky();
  f.clear_opset_import();
  onnx::ModelProto m2 = calling_model("MyLeaky", 16);
  *m2.add_functions() = f;
  const Error e = load_error(m2);
  REQUIRE(e.kind() == ErrorKind::kInvalid);
  REQUIRE_THAT(e.what(), Catch::Contains("does not import"));
}

TEST_CASE("outputs a call does not ask for get fresh names, missing optional inputs stay absent", "[functions]") {
  onnx::FunctionProto f = make_function("local", "Two", {"X", "Unused"}, {"Y", "Z"}, 16);
  *f.add_node() = make_node("LeakyRelu", {"X"}, {"Y"}, "", "a");
  *f.add_node() = make_node("LeakyRelu", {"Y"}, {"Z"}, "", "b");
  onnx::ModelProto m = calling_model("Two");
  *m.add_functions() = f;
  Model model = load(m);
  REQUIRE(model.graph.nodes.size() == 2);
  REQUIRE(model.graph.nodes[1].outputs[0] == "call/Z");
  REQUIRE(same_bits(run(std::move(model)), fused(0.01f)));
}

TEST_CASE("recursive functions are refused, not followed", "[functions]") {
  SECTION("directly") {
    onnx::FunctionProto f = make_function("local", "Self", {"X"}, {"Y"}, 16);
    *f.add_node() = make_node("Self", {"X"}, {"Y"}, "local", "again");
    auto* imp = f.add_opset_import();
    imp->set_domain("local");
    imp->set_version(1);
    onnx::ModelProto m = calling_model("Self");
    *m.add_functions() = f;
    const Error e = load_error(m);
    REQUIRE(e.kind() == ErrorKind::kInvalid);
    REQUIRE_THAT(e.what(), Catch::Contains("calls itself"));
  }
  SECTION("through another function") {
    onnx::FunctionProto a = make_function("local", "A", {"X"}, {"Y"}, 16);
    *a.add_node() = make_node("B", {"X"}, {"Y"}, "local", "to_b");
    onnx::FunctionProto b = make_function("local", "B", {"X"}, {"Y"}, 16);
    *b.add_node() = make_node("A", {"X"}, {"Y"}, "local", "to_a");
    onnx::ModelProto m = calling_model("A");
    *m.add_functions() = a;
    *m.add_functions() = b;
    const Error e = load_error(m);
    REQUIRE(e.kind() == ErrorKind::kInvalid);
    REQUIRE_THAT(e.what(), Catch::Contains("A -> B -> A"));
  }
}

TEST_CASE("inlining is bounded in depth and in size", "[functions]") {
  SECTION("a chain of 100 distinct functions") {
    onnx::ModelProto m = calling_model("F0");
    for (int k = 0; k < 100; ++k) {
      onnx::FunctionProto f = make_function("local", "F" + std::to_string(k), {"X"}, {"Y"}, 16);
      *f.add_node() = k < 99 ? make_node("F" + std::to_string(k + 1), {"X"}, {"Y"}, "local", "next")
                             : make_node("LeakyRelu", {"X"}, {"Y"}, "", "leaf");
      *m.add_functions() = f;
    }
    const Error e = load_error(m);
    REQUIRE(e.kind() == ErrorKind::kSecurity);
    REQUIRE_THAT(e.what(), Catch::Contains("deeper"));
  }
  SECTION("each level calling the one below twice: 2^40 nodes from a tiny file") {
    onnx::ModelProto m = calling_model("G40");
    for (int k = 0; k <= 40; ++k) {
      onnx::FunctionProto f = make_function("local", "G" + std::to_string(k), {"X"}, {"Y"}, 16);
      if (k == 0) {
        *f.add_node() = make_node("LeakyRelu", {"X"}, {"Y"}, "", "leaf");
      } else {
        const std::string below = "G" + std::to_string(k - 1);
        *f.add_node() = make_node(below, {"X"}, {"T"}, "local", "a");
        *f.add_node() = make_node(below, {"T"}, {"Y"}, "local", "b");
      }
      *m.add_functions() = f;
    }
    const Error e = load_error(m);
    REQUIRE(e.kind() == ErrorKind::kSecurity);
    REQUIRE_THAT(e.what(), Catch::Contains("more than"));
  }
}

TEST_CASE("malformed calls and bodies are refused with the reason", "[functions]") {
  SECTION("ref_attr_name outside a function") {
    onnx::ModelProto m = make_model(16);
    auto* g = m.mutable_graph();
    auto n = make_node("LeakyRelu", {"x"}, {"y"}, "", "n");
    add_ref_attr(n, "alpha", "a", onnx::AttributeProto::FLOAT);
    *g->add_node() = n;
    add_value(g->mutable_input(), "x", kFloat, {6});
    add_value(g->mutable_output(), "y", kFloat, {6});
    const Error e = load_error(m);
    REQUIRE(e.kind() == ErrorKind::kInvalid);
    REQUIRE_THAT(e.what(), Catch::Contains("ref_attr_name"));
  }
  SECTION("a body reading a name from outside") {
    onnx::FunctionProto f = make_function("local", "Leak", {"X"}, {"Y"}, 16);
    *f.add_node() = make_node("LeakyRelu", {"x"}, {"Y"}, "", "n");
    onnx::ModelProto m = calling_model("Leak");
    *m.add_functions() = f;
    const Error e = load_error(m);
    REQUIRE(e.kind() == ErrorKind::kInvalid);
    REQUIRE_THAT(e.what(), Catch::Contains("neither a function input"));
  }
  SECTION("too many inputs") {
    onnx::ModelProto m = calling_model("MyLeaky");
    m.mutable_graph()->mutable_node(0)->add_input("x");
    *m.add_functions() = my_leaky();
    REQUIRE(load_error(m).kind() == ErrorKind::kInvalid);
  }
  SECTION("the same function twice") {
    onnx::ModelProto m = calling_model("MyLeaky");
    *m.add_functions() = my_leaky();
    *m.add_functions() = my_leaky();
    const Error e = load_error(m);
    REQUIRE(e.kind() == ErrorKind::kInvalid);
    REQUIRE_THAT(e.what(), Catch::Contains("defined twice"));
  }
}
