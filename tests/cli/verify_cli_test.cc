// `onnx-run verify MODEL VALUES...` from the command line: a Conv -> LeakyRelu model built
// with model_builder, values as .pb files; exit codes 0 / 1 / 2 / 3, one stderr line per
// failure, the JSON document and the JUnit file. (tests/python/verify_test.py covers every
// value format and the planted bugs.)
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/streamed_tensor_file.h"
#include "io/tensor_file.h"
#include "support/check_exit.h"
#include "support/model_builder.h"
#include "support/paths.h"
#include "support/process.h"
#include "support/shortcuts.h"
#include "support/tensors.h"

using namespace onnxrun;
using namespace onnxrun::test;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

// x -> Conv 'conv' -> c -> LeakyRelu 'lr' (alpha 0.5) -> y, float; c and y dumped, y with
// element 1 as `y1`.
struct Dumped {
  TempDir d;
  std::string model = d.file("m.onnx");
  explicit Dumped(float y1, const std::string& lr = "lr") {
    onnx::ModelProto m = make_model(13);
    add_input(m, "x", onnx::TensorProto::FLOAT, {1, 1, 2, 2});
    add_output(m, "y", onnx::TensorProto::FLOAT, {1, 1, 2, 2});
    *m.mutable_graph()->add_initializer() = float_tensor("w", {1, 1, 1, 1}, {1.f});
    add_node(m, "Conv", {"x", "w"}, {"c"}, "conv");
    add_float_attr(*add_node(m, "LeakyRelu", {"c"}, {"y"}, lr), "alpha", 0.5f);
    save_model(m, model);
    write_tensor_file(d.file("c.pb"), float_tensor({1, 1, 2, 2}, {-2, -1, 0, 1}), "c");
    write_tensor_file(d.file("y.pb"), float_tensor({1, 1, 2, 2}, {-1, y1, 0, 1}), "y");
  }
  std::vector<std::string> args(std::vector<std::string> more = {}) const {
    std::vector<std::string> a{"verify", model, d.file("c.pb"), d.file("y.pb")};
    a.insert(a.end(), more.begin(), more.end());
    return a;
  }
};

}  // namespace

TEST_CASE("verify: exit 0 when every checked node is exact, Conv named with its reason", "[cli][verify]") {
  const Dumped v(-0.5f);
  const ProcessResult r = run_cli(v.args());
  REQUIRE_EXIT(r, 0);
  CHECK_THAT(r.out, Contains("node 'conv' (Conv): not checked: onnx-run does not run Conv (ai.onnx)"));
  CHECK_THAT(r.out, Contains("node 'lr' (LeakyRelu v6 (6-15)): exact"));
  CHECK_THAT(r.out, Contains("2 nodes: 1 checked (1 exact, 0 differ), 1 not checked"));
}

// Found by an outside tester: a Constant's output, which runtimes rarely dump, was "not in
// VALUES" for the node reading it, so --require-all could never pass on such a dump. It is
// the model's own value, as an initializer is.
TEST_CASE("verify: a Constant's output is the model's own value for the nodes that read it", "[cli][verify]") {
  TempDir d;
  onnx::ModelProto m = make_model(16);
  add_input(m, "x", onnx::TensorProto::FLOAT, {4});
  add_output(m, "y", onnx::TensorProto::FLOAT, {4});
  add_float_attr(*add_node(m, "Constant", {}, {"alpha"}, "c"), "value_float", 0.5f);
  add_node(m, "CastLike", {"alpha", "x"}, {"a"}, "cl");
  add_node(m, "Mul", {"x", "a"}, {"y"}, "mul");
  const std::string model = save_model(m, d.file("m.onnx"));
  write_tensor_file(d.file("x.pb"), float_tensor({4}, {-1, -2, 3, -4}), "x");
  write_tensor_file(d.file("a.pb"), float_tensor({}, {0.5f}), "a");
  write_tensor_file(d.file("y.pb"), float_tensor({4}, {-0.5f, -1, 1.5f, -2}), "y");
  const ProcessResult r =
      run_cli({"verify", model, d.file("x.pb"), d.file("a.pb"), d.file("y.pb"), "--require-all", "--json"});
  CHECK_EXIT(r, 0);  // it exited 1: "not checked (--require-all): node 'cl' (CastLike): not in VALUES: input 'alpha'"
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  CHECK(doc["nodes"][1]["status"] == "exact");
  CHECK(doc["nodes"][1]["inputs"][0]["file"] == "(Constant)");
  // A wrong dump of the CastLike is still found, against the Constant's value.
  write_tensor_file(d.file("a.pb"), float_tensor({}, {0.25f}), "a");
  const ProcessResult wrong = run_cli({"verify", model, d.file("x.pb"), d.file("a.pb"), d.file("y.pb"), "-q"});
  CHECK_EXIT(wrong, 1);
  CHECK_THAT(wrong.err, StartsWith("onnx-run: node 'cl' (CastLike) differs"));
}

