// The command line of issue 7: numpy files, literal and random inputs, readable and JSON
// output, intermediate dumps, `info`, help and suggestions. Each bad case checks the
// one-line error, the exit code and that nothing was written.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/element.h"
#include "io/npy.h"
#include "io/npz.h"
#include "io/streamed_tensor_file.h"
#include "io/tensor_file.h"
#include "support/check_exit.h"
#include "support/model_builder.h"
#include "support/paths.h"
#include "support/process.h"
#include "support/shortcuts.h"
#include "support/tensor_bytes.h"
#include "support/tensors.h"

using namespace onnxrun;
using nlohmann::json;
using onnxrun::test::float_tensor;
using onnxrun::test::run_cli;
using onnxrun::test::TempDir;
namespace fs = std::filesystem;

namespace {
std::string quick(const std::string& name) { return onnxrun::test::testdata_dir() + "/quick/" + name; }

size_t lines(const std::string& s) {
  size_t n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

std::vector<float> floats_of(const Tensor& t) {
  std::vector<float> v;
  for (int64_t k = 0; k < t.numel(); ++k) v.push_back(static_cast<float>(element_as_double(t, k)));
  return v;
}
}  // namespace

TEST_CASE("run on a literal list, shaped by nesting or by --shape", "[cli][quick]") {
  TempDir out;
  auto r = run_cli({quick("leaky_nxm.onnx"), "-i", "x=[[-2,0,4],[1,-8,3]]", "-o", out.path(), "--format", "npy"});
  REQUIRE_EXIT(r, 0);
  CHECK(r.err.empty());
  CHECK_THAT(r.out, Catch::Contains("input 'x': float[2,3] from literal"));
  CHECK_THAT(r.out, Catch::Contains("output 'y': float[2,3]\n  min -4 max 4 mean 0.5 std 2.62996 nan 0 inf 0"));
  CHECK_THAT(r.out, Catch::Contains("[[-1.  0.  4.]\n [ 1. -4.  3.]]"));
  const Tensor y = read_npy_file(out.file("output_0.npy"));
  CHECK(y.shape() == Shape{2, 3});
  CHECK(floats_of(y) == std::vector<float>{-1, 0, 4, 1, -4, 3});

  r = run_cli({quick("leaky_nxm.onnx"), "-i", "x=[1,-2,3,-4]", "--shape", "x=2,2", "--json"});
  REQUIRE_EXIT(r, 0);
  CHECK(json::parse(r.out)["outputs"][0]["values"] == json::parse("[[1, -1], [3, -2]]"));

  // Positional literal, typed by the declared input (float16 rounds once).
  r = run_cli({quick("leaky_float16.onnx"), "-i", "[0.1,-1]"});
  REQUIRE_EXIT(r, 0);
  CHECK_THAT(r.out, Catch::Contains("input 'x': float16[2]"));
  CHECK_THAT(r.out, Catch::Contains("[ 0.1 -0.1]"));
}

TEST_CASE("bad literals and shapes: one line, exit 2, nothing written", "[cli][quick]") {
  TempDir out;
  const std::string dir = out.file("o");
  for (std::vector<std::string> args : {
           std::vector<std::string>{"-i", "x=[[1,2],[3]]"},
           std::vector<std::string>{"-i", "x=[1,2,3]", "--shape", "x=2,2"},
           std::vector<std::string>{"-i", "x=[1,2", "--shape", "x=1,2"},
           std::vector<std::string>{"--shape", "x=2;2"},
           std::vector<std::string>{"--range", "5,1"},
           std::vector<std::string>{"--format", "csv"},
       }) {
    args.insert(args.begin(), quick("leaky_nxm.onnx"));
    args.insert(args.end(), {"-o", dir});
    INFO(args[1] + " " + args[2]);
    auto r = run_cli(args);
    CHECK_EXIT(r, 2);
    CHECK(lines(r.err) == 1);
    CHECK(r.out.empty());
    CHECK_FALSE(fs::exists(dir));
  }
  // A literal for an input the model lacks, and a shape against a fixed dim: rejected (3).
  auto r = run_cli({quick("two_chains.onnx"), "-i", "nope=[1]", "-i", "b=[1,2,3,4]"});
  CHECK_EXIT(r, 3);
  CHECK_THAT(r.err, Catch::Contains("'nope'"));
  r = run_cli({quick("two_chains.onnx"), "--random", "--shape", "a=3,3"});
  CHECK_EXIT(r, 3);
  CHECK_THAT(r.err, Catch::Contains("fixed at 2"));
}

TEST_CASE("a --shape naming no input and a --range with given inputs: exit 2 in every door", "[cli][quick]") {
  // With -i or --npz both were accepted without a word; with made-up inputs a typo'd
  // name was already refused.
  TempDir out;
  const std::string dir = out.file("o"), npz = out.file("x.npz");
  REQUIRE_EXIT(
      run_cli({quick("leaky_nxm.onnx"), "-i", "x=[[1,-2]]", "--save-inputs", out.file("in"), "--format", "npz", "-q"}),
      0);
  const std::vector<std::vector<std::string>> inputs = {
      {}, {"--random"}, {"-i", "x=[[1,-2]]"}, {"--npz", out.file("in/inputs.npz")}};
  for (const std::vector<std::string>& feed : inputs)
    for (const std::vector<std::string>& option : {std::vector<std::string>{"--shape", "zz=5"},
                                                   {"--range", "zz:0,1"},
                                                   {"--range", "x:0,1"},
                                                   {"--range", "0,1"}}) {
      const bool given = feed.size() == 2 && feed[0] != "--random";
      if (!given && option[1] != "zz:0,1" && option[0] == "--range") continue;  // made-up inputs take them
      std::vector<std::string> args{quick("leaky_nxm.onnx"), "-o", dir};
      args.insert(args.end(), feed.begin(), feed.end());
      args.insert(args.end(), option.begin(), option.end());
      INFO(args[3] + " " + args.back());
      const auto r = run_cli(args);
      CHECK_EXIT(r, 2);
      CHECK(lines(r.err) == 1);
      CHECK_THAT(r.err, Catch::StartsWith("onnx-run: " + option[0]));
      if (option[1] == "zz=5") CHECK_THAT(r.err, Catch::Contains("'zz', which is not an input of the model"));
      else if (given) CHECK_THAT(r.err, Catch::Contains("the inputs are given with -i/--npz"));
      CHECK(r.out.empty());
      CHECK_FALSE(fs::exists(dir));
    }
  // Test sets bring their own inputs too.
  const std::string sets = onnxrun::test::testdata_dir() + "/leakyrelu_opset16_float_alpha0.1";
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{sets + "/model.onnx", "--range", "0,1"},
        {sets + "/model.onnx", "-d", sets + "/test_data_set_0", "--range", "x:0,1"}}) {
    const auto r = run_cli(args);
    CHECK_EXIT(r, 2);
    CHECK(lines(r.err) == 1);
    CHECK_THAT(r.err, Catch::StartsWith("onnx-run: --range ") && Catch::Contains("test sets bring their own inputs"));
  }
  // The same option, where it is meant: a literal's shape; a made-up input's range.
  CHECK_EXIT(run_cli({quick("leaky_nxm.onnx"), "-i", "x=[1,-2]", "--shape", "x=1,2", "-q"}), 0);
  CHECK_EXIT(run_cli({quick("leaky_nxm.onnx"), "--range", "x:0,1", "-q"}), 0);
}

