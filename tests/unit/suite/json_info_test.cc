// `onnx-run info --json` (suite/json_info.cc): nulls for what is unknown, and valid JSON
// whatever bytes the model's strings hold.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <string>

#include "model/load.h"
#include "suite/json_documents.h"
#include "support/paths.h"

using namespace onnxrun;

namespace {
std::string quick(const std::string& name) { return onnxrun::test::testdata_dir() + "/quick/" + name; }
}  // namespace

TEST_CASE("info --json: unknown types and dims are null, symbolic dims are names", "[describe]") {
  LoadOptions keep;
  keep.keep_unsupported = true;
  Model m = load_model(quick("not_runnable.onnx"), keep);
  m.graph.inputs = {ValueInfo{"u", std::nullopt, std::vector<Dim>{{-1, ""}, {-1, "N"}, {3, ""}}},
                    ValueInfo{"r", DType::kFloat, std::nullopt}};
  const auto json = nlohmann::ordered_json::parse(info_json(m));
  CHECK(json["inputs"].dump() == R"([{"name":"u","type":null,"shape":[null,"N",3],"initializer":false},)"
                                 R"({"name":"r","type":"float","shape":null,"initializer":false}])");
}

TEST_CASE("info --json stays valid JSON when the model's strings are not UTF-8", "[describe]") {
  LoadOptions keep;
  keep.keep_unsupported = true;
  Model m = load_model(quick("not_runnable.onnx"), keep);
  m.meta.producer_name = "bad\xff";
  m.graph.inputs[0].name = "x\xc3(";  // a lead byte with no continuation
  const std::string text = info_json(m);
  nlohmann::json json;
  REQUIRE_NOTHROW(json = nlohmann::json::parse(text));  // parse rejects invalid UTF-8
  CHECK(json["producer_name"] == "bad\uFFFD");
  CHECK(json["inputs"][0]["name"] == "x\uFFFD(");
}