// Found by an outside tester: a call of a model function that could not be inlined (here
// recursive) was "domain 'local' is not supported", an operator onnx-run lacks, so
// --require-all passed over the LeakyRelu it wraps.
TEST_CASE("verify --require-all: a model function's call left whole fails it", "[cli][verify]") {
  TempDir d;
  onnx::ModelProto m = make_model(16, {"local"});
  add_input(m, "x", onnx::TensorProto::FLOAT, {2});
  add_output(m, "y", onnx::TensorProto::FLOAT, {2});
  add_output(m, "z", onnx::TensorProto::FLOAT, {2});
  onnx::FunctionProto* f = m.add_functions();
  f->set_name("F");
  f->set_domain("local");
  f->add_input("a");
  f->add_output("b");
  for (const char* domain : {"", "local"}) {
    onnx::OperatorSetIdProto* imp = f->add_opset_import();
    imp->set_domain(domain);
    imp->set_version(domain[0] ? 1 : 16);
  }
  onnx::NodeProto* self = f->add_node();  // F calls itself: never inlined
  self->set_op_type("F");
  self->set_domain("local");
  self->add_input("a");
  self->add_output("b");
  add_node(m, "F", {"x"}, {"y"}, "wrapped")->set_domain("local");
  add_node(m, "LeakyRelu", {"x"}, {"z"}, "plain");
  const std::string model = save_model(m, d.file("m.onnx"));
  write_tensor_file(d.file("x.pb"), float_tensor({2}, {-1, 1}), "x");
  write_tensor_file(d.file("y.pb"), float_tensor({2}, {7, 7}), "y");
  write_tensor_file(d.file("z.pb"), float_tensor({2}, {-0.01f, 1}), "z");
  const std::vector<std::string> args{"verify", model, d.file("x.pb"), d.file("y.pb"), d.file("z.pb")};
  const ProcessResult plain = run_cli(args);
  CHECK_EXIT(plain, 0);
  CHECK_THAT(plain.out, Contains("node 'wrapped' (F): not checked: a call of model function 'local.F' that was not "
                                 "inlined"));
  std::vector<std::string> all = args;
  all.push_back("--require-all");
  const ProcessResult required = run_cli(all);
  CHECK_EXIT(required, 1);  // it exited 0
  CHECK_THAT(required.err, Contains("not checked (--require-all): node 'wrapped' (F)"));
}

// Found by an outside tester: a string value beside the dumped ones (a tokenizer's input),
// read by no node verify checks, made the whole verify exit 3.
TEST_CASE("verify: a value of a type onnx-run reads nowhere fails only the node that reads it", "[cli][verify]") {
  const Dumped v(-0.5f);
  onnx::TensorProto text;
  text.set_name("text");
  text.set_data_type(onnx::TensorProto::STRING);
  text.add_dims(1);
  text.add_string_data("hello");
  write_message(v.d.file("text.pb"), text);
  const ProcessResult r = run_cli({"verify", v.model, v.d.path()});
  CHECK_EXIT(r, 0);  // it exited 3: "text.pb: tensors of type string are not supported"
  CHECK_THAT(r.out, Contains("node 'lr' (LeakyRelu v6 (6-15)): exact"));
  // Read by the node checked: that node is not checked, with the reason.
  text.set_name("y");
  write_message(v.d.file("y.pb"), text);
  const ProcessResult read = run_cli({"verify", v.model, v.d.path(), "--require-all"});
  CHECK_EXIT(read, 1);
  CHECK_THAT(read.out, Contains("node 'lr' (LeakyRelu v6 (6-15)): not checked:") && Contains("string"));
}

// A float16 model run in float32 is what verify exists to catch: a float32 dump of its
// values is not checked, whether the graph says so by its value_info (s and u between
// nodes onnx-run does not run) or by what its operators make of a declared input (a chain
// whose first value was not dumped). Both were "exact", exit 0.
TEST_CASE("verify: a float32 dump of a float16 model is not checked, by value_info or by inference", "[cli][verify]") {
  TempDir d;
  const auto f16 = onnx::TensorProto::FLOAT16;
  write_tensor_file(d.file("s.pb"), float_tensor({4}, {-2, -1, 0, 1}), "s");
  write_tensor_file(d.file("u.pb"), float_tensor({4}, {-0.2f, -0.1f, 0, 1}), "u");  // LeakyRelu 0.1 in float32
  // x -> Relu -> s -> LeakyRelu 'lr' -> u -> Relu -> y, with s and u float16 in value_info.
  onnx::ModelProto declared = make_model(16);
  add_input(declared, "x", f16, {4});
  add_output(declared, "y", f16, {4});
  add_node(declared, "Relu", {"x"}, {"s"}, "pre");
  add_float_attr(*add_node(declared, "LeakyRelu", {"s"}, {"u"}, "lr"), "alpha", 0.1f);
  add_node(declared, "Relu", {"u"}, {"y"}, "post");
  for (const char* v : {"s", "u"}) declare(declared.mutable_graph()->add_value_info(), v, f16, {4});
  // x -> LeakyRelu 'lr1' -> s -> LeakyRelu 'lr' -> u -> LeakyRelu 'lr3' -> y, x not dumped.
  onnx::ModelProto chain = make_model(16);
  add_input(chain, "x", f16, {4});
  add_output(chain, "y", f16, {4});
  add_float_attr(*add_node(chain, "LeakyRelu", {"x"}, {"s"}, "lr1"), "alpha", 0.1f);
  add_float_attr(*add_node(chain, "LeakyRelu", {"s"}, {"u"}, "lr"), "alpha", 0.1f);
  add_float_attr(*add_node(chain, "LeakyRelu", {"u"}, {"y"}, "lr3"), "alpha", 0.1f);
  for (const auto& [name, m] : {std::pair{"declared", &declared}, {"chain", &chain}}) {
    INFO(name);
    const ProcessResult r = run_cli({"verify", save_model(*m, d.file(std::string(name) + ".onnx")), d.file("s.pb"),
                                     d.file("u.pb"), "--require-all"});
    CHECK_EXIT(r, 1);
    CHECK_THAT(r.out, Contains("node 'lr' (LeakyRelu v16 (16+)): not checked: input 's' is float in " + d.file("s.pb") +
                               "; the graph's is float16"));
  }
}

