// `onnx-run MODEL -i ... --expected FILE|DIR|NAME=FILE`: a run's outputs compared with
// expected ones from any file, with the test sets' comparison and report, the error
// statistics, per-output tolerances and --check-error-stat; the same bytes whichever
// way the run goes (--exec-path whole|blocks), in text, -q and --json.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/tensor.h"
#include "io/npy.h"
#include "io/npz.h"
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
using TP = onnx::TensorProto;
namespace fs = std::filesystem;

namespace {

// LeakyRelu-16 (alpha 0.5) over x[6, 10] -> y, with x.npy = -30 .. 29 and the true
// output in good/output_0.npy (written by a run), and bad.npy: that output with elements
// 7 and 42 changed (one by a little, one by much) and 50 set to NaN.
struct Fixture {
  TempDir d;
  std::string model, x, good_dir, bad;
  Fixture() {
    onnx::ModelProto m = make_model(16);
    add_input(m, "x", TP::FLOAT, {6, 10});
    add_output(m, "y", TP::FLOAT, {6, 10});
    add_float_attr(*add_node(m, "LeakyRelu", {"x"}, {"y"}, "lrelu"), "alpha", 0.5f);
    model = save_model(m, d.file("model.onnx"));
    std::vector<float> xs(60);
    for (int k = 0; k < 60; ++k) xs[k] = static_cast<float>(k - 30);
    x = d.file("x.npy");
    write_npy_file(x, float_tensor({6, 10}, xs));
    good_dir = d.file("good");
    const ProcessResult r = run_cli({model, "-i", x, "-o", good_dir, "--format", "npy", "-q"});
    REQUIRE_EXIT(r, 0);
    Tensor y = read_npy_file(good_dir + "/output_0.npy");
    float* v = y.mutable_data<float>();
    v[7] += 0.05f;
    v[42] = 1000;
    v[50] = NAN;
    bad = d.file("bad.npy");
    write_npy_file(bad, y);
  }
  std::vector<std::string> run(std::vector<std::string> extra) const {
    std::vector<std::string> args{model, "-i", x};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }
};

// The JSON without its timings, which differ from run to run.
nlohmann::json without_timings(const std::string& text) {
  nlohmann::json j = nlohmann::json::parse(text);
  j.erase("timings_ms");
  return j;
}

}  // namespace

TEST_CASE("--expected takes a folder of output_K files, one file, NAME=FILE and an .npz", "[cli][expected]") {
  Fixture f;
  REQUIRE_EXIT(run_cli({f.model, "-i", f.x, "-o", f.d.file("npz"), "--format", "npz", "-q"}), 0);
  REQUIRE_EXIT(run_cli({f.model, "-i", f.x, "-o", f.d.file("pb"), "-q"}), 0);
  for (const std::string& e : {f.good_dir, f.good_dir + "/output_0.npy", "y=" + f.good_dir + "/output_0.npy",
                               f.d.file("npz") + "/outputs.npz", f.d.file("pb")}) {
    const ProcessResult r = run_cli(f.run({"--expected", e}));
    CHECK_EXIT(r, 0);
    CHECK_THAT(r.out, Contains("output 'y': float[6,10]") && Contains("  ok (60 elements, exact)"));
  }
}