TEST_CASE("random inputs: from declared shapes, --shape for symbols, seeded, in range", "[cli][quick]") {
  auto a = run_cli({quick("two_chains.onnx"), "--seed", "5", "--json"});
  REQUIRE_EXIT(a, 0);
  auto b = run_cli({quick("two_chains.onnx"), "--seed", "5", "--json"});
  auto c = run_cli({quick("two_chains.onnx"), "--seed", "6", "--json"});
  auto without_timings = [](const std::string& out) {
    json j = json::parse(out);
    j.erase("timings_ms");
    return j;
  };
  CHECK(without_timings(a.out) == without_timings(b.out));
  CHECK(without_timings(a.out) != without_timings(c.out));
  CHECK(json::parse(a.out)["inputs"][0]["source"] == "random");

  auto r = run_cli({quick("leaky_nxm.onnx")});  // symbolic dims unbound: 1 each, with a warning
  CHECK_EXIT(r, 0);
  CHECK_THAT(r.err, Catch::Contains("set to 1") && Catch::Contains("--shape x=d0,d1,..."));

  TempDir out;
  r = run_cli({quick("leaky_nxm.onnx"), "--shape", "x=30,40", "--range=100,200", "-o", out.path(), "--format", "npz"});
  REQUIRE_EXIT(r, 0);
  CHECK_THAT(r.err, Catch::Contains("made up random inputs"));
  const auto arrays = read_npz_file(out.file("outputs.npz"));
  REQUIRE(arrays.size() == 1);
  CHECK(arrays[0].name == "y");
  CHECK(arrays[0].tensor.shape() == Shape{30, 40});
  for (float v : floats_of(arrays[0].tensor)) REQUIRE((v >= 100 && v <= 200));
  // Summarised in the middle, all of it with --full.
  CHECK_THAT(r.out, Catch::Contains("..."));
  CHECK(lines(r.out) < 20);
  r = run_cli({quick("leaky_nxm.onnx"), "--shape", "x=30,40", "--full"});
  CHECK(r.out.find("...") == std::string::npos);
  CHECK(lines(r.out) > 30);
}