// value_info is what exporters leave behind, often stale: a shape of the batch they traced,
// a type the operators do not make, an entry for a value no node has. None of them stops
// onnx-run's own dump from verifying, and an output of the wrong shape still differs.
TEST_CASE("verify: value_info's stale shapes and types and unused names do not hold a dump back", "[cli][verify]") {
  TempDir d;
  const auto f16 = onnx::TensorProto::FLOAT16;
  onnx::ModelProto m = make_model(16);
  add_input(m, "x", f16, {2, 2});
  add_output(m, "y", f16, {2, 2});
  add_node(m, "LeakyRelu", {"x"}, {"t/1"}, "first");
  add_node(m, "LeakyRelu", {"t/1"}, {"y"}, "second");
  declare(m.mutable_graph()->add_value_info(), "t/1", onnx::TensorProto::FLOAT, {1, 2});  // stale type and shape
  declare(m.mutable_graph()->add_value_info(), "t:1", f16, {2, 2});                       // a value no node has
  const std::string model = save_model(m, d.file("m.onnx")), x = d.file("x.pb");
  write_tensor_file(x, make_tensor<uint16_t>(DType::kFloat16, {2, 2}, {0xbc00, 0x3c00, 0x4000, 0xc000}), "x");
  for (const char* format : {"pb", "npy"}) {
    INFO(format);
    const std::string dump = d.file(std::string("dump_") + format);
    REQUIRE_EXIT(run_cli({model, "-i", "x=[[-1,1],[2,-2]]", "--no-fuse", "--dump-intermediates", dump, "--format",
                          format, "-q"}),
                 0);
    const ProcessResult r = run_cli({"verify", model, x, dump, "--require-all"});
    CHECK_EXIT(r, 0);
    CHECK_THAT(r.out, Contains("2 nodes: 2 checked (2 exact, 0 differ)"));
    // Without values.tsv, t/1's nameless file is found by its name: t:1 shares it, but no node has t:1.
    if (std::string(format) == "npy") {
      std::filesystem::remove(dump + "/values.tsv");
      CHECK_EXIT(run_cli({"verify", model, x, dump, "--require-all"}), 0);
    }
  }
  // t/1 dumped flat, [4] for [2,2] (value_info says [1,2]): the first node differs, as
  // before value_info was read (it was "not checked").
  write_tensor_file(d.file("t_flat.pb"), make_tensor<uint16_t>(DType::kFloat16, {4}, {0xb800, 0x3c00, 0x4000, 0xbc00}),
                    "t/1");
  const ProcessResult flat = run_cli({"verify", model, x, d.file("t_flat.pb")});
  CHECK_EXIT(flat, 1);
  CHECK_THAT(flat.out, Contains("node 'first' (LeakyRelu v16 (16+)): differs"));
}

// A LeakyRelu in an If's branch is a node onnx-run runs that verify does not reach:
// --require-all passed with it unchecked, the If named only as an operator onnx-run lacks.
TEST_CASE("verify --require-all: nodes onnx-run runs inside an If's branches are not checked, and say so",
          "[cli][verify]") {
  const Dumped v(-0.5f);
  onnx::ModelProto m = make_model(16);
  add_input(m, "c", onnx::TensorProto::FLOAT, {1, 1, 2, 2});
  add_input(m, "cond", onnx::TensorProto::BOOL, {});
  add_output(m, "y", onnx::TensorProto::FLOAT, {1, 1, 2, 2});
  add_output(m, "z", onnx::TensorProto::FLOAT, {1, 1, 2, 2});
  add_float_attr(*add_node(m, "LeakyRelu", {"c"}, {"y"}, "lr"), "alpha", 0.5f);
  onnx::NodeProto* branch_if = add_node(m, "If", {"cond"}, {"z"}, "if");
  for (const char* branch : {"then_branch", "else_branch"}) {
    onnx::AttributeProto* a = branch_if->add_attribute();
    a->set_name(branch);
    a->set_type(onnx::AttributeProto::GRAPH);
    onnx::GraphProto* g = a->mutable_g();
    *g->add_node() = make_node("LeakyRelu", {"c"}, {"z_in"}, "", std::string(branch) + "_lr");
    declare(g->add_output(), "z_in", onnx::TensorProto::FLOAT, {1, 1, 2, 2});
  }
  const std::string model = save_model(m, v.d.file("if.onnx"));
  write_tensor_file(v.d.file("cond.pb"), make_tensor<uint8_t>(DType::kBool, {}, {1}), "cond");
  const std::vector<std::string> args{"verify", model, v.d.file("c.pb"), v.d.file("y.pb"), v.d.file("cond.pb")};
  const std::string said =
      "node 'if' (If): not checked: onnx-run does not run If (ai.onnx); its subgraphs hold 2 nodes onnx-run runs "
      "(LeakyRelu), which verify does not reach";
  const ProcessResult plain = run_cli(args);
  CHECK_EXIT(plain, 0);  // lr is exact, and no more is asked
  CHECK_THAT(plain.out, Contains(said));
  std::vector<std::string> all = args;
  all.push_back("--require-all");
  const ProcessResult r = run_cli(all);
  CHECK_EXIT(r, 1);
  CHECK_THAT(r.err, Contains("1 node onnx-run runs not checked (--require-all): node 'if' (If)"));
  const ProcessResult plan = run_cli({"info", model, "--verify"});
  CHECK_THAT(plan.out, Contains("verify would check 1 of 2 nodes") && Contains(said));
}

// Found by an outside tester: the JUnit name was split at the last '/' of "OP/NODE", so a
// node named as PyTorch names them was the test case "LeakyRelu" of class
// "LeakyRelu//layer1/act".
TEST_CASE("verify --junit: the class is the operator and the name the node's whole name", "[cli][verify]") {
  const Dumped v(-0.5f, "/layer1/act/LeakyRelu");
  REQUIRE_EXIT(run_cli(v.args({"--junit", v.d.file("r.xml")})), 0);
  CHECK_THAT(read_file(v.d.file("r.xml")),
             Contains("<testcase classname=\"LeakyRelu\" name=\"/layer1/act/LeakyRelu\""));
}

