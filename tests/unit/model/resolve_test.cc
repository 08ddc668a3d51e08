// Opset resolution: the version each opset resolves to, the attributes and types each
// version accepts, and the messages for what cannot be resolved.
#include <catch2/catch.hpp>

#include <string>

#include "core/error.h"
#include "model/load.h"
#include "ops/registry.h"
#include "support/load.h"
#include "support/model_builder.h"

using namespace onnxrun;
using namespace onnxrun::test;
using Catch::Matchers::Contains;

TEST_CASE("LeakyRelu resolves to v1 for opsets 1-5, v6 for 6-15, v16 from 16 on", "[resolve]") {
  for (int64_t opset = 1; opset <= 28; ++opset) {
    INFO("opset " << opset);
    Model m = load(leaky_relu_model(opset));
    const int want = opset <= 5 ? 1 : opset <= 15 ? 6 : 16;
    REQUIRE(m.graph.nodes.at(0).op != nullptr);
    CHECK(m.graph.nodes[0].op->since == want);
    CHECK(m.graph.nodes[0].opset == opset);
  }
}

TEST_CASE("the default domain may be written ai.onnx", "[resolve]") {
  auto m = leaky_relu_model(13);
  m.mutable_opset_import(0)->set_domain("ai.onnx");
  m.mutable_graph()->mutable_node(0)->set_domain("ai.onnx");
  CHECK(load(m).graph.nodes[0].op->since == 6);
}

TEST_CASE("consumed_inputs is accepted by v1 only", "[resolve]") {
  for (int64_t opset : {1, 5, 6, 16}) {
    INFO("opset " << opset);
    auto m = leaky_relu_model(opset);
    auto* a = m.mutable_graph()->mutable_node(0)->add_attribute();
    a->set_name("consumed_inputs");
    a->set_type(onnx::AttributeProto::INTS);
    a->add_ints(0);
    if (opset <= 5) {
      CHECK_NOTHROW(load(m));
    } else {
      Error e = load_error(m);
      CHECK(e.kind() == ErrorKind::kInvalid);
      CHECK_THAT(e.what(), Contains("consumed_inputs") && Contains("not defined"));
    }
  }
}

TEST_CASE("bfloat16 is allowed from v16 on, float16/float/double everywhere", "[resolve]") {
  for (int64_t opset : {1, 5, 6, 15, 16, 28}) {
    for (int elem : {onnx::TensorProto::FLOAT, onnx::TensorProto::DOUBLE, onnx::TensorProto::FLOAT16})
      CHECK_NOTHROW(load(leaky_relu_model(opset, elem)));
    auto m = leaky_relu_model(opset, onnx::TensorProto::BFLOAT16);
    if (opset >= 16) {
      CHECK_NOTHROW(load(m));
    } else {
      Error e = load_error(m);
      CHECK(e.kind() == ErrorKind::kInvalid);  // ONNX's own rule: the model's fault
      CHECK_THAT(e.what(), Contains("bfloat16") && Contains("float16, float, double"));
    }
  }
  Error e = load_error(leaky_relu_model(13, onnx::TensorProto::INT32));
  CHECK(e.kind() == ErrorKind::kInvalid);
  CHECK_THAT(e.what(), Contains("int32") && Contains("node 'leaky'") && Contains("v6 (6-15)"));
}

TEST_CASE("alpha of the wrong kind is refused", "[resolve]") {
  auto m = leaky_relu_model(16);
  add_int_attr(*m.mutable_graph()->mutable_node(0), "alpha", 1);
  Error e = load_error(m);
  CHECK(e.kind() == ErrorKind::kInvalid);
  CHECK_THAT(e.what(), Contains("alpha") && Contains("float") && Contains("int"));
}

TEST_CASE("an unknown op names node, op, domain and opset", "[resolve]") {
  auto m = leaky_relu_model(13);
  m.mutable_graph()->mutable_node(0)->set_op_type("Relu6");
  Error e = load_error(m);
  CHECK(e.kind() == ErrorKind::kUnsupported);
  CHECK_THAT(e.what(), Contains("node 'leaky'") && Contains("Relu6") && Contains("ai.onnx") && Contains("opset 13"));
}

TEST_CASE("an unknown domain is named with its opset", "[resolve]") {
  auto m = leaky_relu_model(13);
  auto* imp = m.add_opset_import();
  imp->set_domain("com.example");
  imp->set_version(3);
  m.mutable_graph()->mutable_node(0)->set_domain("com.example");
  Error e = load_error(m);
  CHECK(e.kind() == ErrorKind::kUnsupported);
  CHECK_THAT(e.what(), Contains("com.example") && Contains("opset 3") && Contains("LeakyRelu"));
}

TEST_CASE("a domain the model does not import is refused", "[resolve]") {
  auto m = leaky_relu_model(13);
  m.mutable_graph()->mutable_node(0)->set_domain("com.example");
  CHECK_THAT(load_error(m).what(), Contains("does not import domain 'com.example'"));
}

TEST_CASE("missing and duplicate opset imports are refused", "[resolve]") {
  auto m = leaky_relu_model(13);
  m.clear_opset_import();
  CHECK_THAT(load_error(m).what(), Contains("does not import domain 'ai.onnx'"));
  m = leaky_relu_model(13);
  auto* imp = m.add_opset_import();
  imp->set_domain("ai.onnx");
  imp->set_version(12);
  CHECK_THAT(load_error(m).what(), Contains("twice"));
}

TEST_CASE("a version gap names the versions that are implemented", "[resolve]") {
  std::vector<OpDef> rows;
  for (int opset : {6, 16}) {
    rows.push_back(*OpRegistry::builtin().find("", "LeakyRelu", opset));
    rows.back().until = kOpenEnded;  // the registry derives it again
  }
  const OpRegistry r(std::move(rows));
  const std::string bytes = leaky_relu_model(5).SerializeAsString();
  LoadOptions opts;
  opts.registry = &r;
  try {
    load_model_from_bytes(bytes.data(), bytes.size(), ".", opts);
    FAIL("loaded");
  } catch (const Error& e) {
    CHECK_THAT(e.what(), Contains("opset 5") && Contains("implemented: v6 (6-15), v16 (16+)"));
  }
}