TEST_CASE("--expected DIR with output_0.pb reads the other tensor files beside it too", "[cli][expected]") {
  // A model of two outputs; the folder holds the right output_0.pb (y) and a wrong z.npy.
  TempDir d;
  onnx::ModelProto m = make_model(16);
  add_input(m, "x", TP::FLOAT, {3});
  add_output(m, "y", TP::FLOAT, {3});
  add_output(m, "z", TP::FLOAT, {3});
  add_float_attr(*add_node(m, "LeakyRelu", {"x"}, {"y"}, "a"), "alpha", 0.5f);
  add_float_attr(*add_node(m, "LeakyRelu", {"x"}, {"z"}, "b"), "alpha", 0.25f);
  const std::string model = save_model(m, d.file("model.onnx")), x = d.file("x.npy"), e = d.file("e");
  write_npy_file(x, float_tensor({3}, {-4, 2, 8}));
  fs::create_directories(e);
  write_tensor_file(e + "/output_0.pb", float_tensor({3}, {-2, 2, 8}), "y");
  write_npy_file(e + "/z.npy", float_tensor({3}, {-100, 2, 8}));
  const ProcessResult r = run_cli({model, "-i", x, "--expected", e, "-q"});
  CHECK_EXIT(r, 1);
  CHECK_THAT(r.err, Contains("1 of 2 outputs differs (z:"));
  write_npy_file(e + "/z.npy", float_tensor({3}, {-1, 2, 8}));
  CHECK_EXIT(run_cli({model, "-i", x, "--expected", e, "-q"}), 0);
}

TEST_CASE("--expected DIR with values.tsv reads the tensor files it does not list too", "[cli][expected]") {
  // values.tsv naming good.npy as y once hid a y.npy beside it that is all wrong: passed.
  Fixture f;
  const std::string e = f.d.file("e");
  fs::create_directories(e);
  fs::copy_file(f.good_dir + "/output_0.npy", e + "/good.npy");
  write_file(e + "/values.tsv", "good.npy\ty\n");
  REQUIRE_EXIT(run_cli(f.run({"--expected", e, "-q"})), 0);  // the listed file alone: y, by its listed name
  fs::copy_file(f.bad, e + "/y.npy");
  for (const char* mode : {"-q", "--json"}) {
    const ProcessResult r = run_cli(f.run({"--expected", e, mode}));
    CAPTURE(mode);
    CHECK_EXIT(r, 3);  // two tensors for one output: ambiguous, as without values.tsv
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK_THAT(r.err, Contains("2 tensors for the model's 1 outputs") && Contains("y.npy is left over"));
  }
}

TEST_CASE("--expected reports a mismatch with statistics and a histogram, exit 1, no output files", "[cli][expected]") {
  Fixture f;
  const ProcessResult r = run_cli(f.run({"--expected", f.bad, "-o", f.d.file("out")}));
  CHECK_EXIT(r, 1);
  CHECK_THAT(r.out, Contains("3 of 60 elements differ; worst (largest error for its tolerance) at [5,0] (flat 50): "
                             "expected nan (0x7fc00000), got 20 (0x41a00000), abs err inf, rel err inf"));
  CHECK_THAT(r.out, Contains("abs err: max inf, mean inf, median 0; rel err: max inf, mean inf, median 0; 3 of 60 "
                             "beyond tolerance"));
  CHECK_THAT(r.out, Contains("abs err histogram:\n") && Contains("0 57 ####") && Contains("[1e-2, 1e-1)  1 #\n") &&
                        Contains("[1e2, 1e3)  1 #\n") && Contains("inf (NaN, inf)  1 #\n"));
  CHECK_FALSE(std::filesystem::exists(f.d.file("out")));  // not even the folder -o named

  const ProcessResult q = run_cli(f.run({"--expected", f.bad, "-q"}));
  CHECK_EXIT(q, 1);
  CHECK_THAT(q.out, StartsWith("  output 'y': 3 of 60 elements differ") && Contains("    abs err histogram:"));
  CHECK_THAT(q.out, !Contains("input 'x'"));

  const ProcessResult j = run_cli(f.run({"--expected", f.bad, "--json"}));
  CHECK_EXIT(j, 1);
  const nlohmann::json doc = nlohmann::json::parse(j.out);
  CHECK(doc["passed"] == false);
  const nlohmann::json& c = doc["outputs"][0]["comparison"];
  CHECK(c["ok"] == false);
  CHECK(c["mismatches"] == 3);
  CHECK(c["worst"]["index"] == 50);
  CHECK(c["worst"]["abs_err"] == c["errors"]["max_abs_err"]);  // NaN's error, as the statistics take it
  CHECK(c["errors"]["median_abs_err"] == 0);
  CHECK(c["errors"]["beyond_tolerance"] == 3);
  CHECK(c["errors"]["abs_histogram"].size() == 4);
  CHECK(c["check_error_stat"] == "elemwise");
}