TEST_CASE("verify: a differing node is exit 1, one stderr line naming it, and JSON and JUnit say the same",
          "[cli][verify]") {
  const Dumped v(-0.49999997f);  // one ULP from -0.5
  const ProcessResult r = run_cli(v.args({"--junit", v.d.file("r.xml")}));
  REQUIRE_EXIT(r, 1);
  CHECK_THAT(r.err, StartsWith("onnx-run: node 'lr' (LeakyRelu) differs"));
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK_THAT(r.out, Contains("max ulp 1"));
  CHECK_THAT(r.out, Contains("c[0,0,0,1] = -1 (0xbf800000)"));
  CHECK_THAT(r.out, Contains("first differing node: 'lr' (LeakyRelu)"));
  const std::string junit = read_file(v.d.file("r.xml"));
  CHECK_THAT(junit, Contains("<testcase classname=\"LeakyRelu\" name=\"lr\""));
  CHECK_THAT(junit, Contains("<failure"));
  CHECK_THAT(junit, !Contains("name=\"conv\""));
  // The rules `onnx-run test --junit` validates against (tests/cli/junit_report_test.cc).
  const std::string xsd = std::string(ONNXRUN_SOURCE_DIR) + "/tests/data/junit/junit-xunit-rules.xsd";
  CHECK_EXIT(run_process({"/usr/bin/xmllint", "--noout", "--schema", xsd, v.d.file("r.xml")}), 0);

  const nlohmann::json j = nlohmann::json::parse(run_cli(v.args({"--json"})).out);
  CHECK(j["first_differing"] == "lr");
  CHECK(j["nodes"][1]["status"] == "differs");
  CHECK(j["nodes"][1]["max_ulp"] == 1);
  CHECK(j["nodes"][0]["status"] == "not_checked");
  CHECK_EXIT(run_cli(v.args({"--max-ulp", "1", "-q"})), 0);
  CHECK_EXIT(run_cli(v.args({"--max-ulp", "y:1", "-q"})), 0);
}

TEST_CASE("verify: not one node checked is exit 1, one stderr line, in text, JSON and JUnit", "[cli][verify]") {
  const Dumped v(-0.5f);
  // c and y as double where the graph has float; then names that are none of the graph's.
  write_tensor_file(v.d.file("c64.pb"), make_tensor<double>(DType::kDouble, {1, 1, 2, 2}, {-2, -1, 0, 1}), "c");
  write_tensor_file(v.d.file("y64.pb"), make_tensor<double>(DType::kDouble, {1, 1, 2, 2}, {-1, -.5, 0, 1}), "y");
  const std::vector<std::vector<std::string>> runs = {
      {"verify", v.model, v.d.file("c64.pb"), v.d.file("y64.pb")},
      {"verify", v.model, v.d.file("cc.pb"), v.d.file("y.pb")},
      {"verify", v.model, v.d.file("cc.pb"), v.d.file("y.pb"), "--require-all"},
  };
  write_tensor_file(v.d.file("cc.pb"), float_tensor({1, 1, 2, 2}, {-2, -1, 0, 1}), "cc");
  for (const auto& args : runs) {
    for (const std::vector<std::string>& door :
         {std::vector<std::string>{}, {"-q"}, {"--json"}, {"--junit", v.d.file("r.xml")}}) {
      std::vector<std::string> a = args;
      a.insert(a.end(), door.begin(), door.end());
      const ProcessResult r = run_cli(a);
      CHECK_EXIT(r, 1);  // it exited 0 without --require-all: nothing verified, "passed"
      CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
      CHECK_THAT(r.err, StartsWith("onnx-run: no node could be checked: of 2 nodes, 1 of an operator onnx-run does "
                                   "not run, 1 whose values VALUES lacks or holds in another type or shape; node "
                                   "'lr' (LeakyRelu): "));
      if (door.empty()) CHECK_THAT(r.out, Contains("2 nodes: 0 checked (0 exact, 0 differ), 2 not checked"));
      if (door == std::vector<std::string>{"--json"}) CHECK(nlohmann::json::parse(r.out)["passed"] == false);
    }
    const std::string junit = read_file(v.d.file("r.xml"));
    CHECK_THAT(junit, Contains("<testcase classname=\"verify\" name=\"no node checked\""));
    CHECK_THAT(junit, Contains("<error") && Contains("no node could be checked"));
  }
  CHECK_THAT(run_cli(runs[0]).err, Contains("output 'y' is double"));
}

TEST_CASE("verify: usage errors are exit 2, unreadable values exit 3", "[cli][verify]") {
  const Dumped v(-0.5f);
  CHECK_EXIT(run_cli({"verify", v.model}), 2);  // no VALUES
  CHECK_EXIT(run_cli({"verify", v.model, v.d.file("nowhere")}), 2);
  CHECK_EXIT(run_cli(v.args({"--max-ulp", "nope:1"})), 2);
  write_file(v.d.file("bad.pb"), "\xff\xff\xff");
  const ProcessResult r = run_cli({"verify", v.model, v.d.file("bad.pb")});
  CHECK_EXIT(r, 3);
  CHECK_THAT(r.err, StartsWith("onnx-run: "));
}

TEST_CASE("info --verify lists what verify would check and the values it needs", "[cli][verify]") {
  const Dumped v(-0.5f);
  const ProcessResult r = run_cli({"info", v.model, "--verify"});
  REQUIRE_EXIT(r, 0);
  CHECK_THAT(r.out, Contains("verify would check 1 of 2 nodes"));
  CHECK_THAT(r.out, Contains("node 'lr' (LeakyRelu v6 (6-15)): checked given input c and output y"));
  CHECK_THAT(r.out, Contains("values it needs: c, y"));
}

