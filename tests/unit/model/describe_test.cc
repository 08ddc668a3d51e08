// Describing a model onnx-run cannot run (model/describe.h, and its JSON form).
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/describe.h"
#include "model/load.h"
#include "suite/json_documents.h"
#include "support/model_builder.h"
#include "support/paths.h"

using namespace onnxrun;

namespace {
std::string quick(const std::string& name) { return onnxrun::test::testdata_dir() + "/quick/" + name; }

// `p` loaded as info loads it, after checking that a run's load refuses it, saying `why`.
Model described_though_refused(const onnx::ModelProto& p, const std::string& why) {
  const std::string bytes = p.SerializeAsString();
  CHECK_THROWS_WITH(load_model_from_bytes(bytes.data(), bytes.size(), "."), Catch::EndsWith(why));
  LoadOptions keep;
  keep.keep_unsupported = true;
  return load_model_from_bytes(bytes.data(), bytes.size(), ".", keep);
}
}  // namespace

TEST_CASE("a model onnx-run cannot run still loads for describing", "[describe]") {
  CHECK_THROWS_WITH(load_model(quick("not_runnable.onnx")),
                    Catch::Contains("Relu") && Catch::Contains("not implemented"));
  LoadOptions keep;
  keep.keep_unsupported = true;
  const Model m = load_model(quick("not_runnable.onnx"), keep);
  REQUIRE(m.graph.nodes.size() == 4);  // the call to local.Twice is inlined as two LeakyRelu
  CHECK(m.graph.nodes[0].op != nullptr);
  CHECK(m.graph.nodes[1].op == nullptr);
  CHECK(m.graph.nodes[2].op != nullptr);
  CHECK(m.graph.nodes[3].op != nullptr);
  REQUIRE(m.graph.nodes[1].problem);
  CHECK_THAT(m.graph.nodes[1].problem->what(), Catch::Contains("Relu"));
  REQUIRE(m.graph.nodes[1].problem->causes().size() == 1);
  CHECK(m.graph.nodes[1].problem->causes()[0].key() == "Relu");
  REQUIRE(m.functions.size() == 1);
  CHECK(m.functions[0].name == "Twice");
  REQUIRE(m.functions[0].nodes.size() == 2);
  CHECK(m.functions[0].nodes[1].op_type == "LeakyRelu");
  const std::string text = describe_model_text(m);
  CHECK_THAT(text, Catch::Contains("leaky  LeakyRelu  ai.onnx opset 14 -> v6 (6-15)"));
  CHECK_THAT(text, Catch::Contains("relu  Relu  ai.onnx opset 14 -> NOT SUPPORTED (operator not implemented)"));
  CHECK_THAT(text, Catch::Contains("w  float[2,3]  24 B"));
  CHECK_THAT(text, Catch::Contains("local.Twice(t) -> (u)  attributes: unused_attr  body: LeakyRelu LeakyRelu"));
  CHECK_THAT(text, Catch::Contains("runnable:       no"));
  const auto json = nlohmann::ordered_json::parse(info_json(m));
  std::vector<std::string> keys;
  for (const auto& [key, value] : json.items()) keys.push_back(key);
  CHECK(keys == std::vector<std::string>{"ir_version", "producer_name", "producer_version", "domain", "model_version",
                                         "graph_name", "opset_imports", "inputs", "outputs", "initializers",
                                         "initializer_bytes", "nodes", "functions", "operators", "runnable",
                                         "not_runnable_because", "fusion"});
  CHECK(json["opset_imports"].dump() == R"({"ai.onnx":14,"local":1})");
  CHECK(json["nodes"][0]["resolved_version"] == 6);
  CHECK(json["nodes"][0]["version_range"] == "v6 (6-15)");
  CHECK(json["nodes"][1]["supported"] == false);
  CHECK(json["nodes"][1]["reason"] == "operator not implemented");
  CHECK(json["inputs"][0]["shape"] == nlohmann::json::parse(R"(["N"])"));
  CHECK(json["initializers"][0].dump() == R"({"name":"w","type":"float","shape":[2,3],"bytes":24})");
  CHECK(json["functions"][0]["attributes"] == nlohmann::json::parse(R"(["unused_attr"])"));
  CHECK(json["runnable"] == false);
  CHECK(json["inputs"][0]["initializer"] == false);
  CHECK(json["operators"].dump() ==
        R"j([{"domain":"ai.onnx","op_type":"LeakyRelu","nodes":3,"unsupported_nodes":0,)j"
        R"j("versions":["v6 (6-15)","v16 (16+)"],"reason":null,"invalid":false},)j"
        R"j({"domain":"ai.onnx","op_type":"Relu","nodes":1,"unsupported_nodes":1,"versions":[],)j"
        R"j("reason":"operator not implemented","invalid":false}])j");
  CHECK(json["not_runnable_because"].dump() == R"(["Relu (1 node): operator not implemented"])");
  CHECK_THAT(text, Catch::Contains("operators (2):\n"
                                   "  LeakyRelu  x3  v6 (6-15), v16 (16+)\n"
                                   "  Relu       x1  NOT SUPPORTED (operator not implemented)\n"));
  CHECK_THAT(text, Catch::EndsWith("runnable:       no, because:\n  Relu (1 node): operator not implemented\n"));
}