TEST_CASE("numpy files in and out: .npy, .npz, bfloat16 as <u2 bits", "[cli][quick]") {
  TempDir dir;
  write_npy_file(dir.file("a.npy"), float_tensor({2, 3}, {-1, 2, -3, 4, -5, 6}));
  write_npz_file(dir.file("in.npz"), {{"b", float_tensor({4}, {-4, 4, -8, 8})}});
  auto r = run_cli({quick("two_chains.onnx"), "-i", "a=" + dir.file("a.npy"), "--npz", dir.file("in.npz"), "-o",
                    dir.file("out"), "--format", "npz"});
  REQUIRE_EXIT(r, 0);
  const auto outs = read_npz_file(dir.file("out/outputs.npz"));
  REQUIRE(outs.size() == 2);
  CHECK(outs[0].name == "y");
  CHECK(floats_of(outs[0].tensor) == std::vector<float>{-0.25, 2, -0.75, 4, -1.25, 6});
  CHECK(outs[1].name == "z");
  CHECK(floats_of(outs[1].tensor) == std::vector<float>{-1, 4, -2, 8});

  // bfloat16: raw bits in a uint16 .npy, symmetric.
  Tensor bits(DType::kUInt16, {3});
  bits.mutable_data<uint16_t>()[0] = 0xc000;  // -2
  bits.mutable_data<uint16_t>()[1] = 0x3f80;  // 1
  bits.mutable_data<uint16_t>()[2] = 0xff80;  // -inf
  write_npy_file(dir.file("bits.npy"), bits);
  r = run_cli(
      {quick("leaky_bfloat16.onnx"), "-i", "x=" + dir.file("bits.npy"), "-o", dir.file("bf"), "--format", "npy"});
  REQUIRE_EXIT(r, 0);
  CHECK_THAT(r.out, Catch::Contains("input 'x': bfloat16[3]"));
  const Tensor y = read_npy_file(dir.file("bf/output_0.npy"));
  REQUIRE(y.dtype() == DType::kUInt16);
  CHECK(y.data<uint16_t>()[0] == 0xbe4d);  // bfloat16(-2 * bfloat16(0.1)) = -0.2001953125
  CHECK(y.data<uint16_t>()[1] == 0x3f80);
  CHECK(y.data<uint16_t>()[2] == 0xff80);

  // Refusals: Fortran order and a wrong type, one line, exit 3, nothing written.
  std::string fortran = npy_bytes(float_tensor({2, 3}, {1, 2, 3, 4, 5, 6}));
  fortran.replace(fortran.find("False"), 5, "True ");
  std::ofstream(dir.file("f.npy"), std::ios::binary) << fortran;
  r = run_cli({quick("two_chains.onnx"), "-i", "a=" + dir.file("f.npy"), "-i", "b=[1,2,3,4]", "-o", dir.file("x")});
  CHECK_EXIT(r, 3);
  CHECK(lines(r.err) == 1);
  CHECK_THAT(r.err, Catch::Contains("Fortran order"));
  CHECK_FALSE(fs::exists(dir.file("x")));
  write_npy_file(dir.file("d.npy"), Tensor(DType::kDouble, {2, 3}));
  r = run_cli({quick("two_chains.onnx"), "-i", "a=" + dir.file("d.npy"), "-i", "b=[1,2,3,4]"});
  CHECK_EXIT(r, 3);
  CHECK_THAT(r.err, Catch::Contains("double"));
  r = run_cli({quick("two_chains.onnx"), "-i", dir.file("in.npz")});
  CHECK_EXIT(r, 2);
  CHECK_THAT(r.err, Catch::Contains("--npz"));
}