TEST_CASE("verify: onnx-run's value is expected, the dump's got, with the errors compare gives for that pair",
          "[cli][verify]") {
  // lr gives {-1, -0.5, 0, 1}; the dump says -1 for -0.5: rel err 0.5 / 0.5 = 1.
  const Dumped v(-1.0f);
  const ProcessResult r = run_cli(v.args());
  REQUIRE_EXIT(r, 1);
  CHECK_THAT(r.out, Contains("expected -0.5 (0xbf000000), got -1 (0xbf800000), abs err 0.5, rel err 1, ulp"));
  // And 0.25 for 0: against an expected 0, an infinite relative error. `compare DEF DUMP`
  // (A expected) gives the same comparison in every verdict mode.
  write_tensor_file(v.d.file("y.pb"), float_tensor({1, 1, 2, 2}, {-1, -1, 0.25f, 1}), "y");
  write_tensor_file(v.d.file("def.pb"), float_tensor({1, 1, 2, 2}, {-1, -0.5f, 0, 1}), "y");
  for (const std::vector<std::string>& tol :
       {std::vector<std::string>{"--exact"}, {"--max-ulp", "1"}, {"--atol", "0", "--rtol", "0"}}) {
    // verify's atol and rtol are 0 where not given (they show in the JSON and the needed atol).
    std::vector<std::string> compare{"compare", v.d.file("def.pb"), v.d.file("y.pb"), "--json", "--atol", "0", "--rtol",
                                     "0"};
    compare.insert(compare.end(), tol.begin(), tol.end());
    std::vector<std::string> more{"--json"};
    more.insert(more.end(), tol.begin(), tol.end());
    const ProcessResult vr = run_cli(v.args(more)), cr = run_cli(compare);
    INFO(tol.front() << "\nverify: " << vr.out << "\ncompare: " << cr.out);
    REQUIRE_EXIT(vr, 1);
    REQUIRE_EXIT(cr, 1);
    const nlohmann::json got = nlohmann::json::parse(vr.out)["nodes"][1]["outputs"][0]["comparison"];
    const nlohmann::json want = nlohmann::json::parse(cr.out)["values"][0]["comparison"];
    CHECK(got == want);
    CHECK(got["errors"]["max_rel_err"] == want["errors"]["max_rel_err"]);
    CHECK(got["needed_rtol"] == want["needed_rtol"]);
  }
}

TEST_CASE("verify: the worst element's inputs include those broadcast to it, at their own index", "[cli][verify]") {
  // m = a[3,1] * b[4], its dump 1 off at [2,3]: a[2,0] and b[3] made it. The line
  // named no input at all where an input was broadcast (a Where showed its condition only).
  TempDir d;
  onnx::ModelProto m = make_model(13);
  add_input(m, "a", onnx::TensorProto::FLOAT, {3, 1});
  add_input(m, "b", onnx::TensorProto::FLOAT, {4});
  add_input(m, "c", onnx::TensorProto::BOOL, {1, 4});
  add_output(m, "w", onnx::TensorProto::FLOAT, {3, 4});
  add_node(m, "Mul", {"a", "b"}, {"m"}, "mul");
  add_node(m, "Where", {"c", "m", "a"}, {"w"}, "where");
  save_model(m, d.file("m.onnx"));
  write_tensor_file(d.file("a.pb"), float_tensor({3, 1}, {1, 2, 3}), "a");
  write_tensor_file(d.file("b.pb"), float_tensor({4}, {1, 2, 3, 4}), "b");
  write_tensor_file(d.file("c.pb"), make_tensor<uint8_t>(DType::kBool, {1, 4}, {1, 1, 1, 0}), "c");
  write_tensor_file(d.file("m.pb"), float_tensor({3, 4}, {1, 2, 3, 4, 2, 4, 6, 8, 3, 6, 9, 13}), "m");
  write_tensor_file(d.file("w.pb"), float_tensor({3, 4}, {1, 2, 3, 1, 2, 4, 6, 2, 3, 6, 9, 3.5f}), "w");
  const std::vector<std::string> args{"verify",       d.file("m.onnx"), d.file("a.pb"), d.file("b.pb"),
                                      d.file("c.pb"), d.file("m.pb"),   d.file("w.pb")};
  const ProcessResult r = run_cli(args);
  CHECK_EXIT(r, 1);
  CHECK_THAT(r.out, Contains("    at the worst element: a[2,0] = 3 (0x40400000), b[3] = 4 (0x40800000)\n"));
  CHECK_THAT(r.out, Contains("    at the worst element: c[0,3] = False, m[2,3] = 13 (0x41500000), a[2,0] = 3 "
                             "(0x40400000)\n"));
  std::vector<std::string> json_args = args;
  json_args.push_back("--json");
  const nlohmann::json j = nlohmann::json::parse(run_cli(json_args).out);
  CHECK(j["nodes"][0]["outputs"][0]["worst_inputs"] ==
        nlohmann::json({"a[2,0] = 3 (0x40400000)", "b[3] = 4 (0x40800000)"}));
}

TEST_CASE("verify: under Mul-6's legacy broadcast, the worst element's input is the one its axis picks",
          "[cli][verify]") {
  // b[2] along axis 0 of a[2,3]: element [1,2] reads b[1], where numpy's rule would read b[2].
  TempDir d;
  onnx::ModelProto m = make_model(6);
  add_input(m, "a", onnx::TensorProto::FLOAT, {2, 3});
  add_input(m, "b", onnx::TensorProto::FLOAT, {2});
  add_output(m, "m", onnx::TensorProto::FLOAT, {2, 3});
  onnx::NodeProto* mul = add_node(m, "Mul", {"a", "b"}, {"m"}, "mul");
  add_int_attr(*mul, "broadcast", 1);
  add_int_attr(*mul, "axis", 0);
  save_model(m, d.file("m.onnx"));
  write_tensor_file(d.file("a.pb"), float_tensor({2, 3}, {1, 2, 3, 4, 5, 6}), "a");
  write_tensor_file(d.file("b.pb"), float_tensor({2}, {10, 100}), "b");
  write_tensor_file(d.file("m.pb"), float_tensor({2, 3}, {10, 20, 30, 400, 500, 601}), "m");
  const ProcessResult r = run_cli({"verify", d.file("m.onnx"), d.file("a.pb"), d.file("b.pb"), d.file("m.pb")});
  CHECK_EXIT(r, 1);
  CHECK_THAT(r.out, Contains("    at the worst element: a[1,2] = 6 (0x40c00000), b[1] = 100 (0x42c80000)\n"));
}