// Found by an outside tester: one If node (an attribute of type GRAPH) made the whole
// model fail to load, so neither `info` nor `verify` could describe the rest of it.
TEST_CASE("a node with an attribute onnx-run reads nowhere cannot run, and the rest still describes", "[describe]") {
  onnx::ModelProto m = onnxrun::test::leaky_relu_model(16);
  onnxrun::test::add_input(m, "c", onnx::TensorProto::BOOL, {});
  onnx::NodeProto* branchy = onnxrun::test::add_node(m, "If", {"c"}, {"z"}, "if");
  onnx::AttributeProto* g = branchy->add_attribute();
  g->set_name("then_branch");
  g->set_type(onnx::AttributeProto::GRAPH);
  g->mutable_g()->set_name("then");
  onnx::NodeProto* odd = onnxrun::test::add_node(m, "LeakyRelu", {"x"}, {"w"}, "odd");
  *odd->add_attribute() = *g;  // an implemented op: the attribute is the reason
  onnxrun::test::TempDir d;
  const std::string path = onnxrun::test::save_model(m, d.file("m.onnx"));
  CHECK_THROWS_WITH(load_model(path),
                    Catch::Contains("node 'if' (If): operator If") && Catch::Contains("is not implemented"));
  LoadOptions keep;
  keep.keep_unsupported = true;
  const Model kept = load_model(path, keep);
  REQUIRE(kept.graph.nodes.size() == 3);
  CHECK(kept.graph.nodes[0].op != nullptr);
  REQUIRE(kept.graph.nodes[1].problem);
  CHECK(kept.graph.nodes[1].problem->causes().at(0).key() == "If");
  REQUIRE(kept.graph.nodes[2].problem);
  CHECK(kept.graph.nodes[2].op == nullptr);
  CHECK_THAT(kept.graph.nodes[2].problem->what(),
             Catch::Contains("node 'odd' (LeakyRelu): attribute 'then_branch' has type GRAPH"));
  CHECK_THAT(describe_model_text(kept), Catch::Contains("if  If  ai.onnx opset 16 -> NOT SUPPORTED"));
}

TEST_CASE("info counts initializer-backed inputs and long lists unless --all", "[describe]") {
  LoadOptions keep;
  keep.keep_unsupported = true;
  Model m = load_model(quick("not_runnable.onnx"), keep);
  for (int k = 0; k < 25; ++k) {
    const std::string name = "c" + std::to_string(k);
    m.graph.initializers.emplace(name, Tensor(DType::kFloat, Shape{2}));
    m.graph.inputs.push_back(ValueInfo{name, DType::kFloat, std::vector<Dim>{{2, ""}}});
  }
  const std::string brief = describe_model_text(m);
  CHECK_THAT(brief,
             Catch::Contains("inputs (1; 25 more have an initializer; --all lists them):\n  x  float[N]\noutputs"));
  CHECK_THAT(brief, Catch::Contains("initializers (26, 224 B; --all lists them):\nnodes (4, 1 not supported"));
  CHECK_THAT(brief, Catch::Contains("  relu  Relu  ai.onnx opset 14"));  // 4 nodes: listed
  const std::string all = describe_model_text(m, true);
  CHECK_THAT(all, Catch::Contains(
                      "inputs (26, 25 with an initializer):\n  x  float[N]\n  c0  float[2]  (has an initializer)\n"));
  CHECK_THAT(all, Catch::Contains("initializers (26, 224 B):\n  c0  float[2]  8 B\n"));
  const auto json = nlohmann::ordered_json::parse(info_json(m));
  REQUIRE(json["inputs"].size() == 26);
  CHECK(json["inputs"][25]["initializer"] == true);
}

TEST_CASE("info says a model that can run is runnable, with no reasons", "[describe]") {
  const Model m = load_model(quick("two_chains.onnx"));
  CHECK_THAT(describe_model_text(m), Catch::EndsWith("runnable:       yes\n"));
  const auto json = nlohmann::ordered_json::parse(info_json(m));
  CHECK(json["runnable"] == true);
  CHECK(json["not_runnable_because"].dump() == "[]");
  CHECK(json["operators"][0]["reason"].is_null());
}

// info said "runnable: yes" for a model every run refuses: its output declared double,
// LeakyRelu of a float computes float.
TEST_CASE("info says a graph output of another type than declared makes the model not runnable", "[describe]") {
  onnx::ModelProto p = test::make_model(16);
  test::add_input(p, "x", onnx::TensorProto::FLOAT, {4});
  test::add_output(p, "y", onnx::TensorProto::DOUBLE, {4});
  test::add_node(p, "LeakyRelu", {"x"}, {"y"}, "lr");
  const std::string why = "graph output 'y' is declared double but computed as float";
  const Model m = described_though_refused(p, why);
  CHECK_THAT(describe_model_text(m), Catch::Contains("runnable:       no, because:\n  invalid model: " + why + "\n"));
  const auto json = nlohmann::json::parse(info_json(m));
  CHECK(json["runnable"] == false);
  CHECK(json["not_runnable_because"] == nlohmann::json::array({"invalid model: " + why}));
}

// An initializer of another type than the input it backs was blamed on the graph output
// ("graph output 'y' is declared float but computed as double").
TEST_CASE("an initializer of another type than its input's declaration is named as the fault", "[describe]") {
  onnx::ModelProto p = test::make_model(16);
  test::add_input(p, "x", onnx::TensorProto::FLOAT, {3});
  test::add_output(p, "y", onnx::TensorProto::FLOAT, {3});
  test::add_node(p, "LeakyRelu", {"x"}, {"y"}, "lr");
  onnx::TensorProto* init = p.mutable_graph()->add_initializer();
  init->set_name("x");
  init->set_data_type(onnx::TensorProto::DOUBLE);
  init->add_dims(3);
  for (double v : {1.0, 2.0, 3.0}) init->add_double_data(v);
  const std::string why = "initializer 'x' is double but graph input 'x' is declared float";
  const Model m = described_though_refused(p, why);
  // That one reason: the output computed from it is not blamed too.
  CHECK_THAT(describe_model_text(m), Catch::EndsWith("runnable:       no, because:\n  invalid model: " + why + "\n"));
}
