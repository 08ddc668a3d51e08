// The library pieces behind issue 7's run features: literals, statistics, numpy-style
// printing, suggestions, file names for values, and describing unrunnable models.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include <nlohmann/json.hpp>

#include "cli/suggest.h"
#include "core/element.h"
#include "core/error.h"
#include "core/half.h"
#include "core/tensor_stats.h"
#include "io/tensor_format.h"
#include "io/tensor_literal.h"
#include "io/tensor_text.h"
#include "model/describe.h"
#include "model/load.h"
#include "suite/json_documents.h"
#include "support/paths.h"
#include "support/tensors.h"

using namespace onnxrun;
using namespace onnxrun::cli;
using onnxrun::test::float_tensor;

namespace {
std::string quick(const std::string& name) { return onnxrun::test::testdata_dir() + "/quick/" + name; }
}  // namespace

TEST_CASE("literal lists give values and shape", "[literal]") {
  Tensor t = parse_tensor_literal("[[1, 2.5, -3], [4e1, nan, -inf]]", DType::kFloat, std::nullopt, "-i x");
  CHECK(t.shape() == Shape{2, 3});
  CHECK(element_as_double(t, 1) == 2.5);
  CHECK(element_as_double(t, 3) == 40);
  CHECK(std::isnan(element_as_double(t, 4)));
  CHECK(element_as_double(t, 5) == -std::numeric_limits<double>::infinity());
  CHECK(parse_tensor_literal("[]", DType::kInt64, std::nullopt, "x").shape() == Shape{0});
  CHECK(parse_tensor_literal("[[],[]]", DType::kInt64, std::nullopt, "x").shape() == Shape{2, 0});
  CHECK(parse_tensor_literal("[7]", DType::kInt32, Shape{}, "x").shape().empty());
  CHECK(parse_tensor_literal("[1,2,3,4,5,6]", DType::kInt8, Shape{2, 3}, "x").shape() == Shape{2, 3});
  // One correct rounding for 16-bit floats.
  CHECK(parse_tensor_literal("[0.1]", DType::kFloat16, std::nullopt, "x").data<uint16_t>()[0] ==
        double_to_float16(0.1));
  CHECK(parse_tensor_literal("[0.1]", DType::kBFloat16, std::nullopt, "x").data<uint16_t>()[0] ==
        double_to_bfloat16(0.1));
  CHECK(parse_tensor_literal("[true, false, 1]", DType::kBool, std::nullopt, "x").data<uint8_t>()[0] == 1);
}