namespace {

// x -> LeakyRelu 'ly' -> y and x -> LeakyRelu 'lz' -> z (alpha 0.5), float; x, y and z
// dumped as .pb files, y and z each `y_ulps` / `z_ulps` ULPs off in every element (towards zero).
struct TwoOutputs {
  TempDir d;
  std::string model = d.file("m.onnx");
  TwoOutputs(int y_ulps, int z_ulps) {
    onnx::ModelProto m = make_model(16);
    add_input(m, "x", onnx::TensorProto::FLOAT, {4});
    add_output(m, "y", onnx::TensorProto::FLOAT, {4});
    add_output(m, "z", onnx::TensorProto::FLOAT, {4});
    add_float_attr(*add_node(m, "LeakyRelu", {"x"}, {"y"}, "ly"), "alpha", 0.5f);
    add_float_attr(*add_node(m, "LeakyRelu", {"x"}, {"z"}, "lz"), "alpha", 0.5f);
    save_model(m, model);
    write_tensor_file(d.file("x.pb"), float_tensor({4}, {-1, -2, -4, -8}), "x");
    write_tensor_file(d.file("y.pb"), float_tensor({4}, off_by(y_ulps)), "y");
    write_tensor_file(d.file("z.pb"), float_tensor({4}, off_by(z_ulps)), "z");
  }
  static std::vector<float> off_by(int ulps) {
    std::vector<float> v{-0.5f, -1, -2, -4};
    for (float& e : v)
      for (int k = 0; k < ulps; ++k) e = std::nextafter(e, 0.f);
    return v;
  }
  ProcessResult run(std::vector<std::string> more) const {
    std::vector<std::string> a{"verify", model, d.path()};
    a.insert(a.end(), more.begin(), more.end());
    return run_cli(a);
  }
};

}  // namespace

TEST_CASE("verify: a tolerance not given stays exact, not compare's atol 1e-7 / rtol 1e-3", "[cli][verify]") {
  const TwoOutputs v(1, 0);  // y one ULP off everywhere: a relative error of 6e-8
  for (const std::vector<std::string>& tol : {std::vector<std::string>{"--atol", "0"},
                                              {"--rtol", "0"},
                                              {"--check-error-stat", "median"},
                                              {"--check-error-stat", "mean"},
                                              {"--atol", "z:0", "--rtol", "z:0"},
                                              {"--atol", "z:1"}}) {
    const ProcessResult r = v.run(tol);
    INFO(tol.front() << " " << tol.back() << "\n" << r.out << r.err);
    CHECK_EXIT(r, 1);  // exit 0: rtol 1e-3 came in with the one given, or y left exact for z's sake
    CHECK_THAT(r.err, StartsWith("onnx-run: node 'ly' (LeakyRelu) differs"));
  }
  // The statistic is judged, under atol 0 and rtol 0: a median of the errors 0 passes.
  write_tensor_file(v.d.file("y.pb"), float_tensor({4}, {7, -1, -2, -4}), "y");
  CHECK_EXIT(v.run({"--check-error-stat", "median"}), 0);
  CHECK_EXIT(v.run({"--check-error-stat", "mean"}), 1);
  CHECK_EXIT(v.run({"--check-error-stat", "median", "--atol", "y:0", "--rtol", "y:0"}), 0);
  CHECK_EXIT(v.run({"--atol", "y:10"}), 0);
  CHECK_EXIT(v.run({"--atol", "10"}), 0);
}

TEST_CASE("verify: an output's own tolerance wins over a global one of the other kind, and --exact takes none",
          "[cli][verify]") {
  const TwoOutputs v(0, 3);  // z three ULPs off
  CHECK_EXIT(v.run({"--max-ulp", "5"}), 0);
  const ProcessResult r = v.run({"--max-ulp", "5", "--atol", "z:0", "--rtol", "z:0"});
  CHECK_EXIT(r, 1);  // exit 0: the global --max-ulp judged z in spite of its own atol and rtol
  CHECK_THAT(r.err, StartsWith("onnx-run: node 'lz' (LeakyRelu) differs"));
  CHECK_EXIT(v.run({"--max-ulp", "5", "--atol", "z:1"}), 0);
  CHECK_EXIT(v.run({"--atol", "1", "--max-ulp", "z:2"}), 1);
  CHECK_EXIT(v.run({"--atol", "1", "--max-ulp", "z:3"}), 0);
  for (const std::vector<std::string>& both : {std::vector<std::string>{"--exact", "--atol", "z:1"},
                                               {"--exact", "--rtol", "0.1"},
                                               {"--exact", "--max-ulp", "z:5"}}) {
    const ProcessResult u = v.run(both);
    INFO(both.back());
    CHECK_EXIT(u, 2);  // --exact --atol z:1 dropped z's tolerance silently
    CHECK(std::count(u.err.begin(), u.err.end(), '\n') == 1);
    CHECK_THAT(u.err, Contains("--exact and --"));
    CHECK(u.out.empty());
  }
}

TEST_CASE("verify: a node whose output has no name is not checked, with the reason", "[cli][verify]") {
  // It was "exact", and the run passed even with --require-all, with nothing compared.
  TempDir d;
  onnx::ModelProto m = make_model(16);
  add_input(m, "x", onnx::TensorProto::FLOAT, {2});
  add_output(m, "x", onnx::TensorProto::FLOAT, {2});
  add_float_attr(*add_node(m, "LeakyRelu", {"x"}, {""}, "lr"), "alpha", 0.5f);
  save_model(m, d.file("m.onnx"));
  write_tensor_file(d.file("x.pb"), float_tensor({2}, {-1, 2}), "x");
  for (const std::vector<std::string>& more : {std::vector<std::string>{}, {"--require-all"}}) {
    std::vector<std::string> args{"verify", d.file("m.onnx"), d.file("x.pb")};
    args.insert(args.end(), more.begin(), more.end());
    const ProcessResult r = run_cli(args);
    CHECK_EXIT(r, 1);
    CHECK_THAT(r.out, Contains("node 'lr' (LeakyRelu v16 (16+)): not checked: output 0 has no name: nothing to "
                               "compare it with\n"));
    CHECK_THAT(r.err, StartsWith("onnx-run: no node could be checked"));
    args.push_back("--json");
    CHECK(nlohmann::json::parse(run_cli(args).out)["passed"] == false);
  }
}

