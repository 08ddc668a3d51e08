// Inputs a run can keep (issue 17, point 5): --save-inputs writes the inputs a run used,
// made-up ones included, in each --format, so that `-i` from those files gives the same
// outputs byte for byte, on the whole path and the block path; it writes nothing when
// the run fails. --range NAME:LO,HI gives one input its own range; a symbolic dim nothing
// binds is 1 for made-up inputs, with a warning, and still refused for given inputs that
// disagree.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/element.h"
#include "io/input_file.h"
#include "io/npy.h"
#include "io/npz.h"
#include "support/check_exit.h"
#include "support/model_builder.h"
#include "support/paths.h"
#include "support/process.h"
#include "support/tensor_bytes.h"

using namespace onnxrun;
using namespace onnxrun::test;
using Catch::Matchers::Contains;
using nlohmann::json;
namespace fs = std::filesystem;
using TP = onnx::TensorProto;

namespace {

size_t count_lines(const std::string& s) { return static_cast<size_t>(std::count(s.begin(), s.end(), '\n')); }

bool folder_is_empty(const std::string& dir) { return !fs::exists(dir) || fs::is_empty(dir); }

// x -> LeakyRelu(alpha 0.1) -> y, both `elem` of `dims` (a negative dim: symbol N).
std::string leaky_model(const TempDir& dir, int elem, const std::vector<int64_t>& dims) {
  onnx::ModelProto m = make_model(16);
  onnx::ValueInfoProto* x = m.mutable_graph()->add_input();
  x->set_name("x");
  auto* type = x->mutable_type()->mutable_tensor_type();
  type->set_elem_type(elem);
  for (int64_t d : dims) {
    auto* dim = type->mutable_shape()->add_dim();
    if (d < 0) dim->set_dim_param("N");
    else dim->set_dim_value(d);
  }
  add_output(m, "y", elem, std::vector<int64_t>(dims.size(), -1));
  add_float_attr(*add_node(m, "LeakyRelu", {"x"}, {"y"}), "alpha", 0.1f);
  return save_model(m, dir.file("leaky.onnx"));
}

// z = x * y over float inputs x[N, 3] and y[N, 3] (symbolic unless fixed is true: [4, 3]).
std::string mul_model(const TempDir& dir, bool fixed = false) {
  onnx::ModelProto m = make_model(16);
  if (fixed) {
    add_input(m, "x", TP::FLOAT, {4, 3});
    add_input(m, "y", TP::FLOAT, {4, 3});
  } else {
    add_symbolic_input(m, "x", TP::FLOAT, {"N", "three"});
    add_symbolic_input(m, "y", TP::FLOAT, {"N", "three"});
  }
  add_output(m, "z", TP::FLOAT, {-1, -1});
  add_node(m, "Mul", {"x", "y"}, {"z"});
  return save_model(m, dir.file(fixed ? "mul_fixed.onnx" : "mul.onnx"));
}

// Every file under `dir`, name -> bytes.
std::map<std::string, std::string> files_under(const std::string& dir) {
  std::map<std::string, std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file()) out[e.path().filename().string()] = read_file(e.path().string());
  return out;
}

// What a run on the files --save-inputs wrote into `dir` is given: -i per file, or --npz.
std::vector<std::string> feed_from(const std::string& dir, const std::string& format, size_t inputs) {
  if (format == "npz") return {"--npz", dir + "/inputs.npz"};
  std::vector<std::string> args;
  for (size_t k = 0; k < inputs; ++k)
    args.insert(args.end(), {"-i", dir + "/input_" + std::to_string(k) + "." + format});
  return args;
}

// The values of a --json --full report's inputs and outputs (their sources differ).
json values_of(const std::string& report) {
  const json j = json::parse(report);
  json out;
  for (const char* side : {"inputs", "outputs"})
    for (const json& t : j.at(side)) out.push_back({t.at("name"), t.at("type"), t.at("shape"), t.at("values")});
  return out;
}

