// Graph validation and execution: ordering, SSA, cycles, dangling inputs, fan-out,
// intermediates that are graph outputs, initializers overridden by inputs, in-place reuse.
#include <catch2/catch.hpp>

#include "core/error.h"
#include "exec/bind.h"
#include "exec/executor.h"
#include "model/load.h"
#include "model/print_graph.h"
#include "support/load.h"
#include "support/model_builder.h"
#include "support/tensors.h"

using namespace onnxrun;
using namespace onnxrun::test;
using Catch::Matchers::Contains;

namespace {
constexpr int kF = onnx::TensorProto::FLOAT;

// x -> a (alpha .5) -> b (default) ; a -> d (alpha -1); outputs b, a, d; nodes reversed.
onnx::ModelProto fanout_model() {
  onnx::ModelProto m = make_model(13);
  add_input(m, "x", kF, {3});
  add_output(m, "b", kF, {3});
  add_output(m, "a", kF, {3});
  add_output(m, "d", kF, {3});
  add_float_attr(*add_node(m, "LeakyRelu", {"a"}, {"d"}, "n3"), "alpha", -1.0f);
  add_node(m, "LeakyRelu", {"a"}, {"b"}, "n2");
  add_float_attr(*add_node(m, "LeakyRelu", {"x"}, {"a"}, "n1"), "alpha", 0.5f);
  return m;
}
}  // namespace

TEST_CASE("nodes out of order are sorted, and fan-out and intermediate outputs run", "[graph]") {
  Model m = load(fanout_model());
  REQUIRE(m.graph.nodes.size() == 3);
  CHECK(m.graph.nodes[0].name == "n1");
  CHECK(m.graph.nodes[1].name == "n3");  // ready nodes keep the file's order
  Executor exec(m.graph);
  auto out = exec.run({{"x", float_tensor({3}, {-2, 4, -0.0f})}});
  REQUIRE(out.size() == 3);
  CHECK(out[1].data<float>()[0] == -1.0f);   // a = .5 * -2
  CHECK(out[0].data<float>()[0] == -0.01f);  // b = .01 * a
  CHECK(out[2].data<float>()[0] == 1.0f);    // d = -1 * a
  CHECK(out[0].data<float>()[1] == 4.0f);
  CHECK(std::signbit(out[0].data<float>()[2]));  // -0 passes through the chain
}

TEST_CASE("a chain reuses the buffer of a value that dies, never one the caller holds", "[graph]") {
  onnx::ModelProto mp = make_model(13);
  add_input(mp, "x", kF, {4});
  add_output(mp, "z", kF, {4});
  add_node(mp, "LeakyRelu", {"x"}, {"y"});
  add_node(mp, "LeakyRelu", {"y"}, {"z"});
  Executor exec(load(mp).graph);
  Tensor x = float_tensor({4}, {-1, -2, 3, 4});
  const void* x_buf = x.raw();
  auto out = exec.run({{"x", x}});
  CHECK(out[0].raw() != x_buf);  // x is still held here
  CHECK(x.data<float>()[0] == -1.0f);
  Tensor handed = float_tensor({4}, {-1, -2, 3, 4});
  const void* handed_buf = handed.raw();
  std::map<std::string, Tensor> in;
  in["x"] = std::move(handed);
  out = exec.run(std::move(in));
  CHECK(out[0].raw() == handed_buf);  // handed over: computed in place all the way
  CHECK(out[0].data<float>()[0] == Approx(-0.0001f));
}

// Found by the coverage build: no test read an attribute without a type, as files of IR
// version 1 may hold.
TEST_CASE("an attribute without a type takes it from the one value it holds", "[graph]") {
  onnx::ModelProto m = make_model(13);
  add_input(m, "x", kF, {2});
  add_output(m, "y", kF, {2});
  onnx::NodeProto* n = add_node(m, "LeakyRelu", {"x"}, {"y"}, "n");
  add_float_attr(*n, "alpha", 0.25f);
  n->mutable_attribute(0)->clear_type();
  Executor exec(load(m).graph);
  const auto out = exec.run({{"x", float_tensor({2}, {-2, 3})}});
  CHECK(out[0].data<float>()[0] == -0.5f);
  CHECK(out[0].data<float>()[1] == 3.0f);
  n->mutable_attribute(0)->clear_f();  // no type and nothing set
  CHECK_THAT(load_error(m).what(), Contains("attribute 'alpha' has no type and no value"));
}

// Found by a report-only pass hunting silently changed numbers: --print-graph showed a
// Constant's int64 9007199254740993 as 9007199254740992 (through a double).
TEST_CASE("the printed graph shows a one-element tensor attribute as its own type reads back", "[graph]") {
  onnx::ModelProto m = make_model(13);
  add_output(m, "c", onnx::TensorProto::INT64, {});
  onnx::TensorProto t;
  t.set_data_type(onnx::TensorProto::INT64);
  t.add_int64_data(9007199254740993);
  add_tensor_attr(*add_node(m, "Constant", {}, {"c"}, "k"), "value", t);
  CHECK_THAT(format_graph(load(m).graph), Contains("{value=int64[](9007199254740993)}"));
}