TEST_CASE("verify: Constant nodes alone checked are no pass: they read nothing", "[cli][verify]") {
  // Constant 'c' -> k -> LeakyRelu 'lr' -> y; the dump holds k, not y.
  TempDir d;
  onnx::ModelProto m = make_model(16);
  add_output(m, "y", onnx::TensorProto::FLOAT, {2});
  add_tensor_attr(*add_node(m, "Constant", {}, {"k"}, "c"), "value", float_tensor("kv", {2}, {-1, 2}));
  add_float_attr(*add_node(m, "LeakyRelu", {"k"}, {"y"}, "lr"), "alpha", 0.5f);
  save_model(m, d.file("m.onnx"));
  write_tensor_file(d.file("k.pb"), float_tensor({2}, {-1, 2}), "k");
  const std::string xml = d.file("r.xml");
  for (const std::vector<std::string>& door :
       {std::vector<std::string>{}, {"-q"}, {"--json"}, {"--junit", xml}, {"--require-all"}}) {
    std::vector<std::string> args{"verify", d.file("m.onnx"), d.file("k.pb")};
    args.insert(args.end(), door.begin(), door.end());
    const ProcessResult r = run_cli(args);
    INFO(r.out);
    CHECK_EXIT(r, 1);  // exit 0: the Constant's check passed for a verified model
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK_THAT(r.err, StartsWith("onnx-run: no node could be checked: of 2 nodes, 1 that reads no value (a Constant "
                                 "does not count), 1 whose values VALUES lacks or holds in another type or shape; "
                                 "node 'lr' (LeakyRelu): not in VALUES: output 'y'\n"));
    if (door.empty()) CHECK_THAT(r.out, Contains("node 'c' (Constant v13 (13-18)): exact\n"));
    if (door == std::vector<std::string>{"--json"}) CHECK(nlohmann::json::parse(r.out)["passed"] == false);
  }
  CHECK_THAT(read_file(xml), Contains("<testcase classname=\"verify\" name=\"no node checked\""));
  // With y dumped, the LeakyRelu is checked: a pass.
  write_tensor_file(d.file("y.pb"), float_tensor({2}, {-0.5f, 2}), "y");
  CHECK_EXIT(run_cli({"verify", d.file("m.onnx"), d.file("k.pb"), d.file("y.pb")}), 0);
}

TEST_CASE("verify: a folder holding one value twice is exit 3, one line naming both files", "[cli][verify]") {
  const TwoOutputs v(0, 0);
  write_npy_file(v.d.file("y.npy"), float_tensor({4}, {7, -1, -2, -4}));
  const ProcessResult r = v.run({});
  CHECK_EXIT(r, 3);  // exit 0: y.pb was taken, y.npy never looked at
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK_THAT(r.err, StartsWith("onnx-run: " + v.d.path() + ": holds 'y' twice: ") && Contains(v.d.file("y.npy")) &&
                        Contains(v.d.file("y.pb")));
  CHECK(r.out.empty());
}

TEST_CASE("verify: a dump file that records another value's name does not stand for this one", "[cli][verify]") {
  // x -> 'l1' -> t/1 and x -> 'l2' -> t_1; t/1 never dumped, t_1.pb says 't_1', whose
  // --dump-intermediates file name t/1 has: l1 was "exact" on t_1's value.
  TempDir d;
  onnx::ModelProto m = make_model(16);
  add_input(m, "x", onnx::TensorProto::FLOAT, {2});
  add_output(m, "t_1", onnx::TensorProto::FLOAT, {2});
  add_output(m, "t/1", onnx::TensorProto::FLOAT, {2});
  add_float_attr(*add_node(m, "LeakyRelu", {"x"}, {"t/1"}, "l1"), "alpha", 0.5f);
  add_float_attr(*add_node(m, "LeakyRelu", {"x"}, {"t_1"}, "l2"), "alpha", 0.5f);
  save_model(m, d.file("m.onnx"));
  const std::string v = d.file("v");
  std::filesystem::create_directory(v);
  write_tensor_file(v + "/x.pb", float_tensor({2}, {-1, 2}), "x");
  write_tensor_file(v + "/t_1.pb", float_tensor({2}, {-0.5f, 2}), "t_1");
  const ProcessResult r = run_cli({"verify", d.file("m.onnx"), v, "--require-all"});
  CHECK_EXIT(r, 1);
  CHECK_THAT(r.out, Contains("node 'l1' (LeakyRelu v16 (16+)): not checked: not in VALUES: output 't/1'\n"));
  CHECK_THAT(r.out, Contains("node 'l2' (LeakyRelu v16 (16+)): exact\n"));
  CHECK_THAT(r.err, Contains("1 node onnx-run runs not checked (--require-all): node 'l1'"));
  // Files that record no name (.npy): t_1.npy is t_1's, by its own name, and so not t/1's
  // by the file name t/1 would have (it stood for both, and --require-all passed).
  const std::string n = d.file("n");
  std::filesystem::create_directory(n);
  write_npy_file(n + "/x.npy", float_tensor({2}, {-1, 2}));
  write_npy_file(n + "/t_1.npy", float_tensor({2}, {-0.5f, 2}));
  const ProcessResult unnamed = run_cli({"verify", d.file("m.onnx"), n, "--require-all"});
  CHECK_EXIT(unnamed, 1);
  CHECK_THAT(unnamed.out, Contains("node 'l1' (LeakyRelu v16 (16+)): not checked: not in VALUES: output 't/1'\n"));
  CHECK_THAT(unnamed.out, Contains("node 'l2' (LeakyRelu v16 (16+)): exact\n"));
}