TEST_CASE("--expected gives the same bytes block by block and whole, in text, -q and --json", "[cli][expected]") {
  Fixture f;
  for (const std::vector<std::string>& mode : {std::vector<std::string>{}, {"-q"}, {"--json"}}) {
    for (const std::string& e : {f.bad, f.good_dir}) {
      std::vector<std::string> whole = f.run({"--expected", e, "--exec-path", "whole"});
      std::vector<std::string> blocks = f.run({"--expected", e, "--exec-path", "blocks", "-v"});
      whole.insert(whole.end(), mode.begin(), mode.end());
      blocks.insert(blocks.end(), mode.begin(), mode.end());
      const ProcessResult a = run_cli(whole), b = run_cli(blocks);
      CHECK(a.exit_code == b.exit_code);
      if (mode.empty() || mode[0] != "-q") CHECK_THAT(b.err, Contains("ran block by block"));  // -q silences -v
      if (mode.empty() || mode[0] != "--json") CHECK(a.out == b.out);
      else CHECK(without_timings(a.out) == without_timings(b.out));
    }
  }
}

TEST_CASE("per-output --atol/--rtol and --check-error-stat decide as documented", "[cli][expected]") {
  Fixture f;
  // Only element 7 off by 0.05: an atol of 0.1 for y passes; one for a name the model does
  // not output is a mistake on the command line.
  Tensor y = read_npy_file(f.good_dir + "/output_0.npy");
  y.mutable_data<float>()[7] += 0.05f;  // beyond 1e-7 + 1e-3 * 11.5
  const std::string near = f.d.file("near.npy");
  write_npy_file(near, y);
  CHECK_EXIT(run_cli(f.run({"--expected", near, "-q"})), 1);
  CHECK_EXIT(run_cli(f.run({"--expected", near, "-q", "--atol", "y:0.1"})), 0);
  CHECK_EXIT(run_cli(f.run({"--expected", near, "-q", "--atol", "z:0.1"})), 2);
  CHECK_EXIT(run_cli(f.run({"--expected", near, "-q", "--rtol", "y:1"})), 0);
  // One element off among 60: the median error is 0, the max is not.
  const ProcessResult median = run_cli(f.run({"--expected", near, "--check-error-stat", "median"}));
  CHECK_EXIT(median, 0);
  CHECK_THAT(median.out, Contains("ok by median error: abs 0 <= atol 1e-07") && Contains("abs err histogram"));
  CHECK_EXIT(run_cli(f.run({"--expected", near, "-q", "--check-error-stat", "max"})), 1);
  // The mean relative error, 0.05 / 11.5 / 60, is within rtol: enough for Polygraphy's rule.
  CHECK_EXIT(run_cli(f.run({"--expected", near, "-q", "--check-error-stat", "mean"})), 0);
  CHECK_EXIT(run_cli(f.run({"--expected", near, "-q", "--check-error-stat", "mean", "--rtol", "1e-5"})), 1);
  // A NaN where a number is expected fails whatever the statistic.
  CHECK_EXIT(run_cli(f.run({"--expected", f.bad, "-q", "--check-error-stat", "median"})), 1);
}

TEST_CASE("--expected with a file that is not there: exit 3, one line, nothing written", "[cli][expected][bad-input]") {
  Fixture f;
  const ProcessResult r = run_cli(f.run({"--expected", f.d.file("missing.npy"), "-o", f.d.file("out")}));
  CHECK_EXIT(r, 3);
  CHECK_THAT(r.err, StartsWith("onnx-run: ") && Contains("missing.npy"));
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK_FALSE(std::filesystem::exists(f.d.file("out")));
}