TEST_CASE("--json carries inputs, outputs, statistics and timings", "[cli][quick]") {
  auto r = run_cli({quick("leaky_nxm.onnx"), "-i", "x=[[nan, inf, -inf, -2]]", "--json"});
  REQUIRE_EXIT(r, 0);
  CHECK(r.err.empty());
  const json j = json::parse(r.out);
  CHECK(j["model"] == quick("leaky_nxm.onnx"));
  const json& y = j["outputs"][0];
  CHECK(y["name"] == "y");
  CHECK(y["type"] == "float");
  CHECK(y["shape"] == json::parse("[1, 4]"));
  CHECK(y["source"] == "computed");
  // JSON has no NaN or infinities: they are strings, in the stats as in the values.
  CHECK(y["values"] == json::parse(R"([["nan", "inf", "-inf", -1]])"));
  CHECK(y["stats"] == json::parse(R"({"min": "-inf", "max": "inf", "mean": -1, "std": 0, "nan": 1, "inf": 2})"));
  CHECK(j["inputs"][0]["source"] == "literal");
  for (const char* phase : {"load", "inputs", "run"}) CHECK(j["timings_ms"][phase].is_number());
  // Floats as the shortest decimal of their own type; integers exact.
  r = run_cli({quick("leaky_nxm.onnx"), "-i", "x=[[0.1, -1e-45, 16777216]]", "--json"});
  REQUIRE_EXIT(r, 0);
  CHECK(json::parse(r.out)["inputs"][0]["values"].dump() == "[[0.1,-1e-45,16777216.0]]");
}

TEST_CASE("--json stays valid JSON when the model's names are not UTF-8", "[cli][quick]") {
  TempDir d;
  onnx::ModelProto m = onnxrun::test::leaky_relu_xy_model();
  m.mutable_graph()->mutable_input(0)->set_name("x\xff");
  m.mutable_graph()->mutable_node(0)->set_input(0, "x\xff");
  const auto r = run_cli({onnxrun::test::save_model(m, d.file("m.onnx")), "-i", "[1, -2, 3]", "--json"});
  REQUIRE_EXIT(r, 0);
  json j;
  REQUIRE_NOTHROW(j = json::parse(r.out));  // parse rejects invalid UTF-8
  CHECK(j["inputs"][0]["name"] == "x\uFFFD");
}