std::vector<double> values_in(const Tensor& t) {
  std::vector<double> v;
  for (int64_t k = 0; k < t.numel(); ++k) v.push_back(element_as_double(t, k));
  return v;
}

std::string ext_of(const std::string& format) { return format == "npz" ? "npz" : format; }

}  // namespace

TEST_CASE("--save-inputs keeps made-up inputs, and -i from them gives the same outputs byte for byte", "[cli][save]") {
  for (int elem : {TP::FLOAT, TP::DOUBLE, TP::FLOAT16, TP::BFLOAT16}) {
    for (const std::string format : {"pb", "npy", "npz"}) {
      CAPTURE(elem, format);
      TempDir dir;
      const std::string model = leaky_model(dir, elem, {3, 5});
      const std::string d1 = dir.file("D1"), d2 = dir.file("D2"), d3 = dir.file("D3");
      const ProcessResult made = run_cli({model, "--random", "--seed", "9", "--range=-4,4", "--save-inputs", d1, "-o",
                                          d2, "--format", format, "--json", "--full"});
      REQUIRE_EXIT(made, 0);
      const auto saved = files_under(d1);
      REQUIRE(saved.size() == 1);
      CHECK(saved.count(format == "npz" ? "inputs.npz" : "input_0." + ext_of(format)) == 1);

      std::vector<std::string> again{model, "-o", d3, "--format", format, "--json", "--full"};
      const std::vector<std::string> feed = feed_from(d1, format, 1);
      again.insert(again.begin() + 1, feed.begin(), feed.end());
      const ProcessResult rerun = run_cli(again);
      REQUIRE_EXIT(rerun, 0);
      CHECK(files_under(d2) == files_under(d3));
      CHECK(values_of(made.out) == values_of(rerun.out));  // the same input bits were read back
      CHECK(json::parse(made.out)["inputs"][0]["source"] == "random");
    }
  }
}

TEST_CASE("--save-inputs of a .pb is named after the graph input, an .npz keyed by it", "[cli][save]") {
  TempDir dir;
  const std::string model = mul_model(dir, true);
  REQUIRE_EXIT(run_cli({model, "--random", "--save-inputs", dir.file("pb"), "-q"}), 0);
  CHECK(read_input_file(dir.file("pb/input_0.pb")).name == "x");
  CHECK(read_input_file(dir.file("pb/input_1.pb")).name == "y");
  REQUIRE_EXIT(run_cli({model, "--random", "--save-inputs", dir.file("npz"), "--format", "npz", "-q"}), 0);
  const auto arrays = read_npz_file(dir.file("npz/inputs.npz"));
  REQUIRE(arrays.size() == 2);
  CHECK(arrays[0].name == "x");
  CHECK(arrays[1].name == "y");
  CHECK(arrays[0].tensor.shape() == Shape{4, 3});
}

// Zip readers take a member's name for CP437 unless the archive flags it UTF-8
// (general-purpose bit 11): numpy found an output 'yé' under 'y├⌐' only.
TEST_CASE("numpy reads .npz members named outside ASCII under their own names", "[cli][save][python]") {
  TempDir dir;
  onnx::ModelProto m = leaky_relu_model(16);
  onnx::GraphProto& g = *m.mutable_graph();
  g.mutable_input(0)->set_name("xé");
  g.mutable_output(0)->set_name("yé");
  g.mutable_node(0)->set_input(0, "xé");
  g.mutable_node(0)->set_output(0, "yé");
  const std::string model = save_model(m, dir.file("m.onnx"));
  REQUIRE_EXIT(run_cli({model, "-i", "xé=[[1,-2,3],[4,5,6]]", "-o", dir.file("out"), "--save-inputs", dir.file("out"),
                        "--format", "npz", "-q"}),
               0);
  const auto keys = run_process({"/usr/bin/python3", "-c",
                                 "import numpy as np, sys\n"
                                 "print(ascii(np.load(sys.argv[1]).files), ascii(np.load(sys.argv[2]).files))",
                                 dir.file("out/outputs.npz"), dir.file("out/inputs.npz")});
  REQUIRE_EXIT(keys, 0);
  CHECK(keys.out == "['y\\xe9'] ['x\\xe9']\n");
}