TEST_CASE("verify: a newline in a node's, a value's or a file's name is escaped, and forges no line", "[cli][verify]") {
  // A node named "lr\nnode 'fake' (LeakyRelu v16 (16+)): exact" printed a second node line.
  const std::string node = "lr\nnode 'fake' (LeakyRelu v16 (16+)): exact", y = "y\nnode 'y' (Mul): exact";
  TempDir d;
  onnx::ModelProto m = make_model(16);
  add_input(m, "x", onnx::TensorProto::FLOAT, {2});
  add_output(m, y, onnx::TensorProto::FLOAT, {2});
  add_float_attr(*add_node(m, "LeakyRelu", {"x"}, {y}, node), "alpha", 0.5f);
  save_model(m, d.file("m.onnx"));
  write_tensor_file(d.file("x.pb"), float_tensor({2}, {-1, 2}), "x");
  const std::string y_file = d.file("y\nnode 'f' (Mul): exact.pb");
  write_tensor_file(y_file, float_tensor({2}, {-0.25f, 2}), y);  // differs: the output's line shows y and its file
  const auto node_lines = [](const std::string& out) {
    size_t n = 0;
    for (size_t at = 0; (at = out.find("\nnode ", at)) != std::string::npos; ++at) ++n;
    return n;
  };
  for (const std::string door : {"", "-q"}) {
    std::vector<std::string> args{"verify", d.file("m.onnx"), d.file("x.pb"), y_file};
    if (!door.empty()) args.push_back(door);
    const ProcessResult r = run_cli(args);
    INFO(r.out);
    CHECK_EXIT(r, 1);
    CHECK(node_lines("\n" + r.out) == 1);
    CHECK_THAT(r.out, Contains("node 'lr\\x0anode 'fake' (LeakyRelu v16 (16+)): exact' (LeakyRelu v16 (16+)): "
                               "differs (y\\x0anode 'y' (Mul): exact: "));
    CHECK_THAT(r.out, Contains("  y\\x0anode 'y' (Mul): exact (" + d.path() + "/y\\x0anode 'f' (Mul): exact.pb): "));
    CHECK_THAT(r.out, Contains("; first differing node: 'lr\\x0anode 'fake'"));
    if (door.empty()) CHECK_THAT(r.out, Contains("/y\\x0anode 'f' (Mul): exact.pb (2 values)\n"));
  }
  const ProcessResult info = run_cli({"info", d.file("m.onnx"), "--verify"});
  CHECK(node_lines("\n" + info.out) == 0);
  CHECK_THAT(info.out, Contains("  node 'lr\\x0anode 'fake' (LeakyRelu v16 (16+)): exact' (LeakyRelu v16 (16+)): "
                                "checked given input x and output y\\x0anode 'y' (Mul): exact\n"));
  CHECK_THAT(info.out, Contains("values it needs: x, y\\x0anode 'y' (Mul): exact\n"));
}

TEST_CASE("verify: --max-ulp passes no wrong bool", "[cli][verify]") {
  // x -> Less 'less' (against 0) -> y, bool, the dump wrong at [1]: --max-ulp 1 passed it.
  TempDir d;
  onnx::ModelProto m = make_model(13);
  add_input(m, "x", onnx::TensorProto::FLOAT, {4});
  add_output(m, "y", onnx::TensorProto::BOOL, {4});
  *m.mutable_graph()->add_initializer() = float_tensor("zero", {}, {0.f});
  add_node(m, "Less", {"x", "zero"}, {"y"}, "less");
  const std::string model = save_model(m, d.file("m.onnx"));
  write_tensor_file(d.file("x.pb"), float_tensor({4}, {-1, 2, -3, 4}), "x");
  write_tensor_file(d.file("y.pb"), make_tensor<uint8_t>(DType::kBool, {4}, {1, 1, 1, 0}), "y");
  for (const char* bound : {"1", "y:1", "1000"}) {
    INFO("--max-ulp " << bound);
    const ProcessResult r = run_cli({"verify", model, d.file("x.pb"), d.file("y.pb"), "--max-ulp", bound});
    CHECK_EXIT(r, 1);
    CHECK_THAT(r.err, StartsWith("onnx-run: node 'less' (Less) differs"));
    CHECK_THAT(r.out, Contains("no tolerance passes it"));
  }
}

TEST_CASE("verify: a dump folder's tensor file that values.tsv does not list is a value too", "[cli][verify]") {
  // x -> h -> y dumped, then values.tsv left without h's line: h.pb was skipped, and both
  // nodes went unchecked.
  TempDir d;
  onnx::ModelProto m = make_model(16);
  add_input(m, "x", onnx::TensorProto::FLOAT, {2});
  add_output(m, "y", onnx::TensorProto::FLOAT, {2});
  add_node(m, "LeakyRelu", {"x"}, {"h"}, "first");
  add_node(m, "LeakyRelu", {"h"}, {"y"}, "second");
  const std::string model = save_model(m, d.file("m.onnx")), dump = d.file("dump");
  REQUIRE_EXIT(run_cli({model, "-i", "x=[-1,1]", "--no-fuse", "--dump-intermediates", dump, "-q"}), 0);
  REQUIRE(read_file(dump + "/values.tsv") == "h.pb\th\ny.pb\ty\n");
  write_file(dump + "/values.tsv", "y.pb\ty\n");
  const ProcessResult r = run_cli({"verify", model, dump, "--json"});
  CHECK_EXIT(r, 0);
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  CHECK(doc["values"] == 2);
  REQUIRE(doc["nodes"].size() == 2);
  CHECK(doc["nodes"][1]["status"] == "exact");
  CHECK(doc["nodes"][1]["inputs"][0]["file"] == dump + "/h.pb");
  CHECK_THAT(run_cli({"verify", model, dump}).out, Contains("node 'second' (LeakyRelu v16 (16+)): exact"));
}
