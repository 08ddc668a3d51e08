// Which subgraphs are recognised as LeakyRelu-16 (its body, the exporters' idiom) and,
// as importantly, which are not: a value used outside the match, a constant a feed can
// replace, a zero that is not zero, an alpha a float32 cannot hold, a type LeakyRelu does
// not take, an operand that is not the same X.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "model/recognise_functions.h"
#include "model/resolve.h"
#include "model/schema_functions.h"
#include "ops/registry.h"
#include "support/fusion_models.h"
#include "support/load.h"
#include "support/model_builder.h"

using namespace onnxrun;
using namespace onnxrun::test;

namespace {

// The graph of `m` after recognition, and what was recognised.
std::pair<Graph, std::vector<RecognisedSubgraph>> recognised(const onnx::ModelProto& m) {
  Graph g = load(m).graph;
  auto r = recognise_functions(g, OpRegistry::builtin());
  return {std::move(g), std::move(r)};
}

void require_one_leaky_relu(const Graph& g, float alpha) {
  REQUIRE(g.nodes.size() == 1);
  const Node& n = g.nodes[0];
  REQUIRE(n.op_type == "LeakyRelu");
  REQUIRE(n.op != nullptr);
  REQUIRE(n.op->since == 16);
  REQUIRE(n.inputs == std::vector<std::string>{"x"});
  REQUIRE(n.outputs == std::vector<std::string>{"y"});
  REQUIRE(n.attrs.at("alpha").f == alpha);
}

}  // namespace

TEST_CASE("recognise: LeakyRelu-16's body becomes one LeakyRelu with its alpha, in any node order", "[model][fusion]") {
  for (bool scrambled : {false, true}) {
    for (int elem : {1, 10, 11, 16}) {
      INFO("elem " << elem << (scrambled ? " scrambled" : ""));
      auto [g, r] = recognised(leaky_body_model(elem, 4, 0.3f, scrambled));
      require_one_leaky_relu(g, 0.3f);
      REQUIRE(r.size() == 1);
      REQUIRE(r[0].node == "where");
      REQUIRE(r[0].what == "function body");
      std::vector<std::string> replaced = r[0].replaced;  // in graph order, which the loader's sort decides
      std::sort(replaced.begin(), replaced.end());
      REQUIRE(replaced == std::vector<std::string>{"alpha_cast", "less", "mul", "where", "zero_cast"});
    }
  }
}

TEST_CASE("recognise: the body --expand-functions writes is recognised back", "[model][fusion]") {
  Graph g = load(leaky_chain_model(1, 4, {0.2f})).graph;
  REQUIRE(expand_schema_functions(g) == 1);
  resolve_graph(g, OpRegistry::builtin(), false);
  REQUIRE(g.nodes.size() == 7);
  REQUIRE(recognise_functions(g, OpRegistry::builtin()).size() == 1);
  REQUIRE(g.nodes.size() == 1);
  REQUIRE(g.nodes[0].attrs.at("alpha").f == 0.2f);
}

TEST_CASE("recognise: Where(X < 0, X * a, X) with constants of X's type becomes LeakyRelu", "[model][fusion]") {
  for (int elem : {1, 10, 11, 16}) {
    INFO("elem " << elem);
    auto [g, r] = recognised(leaky_idiom_model(elem, 4, 0.5, -0.0));
    require_one_leaky_relu(g, 0.5f);
    REQUIRE(r.at(0).what == "Where(X < 0, X * alpha, X)");
  }
  // 0.1 rounds to float16 and bfloat16 and float exactly as alpha=0.1f does.
  for (int elem : {1, 10, 16}) REQUIRE(recognised(leaky_idiom_model(elem, 4, 0.1)).second.size() == 1);
  // Mul's operands the other way round.
  onnx::ModelProto m = leaky_idiom_model(1, 4, 0.5);
  m.mutable_graph()->mutable_node(1)->set_input(0, "a");
  m.mutable_graph()->mutable_node(1)->set_input(1, "x");
  REQUIRE(recognised(m).second.size() == 1);
}

TEST_CASE("recognise: not when a float32 alpha cannot be the constant exactly", "[model][fusion]") {
  // double 0.1 is not (double)0.1f: LeakyRelu would multiply by another number.
  auto [g, r] = recognised(leaky_idiom_model(11, 4, 0.1));
  REQUIRE(r.empty());
  REQUIRE(g.nodes.size() == 3);
}

TEST_CASE("recognise: not when a value inside the match is used outside it", "[model][fusion]") {
  onnx::ModelProto m = leaky_body_model(1, 4, 0.1f);
  add_output(m, "XLessThanZero", 9, {4});
  REQUIRE(recognised(m).second.empty());
  onnx::ModelProto m2 = leaky_idiom_model(1, 4, 0.5);
  *m2.mutable_graph()->add_node() = make_node("Mul", {"scaled", "x"}, {"other"}, "", "other");
  add_output(m2, "other", 1, {4});
  REQUIRE(recognised(m2).second.empty());
}

TEST_CASE("recognise: not when a constant is an input a feed may replace", "[model][fusion]") {
  onnx::ModelProto m = leaky_idiom_model(1, 4, 0.5);
  add_value(m.mutable_graph()->mutable_input(), "a", 1, {});
  REQUIRE(recognised(m).second.empty());
}

TEST_CASE("recognise: not for a zero that is not zero, a constant of another shape, or an X that differs",
          "[model][fusion]") {
  REQUIRE(recognised(leaky_idiom_model(1, 4, 0.5, 1.0)).second.empty());
  onnx::ModelProto shaped = leaky_idiom_model(1, 4, 0.5);
  shaped.mutable_graph()->mutable_initializer(0)->add_dims(1);  // a of shape [1]
  REQUIRE(recognised(shaped).second.empty());
  onnx::ModelProto other = leaky_idiom_model(1, 4, 0.5);
  add_input(other, "x2", 1, {4});
  other.mutable_graph()->mutable_node(2)->set_input(2, "x2");  // Where(x < 0, x * a, x2)
  REQUIRE(recognised(other).second.empty());
  onnx::ModelProto nan_alpha = leaky_idiom_model(1, 4, std::nan(""));
  REQUIRE(recognised(nan_alpha).second.empty());
}

TEST_CASE("recognise: not for a type LeakyRelu does not take", "[model][fusion]") {
  onnx::ModelProto m = leaky_idiom_model(6, 4, 3.0);  // int32
  REQUIRE(recognised(m).second.empty());
}

TEST_CASE("recognise: a Constant still read elsewhere stays, one only the match read goes", "[model][fusion]") {
  onnx::ModelProto m = leaky_body_model(1, 4, 0.1f);
  add_output(m, "Alpha", 1, {});
  auto [g, r] = recognised(m);
  REQUIRE(r.size() == 1);
  REQUIRE(g.nodes.size() == 2);  // the alpha Constant, then LeakyRelu
  REQUIRE(g.nodes[0].name == "alpha");
}