TEST_CASE("--save-inputs writes given inputs bit for bit, whole and block by block", "[cli][save]") {
  TempDir dir;
  const std::string model = leaky_model(dir, TP::BFLOAT16, {-1});
  // Three 1 MiB blocks and a bit, every 16-bit pattern (NaNs, infinities, subnormals) in it.
  Tensor bits(DType::kUInt16, Shape{3 * (1 << 19) + 777});
  auto* p = bits.mutable_data<uint16_t>();
  for (int64_t k = 0; k < bits.numel(); ++k) p[k] = static_cast<uint16_t>(k * 40503u);
  write_file(dir.file("x.npy"), npy_bytes(bits));  // numpy has no bfloat16: its bits as <u2
  std::map<std::string, std::string> saved_by[2], outputs_by[2];
  const char* paths[2] = {"whole", "blocks"};
  for (int k = 0; k < 2; ++k) {
    CAPTURE(paths[k]);
    for (const std::string format : {"pb", "npy", "npz"}) {
      CAPTURE(format);
      const std::string saved = dir.file(std::string("saved_") + paths[k] + format);
      const std::string out = dir.file(std::string("out_") + paths[k] + format);
      const ProcessResult r = run_cli({model, "-i", "x=" + dir.file("x.npy"), "--save-inputs", saved, "-o", out,
                                       "--format", format, "--exec-path", paths[k], "-v"});
      REQUIRE_EXIT(r, 0);
      CHECK((r.err.find("ran block by block") != std::string::npos) == (k == 1));
      for (const auto& [name, bytes] : files_under(saved)) saved_by[k][format + "/" + name] = bytes;
      for (const auto& [name, bytes] : files_under(out)) outputs_by[k][format + "/" + name] = bytes;
      // What was saved holds the given bits, and running on it writes the same outputs.
      if (format == "npy") {
        const Tensor back = read_npy_file(saved + "/input_0.npy");
        REQUIRE(back.nbytes() == bits.nbytes());
        CHECK(std::memcmp(back.raw(), bits.raw(), bits.nbytes()) == 0);
      }
      const std::string again = dir.file(std::string("again_") + paths[k] + format);
      std::vector<std::string> args{model, "-o", again, "--format", format, "-q"};
      const std::vector<std::string> feed = feed_from(saved, format, 1);
      args.insert(args.begin() + 1, feed.begin(), feed.end());
      REQUIRE_EXIT(run_cli(args), 0);
      CHECK(files_under(again) == files_under(out));
    }
  }
  CHECK(saved_by[0].size() == 3);
  CHECK(saved_by[0] == saved_by[1]);
  CHECK(outputs_by[0] == outputs_by[1]);
}

TEST_CASE("--save-inputs from a test set writes that set's inputs", "[cli][save]") {
  const std::string models = testdata_dir();
  const std::string set = models + "/leakyrelu_opset6_float_default/test_data_set_0";
  TempDir dir;
  const ProcessResult r = run_cli(
      {models + "/leakyrelu_opset6_float_default/model.onnx", "-d", set, "--save-inputs", dir.file("in"), "-q"});
  REQUIRE_EXIT(r, 0);
  const Tensor given = read_input_file(set + "/input_0.pb").tensor;
  const Tensor saved = read_input_file(dir.file("in/input_0.pb")).tensor;
  REQUIRE(saved.nbytes() == given.nbytes());
  CHECK(saved.shape() == given.shape());
  CHECK(std::memcmp(saved.raw(), given.raw(), given.nbytes()) == 0);
}