TEST_CASE("--expected NAME=FILE for an output the model does not have: exit 3", "[cli][expected][bad-input]") {
  Fixture f;
  const ProcessResult r = run_cli(f.run({"--expected", "z=" + f.bad}));
  CHECK_EXIT(r, 3);
  CHECK_THAT(r.err, Contains("the model has no output 'z' (its outputs: y)"));
  CHECK(r.out.empty());
}

TEST_CASE("--expected with more tensors than outputs: exit 3", "[cli][expected][bad-input]") {
  Fixture f;
  write_npz_file(f.d.file("two.npz"), {{"y", float_tensor({1})}, {"w", float_tensor({1})}});
  const ProcessResult r = run_cli(f.run({"--expected", f.d.file("two.npz")}));
  CHECK_EXIT(r, 3);
  CHECK_THAT(r.err, Contains("2 tensors for the model's 1 outputs"));
}

TEST_CASE("--expected of another shape is a failed comparison: exit 1", "[cli][expected][bad-input]") {
  Fixture f;
  write_npy_file(f.d.file("short.npy"), float_tensor({1, 2}));
  const ProcessResult r = run_cli(f.run({"--expected", f.d.file("short.npy")}));
  CHECK_EXIT(r, 1);
  CHECK_THAT(r.out, Contains("expected float[2], got float[6,10]"));
}

TEST_CASE("--expected where a test set brings the expected outputs: usage error, nothing written",
          "[cli][expected][bad-input]") {
  Fixture f;
  const std::string set = f.d.file("test_data_set_0");
  fs::create_directories(set);
  fs::copy_file(f.good_dir + "/output_0.npy", set + "/output_0.npy");
  write_npy_file(set + "/input_0.npy", read_npy_file(f.x));
  for (const auto& args : {std::vector<std::string>{f.model, "--expected", f.bad, "-o", f.d.file("out")},
                           {f.model, "-d", set, "--expected", f.bad, "-o", f.d.file("out")}}) {
    const ProcessResult r = run_cli(args);
    CHECK_EXIT(r, 2);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK_THAT(r.err, Contains("a test set brings its own expected outputs"));
    CHECK(r.out.empty());
    CHECK_FALSE(fs::exists(f.d.file("out")));
  }
}

TEST_CASE("a malformed NAME:V tolerance or error statistic: usage error", "[cli][expected][bad-input]") {
  Fixture f;
  for (const std::vector<std::string>& bad : {std::vector<std::string>{"--atol", "y:-1"},
                                              {"--rtol", ":0.1"},
                                              {"--atol", "y:abc"},
                                              {"--check-error-stat", "p99"}}) {
    const ProcessResult r = run_cli(f.run({"--expected", f.bad, bad[0], bad[1]}));
    CHECK_EXIT(r, 2);
    CHECK_THAT(r.err, StartsWith("onnx-run: ") && Contains(bad[0]));
    CHECK(r.out.empty());
  }
}

TEST_CASE("test: per-output tolerances from --atol NAME:V and from data.json", "[cli][expected][test-command]") {
  TempDir d;
  onnx::ModelProto m = make_model(16);
  add_input(m, "x", TP::FLOAT, {2});
  add_output(m, "y", TP::FLOAT, {2});
  add_node(m, "LeakyRelu", {"x"}, {"y"}, "lrelu");
  const std::string dir = d.file("case");
  std::filesystem::create_directories(dir + "/test_data_set_0");
  save_model(m, dir + "/model.onnx");
  write_tensor_file(dir + "/test_data_set_0/input_0.pb", float_tensor({1, 2}), "x");
  write_tensor_file(dir + "/test_data_set_0/output_0.pb", float_tensor({1.1f, 2}), "y");  // 0.1 off
  CHECK_EXIT(run_cli({"test", d.path(), "-q"}), 1);
  CHECK_EXIT(run_cli({"test", d.path(), "-q", "--atol", "y:0.2"}), 0);
  // A name that is no output is a typo, not a tolerance left unused (it exited 1 here).
  const ProcessResult typo = run_cli({"test", d.path(), "-q", "--atol", "other:0.2"});
  CHECK_EXIT(typo, 2);
  CHECK(typo.err == "onnx-run: --atol other:0.2: no value 'other' among the outputs of the tests run (y)\n");
  write_file(dir + "/data.json", R"({"atol": {"y": 0.2}})");
  CHECK_EXIT(run_cli({"test", d.path(), "-q"}), 0);
  write_file(dir + "/data.json", R"({"atol": {"y": -1}})");
  const ProcessResult bad = run_cli({"test", d.path(), "-q"});
  CHECK_EXIT(bad, 1);  // the test errors; its message names the file and the output
  CHECK_THAT(bad.out, Contains("\"atol\" of output \"y\" must be a non-negative number"));
  // The run command's test-set mode takes them too.
  std::filesystem::remove(dir + "/data.json");
  CHECK_EXIT(run_cli({dir + "/model.onnx", "-q", "--atol", "y:0.2"}), 0);
  CHECK_EXIT(run_cli({dir + "/model.onnx", "-q"}), 1);
}