TEST_CASE("--dump-intermediates writes every value, named after it", "[cli][quick]") {
  TempDir dir;
  auto r = run_cli({quick("two_chains.onnx"), "-i", "a=[[-4,1,2],[3,4,5]]", "-i", "b=[-8,0,1,2]",
                    "--dump-intermediates", dir.file("pb")});
  REQUIRE_EXIT(r, 0);
  for (const char* f : {"mid_0_a.pb", "y.pb", "z.pb", "values.tsv"})
    CHECK(fs::exists(dir.file(std::string("pb/") + f)));
  const NamedTensor mid = read_tensor_file(dir.file("pb/mid_0_a.pb"));
  CHECK(mid.name == "mid/0:a");
  CHECK(floats_of(mid.tensor) == std::vector<float>{-2, 1, 2, 3, 4, 5});
  std::ifstream tsv(dir.file("pb/values.tsv"));
  std::stringstream ss;
  ss << tsv.rdbuf();
  CHECK(ss.str() == "mid_0_a.pb\tmid/0:a\ny.pb\ty\nz.pb\tz\n");

  r = run_cli({quick("two_chains.onnx"), "--random", "--dump-intermediates", dir.file("npy"), "--format", "npy"});
  REQUIRE_EXIT(r, 0);
  CHECK(read_npy_file(dir.file("npy/mid_0_a.npy")).shape() == Shape{2, 3});

  // -d is one run, so --json works for it; a folder without input files is a set that
  // cannot run: one line on stderr, exit 3.
  r = run_cli({quick("two_chains.onnx"), "--json", "-d", dir.path()});
  CHECK_EXIT(r, 3);
  CHECK_THAT(r.err, Catch::Contains("not a test set: a test set folder (test_data_set_N) holds input_0.pb"));
}

TEST_CASE("info describes runnable and unrunnable models, as text and JSON", "[cli][info]") {
  auto r = run_cli({"info", quick("not_runnable.onnx")});
  REQUIRE_EXIT(r, 0);
  CHECK_THAT(r.out, Catch::Contains("relu  Relu  ai.onnx opset 14 -> NOT SUPPORTED"));
  CHECK_THAT(r.out, Catch::Contains("local functions (1):"));
  r = run_cli({"info", quick("two_chains.onnx"), "--json"});
  REQUIRE_EXIT(r, 0);
  auto v = onnxrun::test::run_process(
      {"/usr/bin/python3", "-c",
       "import json,sys; d=json.loads(sys.argv[1]); print(d['runnable'], [n['resolved_version'] for n in d['nodes']])",
       r.out});
  CHECK(v.out == "True [16, 16, 16]\n");
  r = run_cli({"info", "/nonexistent.onnx"});
  CHECK_EXIT(r, 3);
  CHECK(lines(r.err) == 1);
  r = run_cli({"info"});
  CHECK_EXIT(r, 2);
  CHECK_THAT(r.err, Catch::Contains("onnx-run info --help"));
}

TEST_CASE("info on ONNX's own models", "[cli][info][onnx-tests]") {
  auto r = run_cli({"info", onnxrun::test::node_test("test_leakyrelu") + "/model.onnx"});
  REQUIRE_EXIT(r, 0);
  CHECK_THAT(r.out, Catch::Contains("#0  LeakyRelu  ai.onnx opset 16 -> v16 (16+)  (x) -> (y)"));
  CHECK_THAT(r.out, Catch::Contains("runnable:       yes"));
  // A test set's outputs can be written as numpy files too.
  TempDir out;
  r = run_cli({onnxrun::test::node_test("test_leakyrelu") + "/model.onnx", "-d",
               onnxrun::test::node_test("test_leakyrelu") + "/test_data_set_0", "-o", out.path(), "--format", "npy"});
  CHECK_EXIT(r, 0);
  CHECK(read_npy_file(out.file("output_0.npy")).shape() == Shape{3, 4, 5});
}