TEST_CASE("a run that fails saves no inputs", "[cli][save]") {
  const std::string models = testdata_dir();
  TempDir dir;
  const std::string saved = dir.file("in"), out = dir.file("out");
  SECTION("an output that does not match (exit 1)") {
    const ProcessResult r =
        run_cli({models + "/leakyrelu_opset6_float_alpha0.1/model.onnx", "-d",
                 models + "/leakyrelu_opset6_float_default/test_data_set_0", "--save-inputs", saved, "-o", out, "-q"});
    CHECK_EXIT(r, 1);
    CHECK(folder_is_empty(saved));
    CHECK(folder_is_empty(out));
  }
  SECTION("an input of the wrong type (exit 3)") {
    const std::string model = leaky_model(dir, TP::FLOAT, {2});
    write_file(dir.file("x.npy"), npy_bytes(Tensor(DType::kDouble, Shape{2})));
    const ProcessResult r = run_cli({model, "-i", dir.file("x.npy"), "--save-inputs", saved, "-o", out});
    CHECK_EXIT(r, 3);
    CHECK(count_lines(r.err) == 1);
    CHECK(folder_is_empty(saved));
    CHECK(folder_is_empty(out));
  }
  SECTION("a folder that cannot be made (exit 3), before anything runs") {
    const std::string model = leaky_model(dir, TP::FLOAT, {2});
    write_file(dir.file("a_file"), "");
    for (const std::string format : {"pb", "npz"}) {
      const ProcessResult r =
          run_cli({model, "--random", "--save-inputs", dir.file("a_file"), "-o", out, "--format", format});
      CHECK_EXIT(r, 3);
      CHECK(count_lines(r.err) == 1);
      CHECK_THAT(r.err, Contains("cannot create output folder") && Contains("a_file"));
      CHECK(r.out.empty());
      CHECK(folder_is_empty(out));
    }
  }
  SECTION("several test sets (exit 2)") {
    TempDir sets;
    const std::string model = leaky_model(sets, TP::FLOAT, {2});
    for (const char* name : {"test_data_set_0", "test_data_set_1"}) {
      fs::create_directory(sets.file(name));
      write_message(sets.file(std::string(name) + "/input_0.pb"), float_tensor("x", {2}, {1, -1}));
      write_message(sets.file(std::string(name) + "/output_0.pb"), float_tensor("y", {2}, {1, -0.1f}));
    }
    const ProcessResult r = run_cli({model, "--save-inputs", saved});
    CHECK_EXIT(r, 2);
    CHECK(count_lines(r.err) == 1);
    CHECK_THAT(r.err, Contains("--save-inputs needs one run") && Contains("-d"));
    CHECK(folder_is_empty(saved));
  }
}

TEST_CASE("--range NAME:LO,HI gives one input its own range beside the global one", "[cli][range]") {
  TempDir dir;
  const std::string model = mul_model(dir, true);
  const ProcessResult r = run_cli({model, "--random", "--range", "x:10,11", "--range=-1,0", "--save-inputs",
                                   dir.file("in"), "--format", "npy", "--json", "--full"});
  REQUIRE_EXIT(r, 0);
  CHECK_THAT(r.err, Contains("--range -1,0, --range x:10,11"));  // the notice says how to make them again
  const json j = json::parse(r.out);
  const std::vector<double> x = values_in(read_npy_file(dir.file("in/input_0.npy")));
  const std::vector<double> y = values_in(read_npy_file(dir.file("in/input_1.npy")));
  REQUIRE(x.size() == 12);
  for (double v : x) CHECK((v >= 10 && v <= 11));
  for (double v : y) CHECK((v >= -1 && v <= 0));
  for (const json& row : j["inputs"][0]["values"])
    for (const json& v : row) CHECK((v.get<double>() >= 10 && v.get<double>() <= 11));

  // Text and -q take it too.
  const ProcessResult text = run_cli({model, "--random", "--range", "y:5,5"});
  REQUIRE_EXIT(text, 0);
  CHECK_THAT(text.out, Contains("input 'y': float[4,3] from random\n  min 5 max 5 mean 5 std 0"));
  CHECK_THAT(text.err, Contains("--range y:5,5"));
  REQUIRE_EXIT(run_cli({model, "--random", "--range", "y:5,5", "-q"}), 0);
}