TEST_CASE("--expected over several blocks: the same report block by block as whole", "[cli][expected][blocks]") {
  TempDir d;
  onnx::ModelProto m = make_model(16);
  add_input(m, "x", TP::FLOAT, {1024, 1024});  // 4 MiB: four 1 MiB blocks
  add_output(m, "y", TP::FLOAT, {1024, 1024});
  add_node(m, "LeakyRelu", {"x"}, {"y"}, "lrelu");
  const std::string model = save_model(m, d.file("model.onnx"));
  const std::string x = d.file("x.npy");
  std::vector<float> xs(1024 * 1024);
  for (size_t k = 0; k < xs.size(); ++k) xs[k] = static_cast<float>(static_cast<int>(k % 2001) - 1000) * 0.01f;
  write_npy_file(x, float_tensor({1024, 1024}, xs));
  REQUIRE_EXIT(run_cli({model, "-i", x, "-o", d.file("out"), "--format", "npy", "-q"}), 0);
  Tensor y = read_npy_file(d.file("out/output_0.npy"));
  float* v = y.mutable_data<float>();
  for (size_t k : {size_t{5}, size_t{300000}, size_t{600001}, size_t{1048575}}) v[k] = v[k] * 2 + 1;
  write_npy_file(d.file("bad.npy"), y);
  for (const char* stat : {"elemwise", "median"}) {
    const ProcessResult whole =
        run_cli({model, "-i", x, "--expected", d.file("bad.npy"), "--exec-path", "whole", "--check-error-stat", stat});
    const ProcessResult blocks = run_cli(
        {model, "-i", x, "--expected", d.file("bad.npy"), "--exec-path", "blocks", "--check-error-stat", stat, "-v"});
    CHECK_EXIT(whole, std::string(stat) == "median" ? 0 : 1);
    CHECK(blocks.exit_code == whole.exit_code);
    CHECK_THAT(blocks.err, Contains("ran block by block"));
    CHECK_THAT(whole.out, Contains("4 of 1048576 beyond tolerance"));
    CHECK(whole.out == blocks.out);
  }
}

TEST_CASE("made-up inputs are repeatable: --random --seed with --expected of an earlier run", "[cli][expected]") {
  TempDir d;
  const std::string model = save_model(leaky_relu_model(16), d.file("model.onnx"));
  REQUIRE_EXIT(run_cli({model, "--random", "--seed", "7", "-o", d.file("first"), "-q"}), 0);
  CHECK_EXIT(run_cli({model, "--random", "--seed", "7", "--expected", d.file("first"), "-q"}), 0);
  const ProcessResult other = run_cli({model, "--random", "--seed", "8", "--expected", d.file("first"), "-q"});
  CHECK_EXIT(other, 1);
  CHECK_THAT(other.out, Contains("elements differ"));
  // With no test data beside the model the inputs are made up without --random, and
  // --expected judges them as it does --random's (it was refused: "needs inputs").
  CHECK_EXIT(run_cli({model, "--seed", "7", "--expected", d.file("first"), "-q"}), 0);
  const ProcessResult json = run_cli({model, "--seed", "7", "--expected", d.file("first"), "--json"});
  CHECK_EXIT(json, 0);
  CHECK_THAT(json.out, Contains("\"source\": \"random\""));
  const ProcessResult unsaid = run_cli({model, "--seed", "8", "--expected", d.file("first")});
  CHECK_EXIT(unsaid, 1);
  CHECK_THAT(unsaid.out, Contains("elements differ"));
}