TEST_CASE("info on a real model: the inputs to feed, an operator summary and why it cannot run",
          "[cli][info][onnx-tests]") {
  const std::string alexnet = onnxrun::test::shared_tests_dir() + "/light/light_bvlc_alexnet.onnx";
  auto r = run_cli({"info", alexnet});
  REQUIRE_EXIT(r, 0);
  CHECK_THAT(r.out, Catch::Contains("producer:       onnx-caffe2"));
  CHECK_THAT(r.out, Catch::Contains("inputs (1; 17 more have an initializer; --all lists them):\n"
                                    "  data_0  float[1,3,224,224]\n"
                                    "outputs (1):"));
  CHECK_THAT(r.out, Catch::Contains("initializers (17, 288 B):\n  OC2_DUMMY_1  int64[2]  16 B\n"));  // 20 or fewer
  CHECK_THAT(r.out, Catch::Contains("nodes (40, 40 not supported by onnx-run; --all lists them):\noperators (9):\n"));
  CHECK_THAT(r.out, Catch::Contains("\n  Conv              x5  NOT SUPPORTED (operator not implemented)\n"));
  CHECK_THAT(r.out,
             Catch::Contains("runnable:       no, because:\n  ConstantOfShape (16 nodes): operator not implemented\n"
                             "  Conv (5 nodes): operator not implemented\n"));
  CHECK(lines(r.out) < 60);  // the whole listing is over 100 lines
  const auto all = run_cli({"info", alexnet, "--all"});
  REQUIRE_EXIT(all, 0);
  CHECK_THAT(all.out, Catch::Contains("inputs (18, 17 with an initializer):\n  data_0  float[1,3,224,224]\n"));
  CHECK_THAT(all.out, Catch::Contains("  conv1_w_0__SHAPE  int64[4]  (has an initializer)\n"));
  CHECK_THAT(all.out, Catch::Contains("  n0  Conv  ai.onnx opset 9 -> NOT SUPPORTED (operator not implemented)"));
  CHECK(lines(all.out) == lines(r.out) + 17 + 40);  // the initializer-backed inputs and the nodes
  r = run_cli({"info", alexnet, "--json"});
  REQUIRE_EXIT(r, 0);
  const auto v = onnxrun::test::run_process(
      {"/usr/bin/python3", "-c",
       "import json,sys; d=json.loads(sys.argv[1]); "
       "print(len(d['inputs']), sum(i['initializer'] for i in d['inputs']), len(d['nodes']), "
       "[(o['op_type'], o['nodes'], o['unsupported_nodes']) for o in d['operators'] if o['op_type'] == 'Conv'], "
       "d['runnable'], d['not_runnable_because'][1])",
       r.out});
  CHECK(v.out == "18 17 40 [('Conv', 5, 5)] False Conv (5 nodes): operator not implemented\n");
}

TEST_CASE("help teaches with examples, slips get the nearest name", "[cli][help]") {
  for (std::vector<std::string> args :
       {std::vector<std::string>{"--help"}, std::vector<std::string>{"info", "--help"}}) {
    auto r = run_cli(args);
    CHECK_EXIT(r, 0);
    CHECK_THAT(r.out, Catch::Contains("Examples:\n  onnx-run "));
  }
  auto r = run_cli({"inof", "model.onnx"});
  CHECK_EXIT(r, 2);
  CHECK(r.err ==
        "onnx-run: 'inof' is neither a command nor a file; did you mean `onnx-run info`? (see onnx-run --help)\n");
  r = run_cli({quick("leaky_nxm.onnx"), "--ful"});
  CHECK_EXIT(r, 2);
  CHECK_THAT(r.err, Catch::Contains("did you mean --full?"));
  r = run_cli({"info", quick("leaky_nxm.onnx"), "--jsno"});
  CHECK_EXIT(r, 2);
  CHECK_THAT(r.err, Catch::Contains("did you mean --json?"));
  r = run_cli({});
  CHECK_EXIT(r, 2);
  CHECK_THAT(r.err, Catch::Contains("usage: onnx-run [run] MODEL [OPTIONS]"));
  r = run_cli({"info"});
  CHECK_THAT(r.err, Catch::Contains("usage: onnx-run info MODEL [OPTIONS]"));
  // The bash completion at least parses.
  auto b = onnxrun::test::run_process({"/bin/bash", "-n", std::string(ONNXRUN_BUILD_DIR) + "/docs/onnx-run.bash"});
  CHECK_EXIT(b, 0);
  r = run_cli({"--version"});
  CHECK_THAT(r.out, Catch::Contains("ONNX opsets up to 28, IR version up to 13"));
}