TEST_CASE("a bad --range is a usage error with one line", "[cli][range]") {
  TempDir dir;
  const std::string model = mul_model(dir, true);
  for (const auto& [arg, word] :
       std::vector<std::pair<std::string, std::string>>{{"z:0,1", "'z', which is not an input"},
                                                        {"x:1,0", "--range x:1,0"},
                                                        {"x:0", "--range x:0"},
                                                        {":0,1", "--range :0,1"}}) {
    CAPTURE(arg);
    const ProcessResult r = run_cli({model, "--random", "--range", arg, "-o", dir.file("out")});
    CHECK_EXIT(r, 2);
    CHECK(count_lines(r.err) == 1);
    CHECK_THAT(r.err, Contains(word));
    CHECK(folder_is_empty(dir.file("out")));
  }
  const ProcessResult twice = run_cli({model, "--random", "--range", "x:0,1", "--range", "x:0,2"});
  CHECK_EXIT(twice, 2);
  CHECK_THAT(twice.err, Contains("'x' twice"));
}

TEST_CASE("a symbolic dim nothing binds is 1 for made-up inputs, with one warning", "[cli][symbolic]") {
  TempDir dir;
  const std::string model = mul_model(dir);  // x[N, three], y[N, three]
  for (const std::vector<std::string>& door : std::vector<std::vector<std::string>>{{}, {"--json"}}) {
    std::vector<std::string> args{model, "--random"};
    args.insert(args.end(), door.begin(), door.end());
    const ProcessResult r = run_cli(args);
    REQUIRE_EXIT(r, 0);
    // One line per symbol, naming the first input that has it; y shares both.
    CHECK_THAT(r.err, Contains("warning: input 'x'") && Contains("dim 0 ('N') set to 1") &&
                          Contains("dim 1 ('three') set to 1") && Contains("--shape x=d0,d1,..."));
    CHECK_THAT(r.err, !Contains("input 'y'"));
    CHECK(count_lines(r.err) == 3);  // two dims and the made-up notice
    if (!door.empty()) CHECK(json::parse(r.out)["outputs"][0]["shape"] == json::array({1, 1}));
    else CHECK_THAT(r.out, Contains("float[1,1]"));
  }
  // --shape for one input binds the symbols of the other: no warning.
  const ProcessResult bound = run_cli({model, "--random", "--shape", "x=2,3", "--json"});
  REQUIRE_EXIT(bound, 0);
  CHECK_THAT(bound.err, !Contains("set to 1"));
  CHECK(json::parse(bound.out)["inputs"][1]["shape"] == json::array({2, 3}));
  // -q keeps only failures.
  const ProcessResult quiet = run_cli({model, "--random", "-q"});
  REQUIRE_EXIT(quiet, 0);
  CHECK(quiet.err.empty());
}

TEST_CASE("an unknown dim of a made-up input is 1 too, with a warning", "[cli][symbolic]") {
  TempDir dir;
  onnx::ModelProto m = make_model(16);
  add_input(m, "x", TP::FLOAT, {2, -1});  // dim 1 neither fixed nor named
  add_output(m, "y", TP::FLOAT, {-1, -1});
  add_node(m, "LeakyRelu", {"x"}, {"y"});
  const ProcessResult r = run_cli({save_model(m, dir.file("unknown.onnx")), "--json"});
  REQUIRE_EXIT(r, 0);
  CHECK_THAT(r.err, Contains("input 'x'") && Contains("dim 1 (unknown) set to 1"));
  CHECK(json::parse(r.out)["inputs"][0]["shape"] == json::array({2, 1}));
}