TEST_CASE("bfloat16 outputs written as numpy bits compare as bfloat16 with --expected and compare",
          "[cli][expected][compare]") {
  TempDir d;
  const std::string model = save_model(leaky_relu_model(16, TP::BFLOAT16), d.file("model.onnx"));
  REQUIRE_EXIT(run_cli({model, "--random", "--seed", "3", "-o", d.file("npy"), "--format", "npy", "-q"}), 0);
  REQUIRE_EXIT(run_cli({model, "--random", "--seed", "3", "-o", d.file("pb"), "-q"}), 0);
  const ProcessResult r = run_cli({model, "--random", "--seed", "3", "--expected", d.file("npy")});
  CHECK_EXIT(r, 0);
  CHECK_THAT(r.out, Contains("ok (") && Contains("exact)"));
  CHECK_EXIT(run_cli({"compare", d.file("npy"), d.file("pb"), "-q"}), 0);
  CHECK_EXIT(run_cli({"compare", d.file("pb"), d.file("npy"), "-q"}), 0);
}

TEST_CASE("round trip: made-up inputs saved, run again from the files with --expected, one flipped element compared",
          "[cli][expected][compare][save-inputs]") {
  for (int elem : {TP::FLOAT, TP::DOUBLE, TP::FLOAT16, TP::BFLOAT16}) {
    for (const std::string format : {"pb", "npy"}) {
      INFO("type " << elem << ", format " << format);
      TempDir d;
      const std::string model = save_model(leaky_relu_model(16, elem), d.file("model.onnx"));
      const std::string d1 = d.file("D1"), d2 = d.file("D2");
      REQUIRE_EXIT(
          run_cli({model, "--random", "--seed", "11", "--save-inputs", d1, "-o", d2, "--format", format, "-q"}), 0);
      const std::string input = d1 + "/input_0." + format, output = d2 + "/output_0." + format;
      const ProcessResult again = run_cli({model, "-i", input, "--expected", d2});
      CHECK_EXIT(again, 0);
      CHECK_THAT(again.out, Contains("ok (") && Contains("exact)"));
      // D2' = D2 with element 4 changed: compare names it and exits 1; D2 against itself is 0.
      const std::string d2b = d.file("D2b");
      std::filesystem::create_directories(d2b);
      NamedTensor y = format == "pb" ? read_tensor_file(output) : NamedTensor{"", read_npy_file(output)};
      auto* bits = static_cast<unsigned char*>(y.tensor.mutable_raw());
      bits[4 * dtype_size(y.tensor.dtype()) + dtype_size(y.tensor.dtype()) - 1] ^= 0x80;  // element 4's sign
      if (format == "pb") write_tensor_file(d2b + "/output_0.pb", y.tensor, y.name);
      else write_npy_file(d2b + "/output_0.npy", y.tensor);
      CHECK_EXIT(run_cli({"compare", d2, d2, "-q"}), 0);
      const ProcessResult diff = run_cli({"compare", d2, d2b});
      CHECK_EXIT(diff, 1);
      CHECK_THAT(diff.out, Contains("1 of ") &&
                               Contains(" elements differ; worst (largest error for its tolerance) at [") &&
                               Contains("(flat 4)"));
      // A TensorProto carries the output's name; a .npy file is named by its file.
      CHECK_THAT(diff.out,
                 Contains(format == "pb" ? "first divergent value: 'y'" : "first divergent value: 'output_0'"));
    }
  }
}