TEST_CASE("structural errors are refused at load with the node named", "[graph]") {
  onnx::ModelProto m = make_model(13);
  add_input(m, "x", kF, {3});
  add_output(m, "y", kF, {3});
  add_node(m, "LeakyRelu", {"nowhere"}, {"y"}, "n");
  CHECK_THAT(load_error(m).what(), Contains("node 'n'") && Contains("'nowhere' is not produced"));

  m = make_model(13);
  add_input(m, "x", kF, {3});
  add_output(m, "y", kF, {3});
  add_node(m, "LeakyRelu", {"x"}, {"y"}, "p");
  add_node(m, "LeakyRelu", {"x"}, {"y"}, "q");
  CHECK_THAT(load_error(m).what(), Contains("'y' is produced twice"));

  m = make_model(13);
  add_input(m, "x", kF, {3});
  add_output(m, "y", kF, {3});
  add_node(m, "LeakyRelu", {"z"}, {"y"}, "p");
  add_node(m, "LeakyRelu", {"y"}, {"z"}, "q");
  CHECK_THAT(load_error(m).what(), Contains("cycle"));

  m = make_model(13);
  add_input(m, "x", kF, {3});
  add_output(m, "y", kF, {3});
  add_node(m, "LeakyRelu", {"x"}, {"x"}, "p");
  CHECK_THAT(load_error(m).what(), Contains("'x' is produced twice"));

  m = make_model(13);
  add_input(m, "x", kF, {3});
  add_output(m, "nothing", kF, {3});
  add_node(m, "LeakyRelu", {"x"}, {"y"});
  CHECK_THAT(load_error(m).what(), Contains("graph output 'nothing' is not produced"));

  m = make_model(13);
  add_input(m, "x", kF, {3});
  CHECK_THAT(load_error(m).what(), Contains("no outputs"));

  m = make_model(13);
  m.clear_graph();
  CHECK_THAT(load_error(m).what(), Contains("no graph"));
}

TEST_CASE("garbage and truncated model bytes are refused", "[graph]") {
  const std::string junk = "this is not a model";
  CHECK_THROWS_WITH(load_model_from_bytes(junk.data(), junk.size(), "."), Contains("not a valid ONNX model"));
  const std::string good = fanout_model().SerializeAsString();
  for (size_t cut : {size_t{0}, size_t{1}, good.size() / 2, good.size() - 1}) {
    INFO("cut at " << cut);
    CHECK_THROWS_AS(load_model_from_bytes(good.data(), cut, "."), Error);
  }
}

TEST_CASE("an initializer that is also an input can be overridden", "[graph]") {
  onnx::ModelProto mp = make_model(9);
  add_input(mp, "w", kF, {2});
  add_output(mp, "y", kF, {2});
  add_node(mp, "LeakyRelu", {"w"}, {"y"});
  auto* init = mp.mutable_graph()->add_initializer();
  init->set_name("w");
  init->set_data_type(kF);
  init->add_dims(2);
  init->add_float_data(-100);
  init->add_float_data(5);
  Model m = load(mp);
  CHECK(m.graph.required_inputs().empty());
  Executor exec(m.graph);
  CHECK(exec.run({})[0].data<float>()[0] == -1.0f);
  auto fed = bind_inputs(m.graph, {Feed{"w", 0, float_tensor({2}, {-200, 1}), ""}});
  CHECK(exec.run(fed)[0].data<float>()[0] == -2.0f);
  // The initializer itself was not overwritten by in-place reuse.
  CHECK(exec.run({})[0].data<float>()[0] == -1.0f);
}

TEST_CASE("inputs are checked against the declarations before running", "[graph][bind]") {
  onnx::ModelProto mp = make_model(16);
  add_symbolic_input(mp, "p", kF, {"B", "C"});
  add_symbolic_input(mp, "q", kF, {"B"});
  add_input(mp, "r", kF, {2});
  add_output(mp, "py", kF, {-1, -1});
  add_output(mp, "qy", kF, {-1});
  add_output(mp, "ry", kF, {2});
  add_node(mp, "LeakyRelu", {"p"}, {"py"});
  add_node(mp, "LeakyRelu", {"q"}, {"qy"});
  add_node(mp, "LeakyRelu", {"r"}, {"ry"});
  Model m = load(mp);
  auto bind = [&](std::vector<Feed> feeds) {
    try {
      bind_inputs(m.graph, std::move(feeds));
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::kInput);
      return std::string(e.what());
    }
    return std::string("(bound)");
  };
  auto f = [](const std::string& name, size_t pos, Shape s, DType t = DType::kFloat) {
    return Feed{name, pos, Tensor(t, s), ""};
  };
  CHECK(bind({f("p", 0, {3, 4}), f("q", 0, {3}), f("r", 0, {2})}) == "(bound)");
  CHECK(bind({f("", 0, {3, 4}), f("", 1, {3}), f("", 2, {2})}) == "(bound)");
  CHECK_THAT(bind({f("p", 0, {3, 4}), f("q", 0, {5}), f("r", 0, {2})}), Contains("symbol 'B' is already bound to 3"));
  CHECK_THAT(bind({f("p", 0, {3, 4}), f("q", 0, {3}), f("r", 0, {3})}),
             Contains("dim 0 = 3") && Contains("declares 2"));
  CHECK_THAT(bind({f("p", 0, {3}), f("q", 0, {3}), f("r", 0, {2})}), Contains("rank 1") && Contains("rank 2"));
  CHECK_THAT(bind({f("p", 0, {3, 4}, DType::kDouble), f("q", 0, {3}), f("r", 0, {2})}),
             Contains("double[3,4]") && Contains("declares float[B,C]"));
  CHECK_THAT(bind({f("p", 0, {3, 4}), f("q", 0, {3})}), Contains("missing input 'r'"));
  CHECK_THAT(bind({f("p", 0, {3, 4}), f("q", 0, {3}), f("r", 0, {2}), f("s", 0, {1})}),
             Contains("unknown input 's'") && Contains("p (float[B,C])"));
  CHECK_THAT(bind({f("p", 0, {3, 4}), f("p", 0, {3, 4})}), Contains("'p' is given twice"));
  CHECK_THAT(bind({f("", 0, {3, 4}), f("", 1, {3}), f("", 2, {2}), f("", 3, {2})}),
             Contains("input #3") && Contains("takes 3"));
}
