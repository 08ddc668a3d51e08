// Describing a model onnx-run cannot run (model/describe.h, and its JSON form).
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/describe.h"
#include "model/load.h"
#include "suite/json_documents.h"
#include "support/paths.h"

using namespace onnxrun;

namespace {
std::string quick(const std::string& name) { return onnxrun::test::testdata_dir() + "/quick/" + name; }
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
                                         "initializer_bytes", "nodes", "functions", "runnable", "fusion"});
  CHECK(json["opset_imports"].dump() == R"({"ai.onnx":14,"local":1})");
  CHECK(json["nodes"][0]["resolved_version"] == 6);
  CHECK(json["nodes"][0]["version_range"] == "v6 (6-15)");
  CHECK(json["nodes"][1]["supported"] == false);
  CHECK(json["nodes"][1]["reason"] == "operator not implemented");
  CHECK(json["inputs"][0]["shape"] == nlohmann::json::parse(R"(["N"])"));
  CHECK(json["initializers"][0].dump() == R"({"name":"w","type":"float","shape":[2,3],"bytes":24})");
  CHECK(json["functions"][0]["attributes"] == nlohmann::json::parse(R"(["unused_attr"])"));
  CHECK(json["runnable"] == false);
}