TEST_CASE("malformed literals are usage errors naming the problem", "[literal]") {
  auto msg = [](const std::string& text, DType t, std::optional<Shape> s = std::nullopt) {
    try {
      parse_tensor_literal(text, t, s, "-i x=" + text);
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::kUsage);
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(msg("[[1,2],[3]]", DType::kFloat), Catch::Contains("ragged"));
  CHECK_THAT(msg("[[1,2],3]", DType::kFloat), Catch::Contains("mixed"));
  CHECK_THAT(msg("[1,2", DType::kFloat), Catch::Contains("expected ',' or ']'"));
  CHECK_THAT(msg("[1,x]", DType::kFloat), Catch::Contains("expected a number"));
  CHECK_THAT(msg("[1] junk", DType::kFloat), Catch::Contains("after the closing"));
  CHECK_THAT(msg("[1.5]", DType::kInt32), Catch::Contains("not a int32 value"));
  CHECK_THAT(msg("[300]", DType::kUInt8), Catch::Contains("not a uint8 value"));
  CHECK_THAT(msg("[2]", DType::kBool), Catch::Contains("not a bool"));
  CHECK_THAT(msg("[1,2,3]", DType::kFloat, Shape{2, 2}), Catch::Contains("has 3 values but --shape [2,2] holds 4"));
  CHECK_THAT(msg("[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]", DType::kFloat),
             Catch::Contains("nested too deeply"));
}

TEST_CASE("statistics count NaN and inf apart and ignore them in mean and std", "[stats]") {
  const double inf = std::numeric_limits<double>::infinity();
  TensorStats s = tensor_stats(float_tensor({6}, {1, 2, 3, NAN, static_cast<float>(inf), static_cast<float>(-inf)}));
  CHECK(s.nan == 1);
  CHECK(s.pos_inf == 1);
  CHECK(s.neg_inf == 1);
  CHECK(s.min == -inf);
  CHECK(s.max == inf);
  CHECK(s.mean == 2);
  CHECK(s.std == Approx(std::sqrt(2.0 / 3.0)));
  TensorStats all_nan = tensor_stats(float_tensor({2}, {NAN, NAN}));
  CHECK(std::isnan(all_nan.mean));
  CHECK(format_stats(all_nan) == "no finite values, nan 2 inf 0");  // no NaN statistics
  CHECK(format_stats(s) == "min -inf max inf mean 2 std 0.816497 (finite values) nan 1 inf 2");
  CHECK(format_stats(tensor_stats(float_tensor({2}, {-1, 3}))) == "min -1 max 3 mean 1 std 2 nan 0 inf 0");
}

TEST_CASE("arrays print as numpy prints them", "[print]") {
  CHECK(format_array(float_tensor({2, 2}, {1, 2.5, -3, 4})) == "[[ 1.   2.5]\n [-3.   4. ]]");
  CHECK(format_array(float_tensor({}, {0.1f})) == "0.1");
  CHECK(format_array(float_tensor({3}, {1e-5f, 1, 100})) == "[1.e-05 1.e+00 1.e+02]");
  CHECK(format_array(float_tensor({3}, {NAN, INFINITY, -1.5})) == "[ nan  inf -1.5]");
  Tensor b(DType::kBool, {3});
  b.mutable_data<uint8_t>()[0] = 1, b.mutable_data<uint8_t>()[1] = 0, b.mutable_data<uint8_t>()[2] = 1;
  CHECK(format_array(b) == "[ True False  True]");
  Tensor big(DType::kInt32, {2000});
  for (int k = 0; k < 2000; ++k) big.mutable_data<int32_t>()[k] = k;
  CHECK(format_array(big) == "[   0    1    2 ... 1997 1998 1999]");
  ArrayPrintOptions full;
  full.full = true;
  CHECK(format_array(big, full).find("...") == std::string::npos);
  Tensor h(DType::kFloat16, {2});
  h.mutable_data<uint16_t>()[0] = double_to_float16(0.1);
  h.mutable_data<uint16_t>()[1] = double_to_float16(-2);
  CHECK(format_array(h) == "[ 0.1 -2. ]");  // float16's own shortest digits, not float's
}

TEST_CASE("suggestions find the nearest name within a slip of the keyboard", "[suggest]") {
  CHECK(edit_distance("tset", "test") == 1);
  CHECK(edit_distance("inof", "info") == 1);
  CHECK(edit_distance("", "abc") == 3);
  CHECK(nearest_name("tset", {"run", "info", "test", "bench"}) == std::optional<std::string>("test"));
  CHECK(nearest_name("bnech", {"run", "info", "test", "bench"}) == std::optional<std::string>("bench"));
  CHECK_FALSE(nearest_name("model", {"run", "info", "test", "bench"}));
  CHECK(nearest_name("--ful", {"--full", "--json"}) == std::optional<std::string>("--full"));
  CHECK_FALSE(misspelt_command("tset.onnx", {"test"}));  // looks like a file: not a command
  CHECK_FALSE(misspelt_command("-i", {"info"}));
  CHECK(misspelt_command("inf", {"run", "info"}) == std::optional<std::string>("info"));
}

TEST_CASE("value names become safe file names", "[dump]") {
  CHECK(file_name_for_value("conv1/out:0") == "conv1_out_0");
  CHECK(file_name_for_value("..") == "_..");
  CHECK(file_name_for_value("") == "_");
  CHECK(file_name_for_value("a-b.c_d") == "a-b.c_d");
}

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
                                         "initializer_bytes", "nodes", "functions", "runnable"});
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

TEST_CASE("info --json: unknown types and dims are null, symbolic dims are names", "[describe]") {
  LoadOptions keep;
  keep.keep_unsupported = true;
  Model m = load_model(quick("not_runnable.onnx"), keep);
  m.graph.inputs = {ValueInfo{"u", std::nullopt, std::vector<Dim>{{-1, ""}, {-1, "N"}, {3, ""}}},
                    ValueInfo{"r", DType::kFloat, std::nullopt}};
  const auto json = nlohmann::ordered_json::parse(info_json(m));
  CHECK(json["inputs"].dump() == R"([{"name":"u","type":null,"shape":[null,"N",3]},)"
                                 R"({"name":"r","type":"float","shape":null}])");
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