TEST_CASE("given inputs whose symbolic dims disagree are still refused", "[cli][symbolic]") {
  TempDir dir;
  const std::string model = mul_model(dir);
  write_file(dir.file("x.npy"), npy_bytes(Tensor(DType::kFloat, Shape{2, 3})));
  write_file(dir.file("y.npy"), npy_bytes(Tensor(DType::kFloat, Shape{4, 3})));
  const ProcessResult r = run_cli({model, "-i", "x=" + dir.file("x.npy"), "-i", "y=" + dir.file("y.npy"),
                                   "--save-inputs", dir.file("in"), "-o", dir.file("out")});
  CHECK_EXIT(r, 3);
  CHECK(count_lines(r.err) == 1);
  CHECK_THAT(r.err, Contains("'N'"));
  CHECK_THAT(r.err, !Contains("set to 1"));
  CHECK(folder_is_empty(dir.file("in")));
  CHECK(folder_is_empty(dir.file("out")));
}

TEST_CASE("--range wider than a double can span makes values within it in every door that makes inputs up",
          "[cli][range]") {
  // HI - LO overflowed: every made-up double was +inf (and -inf,inf made them NaN).
  TempDir dir;
  const std::string model = leaky_model(dir, TP::DOUBLE, {1000});
  const ProcessResult r = run_cli({model, "--random", "--range=-1.5e308,1.5e308", "--save-inputs", dir.file("in"), "-o",
                                   dir.file("out"), "--format", "npy"});
  REQUIRE_EXIT(r, 0);
  CHECK_THAT(r.out, Contains("from random\n  min -1.4") && Contains(" nan 0 inf 0\n"));
  const std::vector<double> x = values_in(read_npy_file(dir.file("in/input_0.npy")));
  REQUIRE(x.size() == 1000);
  const auto negative = std::count_if(x.begin(), x.end(), [](double v) { return v < 0; });
  CHECK((negative > 400 && negative < 600));
  for (double v : x) CHECK((v >= -1.5e308 && v <= 1.5e308));
  for (double v : values_in(read_npy_file(dir.file("out/output_0.npy")))) CHECK(std::isfinite(v));
  const ProcessResult json_door = run_cli({model, "--random", "--range", "x:-1.7e308,1.7e308", "--json", "-q"});
  CHECK_EXIT(json_door, 0);
  const json stats = json::parse(json_door.out)["inputs"][0]["stats"];
  CHECK(stats["nan"] == 0);
  CHECK(stats["inf"] == 0);
  CHECK(stats["min"].get<double>() < -1e307);
  CHECK(stats["max"].get<double>() > 1e307);
}

TEST_CASE("a --range bound that is not finite or goes beyond the input's type is a usage error with one line",
          "[cli][range]") {
  TempDir dir;
  const std::string model = leaky_model(dir, TP::FLOAT16, {4});
  for (const auto& [arg, line] : std::vector<std::pair<std::string, std::string>>{
           {"-inf,inf", "onnx-run: --range -inf,inf: LO and HI must be finite numbers\n"},
           {"x:0,1e999", "onnx-run: --range x:0,1e999: LO and HI must be finite numbers\n"},
           {"0,1e5",
            "onnx-run: input 'x' (float16): value range [0, 100000] is beyond float16's finite values (largest 65504): "
            "values would round to infinity\n"}})
    for (const std::vector<std::string>& door :
         {std::vector<std::string>{"-o", dir.file("out")}, {"--save-inputs", dir.file("in")}, {"--json"}, {"-q"}}) {
      std::vector<std::string> args{model, "--random", "--range", arg};
      args.insert(args.end(), door.begin(), door.end());
      CAPTURE(arg, door.front());
      const ProcessResult r = run_cli(args);
      CHECK_EXIT(r, 2);
      CHECK(r.err == line);
      CHECK(r.out.empty());
      CHECK(folder_is_empty(dir.file("out")));
      CHECK(folder_is_empty(dir.file("in")));
    }
}
