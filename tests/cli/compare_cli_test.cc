// `onnx-run compare A B`: result sets of any form paired by name, then by position,
// compared as a run's outputs are; for two --dump-intermediates folders with --model,
// the first value that differs in graph order. Exit 0 / 1, 2 for bad command lines, 3
// for files that are not tensors.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "core/tensor.h"
#include "io/npy.h"
#include "io/npz.h"
#include "io/streamed_tensor_file.h"
#include "io/tensor_file.h"
#include "support/check_exit.h"
#include "support/model_builder.h"
#include "support/model_tree.h"
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

// Two result folders, y.npy and z.pb, and an .npz of the same; `flipped` has one
// element of y changed.
struct Sets {
  TempDir d;
  std::string a = d.file("a"), flipped = d.file("flipped"), npz = d.file("a.npz");
  Sets() {
    fs::create_directories(a);
    fs::create_directories(flipped);
    const Tensor y = float_tensor({2, 3}, {-3, -2, -1, 0, 1, 2});
    const Tensor z = float_tensor({4});
    write_npy_file(a + "/y.npy", y);
    write_tensor_file(a + "/z.pb", z, "z");
    write_npz_file(npz, {{"z", z}, {"y", y}});
    write_npy_file(flipped + "/y.npy", float_tensor({2, 3}, {-3, -2, -1, 0, 1, -2}));
    write_tensor_file(flipped + "/z.pb", z, "z");
  }
};

}  // namespace

TEST_CASE("compare: equal sets exit 0 in any mix of forms", "[cli][compare]") {
  Sets s;
  for (const auto& [x, y] : {std::pair{s.a, s.a}, {s.a, s.npz}, {s.npz, s.a}}) {
    const ProcessResult r = run_cli({"compare", x, y});
    CHECK_EXIT(r, 0);
    CHECK_THAT(r.out, Contains("'y': ") && Contains("ok (6 elements, exact)") && Contains("2 of 2 values agree"));
  }
  CHECK_EXIT(run_cli({"compare", s.a + "/y.npy", s.npz + "", "-q"}), 1);  // one tensor against two: z is only in B
}

TEST_CASE("compare: a flipped element exits 1 and is named, in text, -q and --json", "[cli][compare]") {
  Sets s;
  const ProcessResult r = run_cli({"compare", s.a, s.flipped});
  CHECK_EXIT(r, 1);
  CHECK_THAT(r.out, Contains("'y': " + s.a + "/y.npy vs " + s.flipped +
                             "/y.npy\n  1 of 6 elements differ; worst (largest error for its tolerance) at "
                             "[1,2] (flat 5): expected 2"));
  CHECK_THAT(r.out, Contains("abs err histogram:") && Contains("first divergent value: 'y'") &&
                        Contains("1 of 2 values agree"));
  const ProcessResult q = run_cli({"compare", s.a, s.flipped, "-q"});
  CHECK_EXIT(q, 1);
  CHECK_THAT(q.out, !Contains("'z'") && Contains("'y'"));
  const ProcessResult j = run_cli({"compare", s.a, s.flipped, "--json"});
  CHECK_EXIT(j, 1);
  const nlohmann::json doc = nlohmann::json::parse(j.out);
  CHECK(doc["equal"] == false);
  CHECK(doc["first_divergent"] == "y");
  CHECK(doc["same"] == 1);
  CHECK(doc["values"][0]["comparison"]["worst"]["position"] == "[1,2]");
  CHECK(doc["values"][0]["comparison"]["errors"]["max_abs_err"] == 4);
  // A tolerance for y alone lets it pass.
  CHECK_EXIT(run_cli({"compare", s.a, s.flipped, "--atol", "y:4"}), 0);
  CHECK_EXIT(run_cli({"compare", s.a, s.flipped, "--check-error-stat", "median", "-q"}), 0);
}

TEST_CASE("compare: under an error statistic, --json's needed atol and rtol are the statistic's, as the text says",
          "[cli][compare]") {
  // Errors 0.1, 0.2 and 0.5: under median, atol 0.2 passes; the worst element's 0.5 is more than needed.
  TempDir d;
  fs::create_directories(d.file("e"));
  fs::create_directories(d.file("a"));
  write_npy_file(d.file("e/y.npy"), float_tensor({3}, {1, 1, 1}));
  write_npy_file(d.file("a/y.npy"), float_tensor({3}, {1.1f, 1.2f, 1.5f}));
  for (const std::string stat : {"median", "mean", "max", "elemwise"}) {
    INFO(stat);
    const ProcessResult j = run_cli(
        {"compare", d.file("e"), d.file("a"), "--json", "--check-error-stat", stat, "--atol", "0", "--rtol", "0"});
    CHECK_EXIT(j, 1);
    const nlohmann::json c = nlohmann::json::parse(j.out)["values"][0]["comparison"];
    const std::string key = stat == "elemwise" ? "max" : stat;
    CHECK(c["needed_atol"] == c["errors"][key + "_abs_err"]);
    CHECK(c["needed_rtol"] == c["errors"][key + "_rel_err"]);
    const ProcessResult text = run_cli({"compare", d.file("e"), d.file("a"), "--check-error-stat", stat});
    // Rounded up to three digits (0.2000000477 is 0.201); element-wise, the atol beside the default rtol.
    const std::map<std::string, std::string> said{{"median", "0.201 or rtol >= 0.201"},
                                                  {"mean", "0.267 or rtol >= 0.267"},
                                                  {"max", "0.5 or rtol >= 0.5"},
                                                  {"elemwise", "0.499 or rtol >= 0.5"}};
    CHECK_THAT(text.out, Contains("would pass with atol >= " + said.at(stat)));
    // The figure passes.
    const std::string atol = fmt::format("{}", c["needed_atol"].get<double>());
    CHECK_EXIT(
        run_cli({"compare", d.file("e"), d.file("a"), "-q", "--check-error-stat", stat, "--atol", atol, "--rtol", "0"}),
        0);
  }
}

// y.npy and z.pb whose TensorProto says y: which is the value cannot be told, and the
// other was reported "only in A" (exit 1) though B holds y. An .npz, verify and
// --expected refuse one name twice alike.
TEST_CASE("compare: a folder holding one value twice is refused, exit 3, naming both files", "[cli][compare]") {
  Sets s;
  write_tensor_file(s.a + "/w.pb", float_tensor({2, 3}, {-3, -2, -1, 0, 1, 2}), "y");
  for (const auto& [x, y] : {std::pair{s.a, s.flipped}, {s.flipped, s.a}}) {
    const ProcessResult r = run_cli({"compare", x, y});
    CHECK_EXIT(r, 3);
    CHECK(r.out.empty());
    CHECK(r.err == "onnx-run: " + s.a + ": holds 'y' twice: " + s.a + "/w.pb and " + s.a + "/y.npy\n");
  }
  // As often on both sides, they pair in order: two test sets whose output_0.pb and
  // output_1.pb carry one TensorProto name, as every other door reads them.
  TempDir d;
  for (const std::string side : {"p", "q"}) {
    fs::create_directories(d.file(side));
    for (int k = 0; k < 2; ++k)
      write_tensor_file(d.file(side + "/output_" + std::to_string(k) + ".pb"), float_tensor({2}, {1.f * k, 2}), "out");
  }
  const ProcessResult same = run_cli({"compare", d.file("p"), d.file("q")});
  CHECK_EXIT(same, 0);
  CHECK_THAT(same.out, Contains("2 of 2 values agree"));
}

TEST_CASE("compare: tensor files beside a test set's outputs are compared too", "[cli][compare]") {
  // Two test-set folders whose output_0.pb agree, with w.pb and z.npy beside them that
  // differ: the verdict must see them (it once read a test set's output_K.pb alone).
  TempDir d;
  for (const char* side : {"p", "q"}) {
    fs::create_directories(d.file(side));
    write_tensor_file(d.file(side) + "/input_0.pb", float_tensor({3}, {7, 8, 9}), "x");
    write_tensor_file(d.file(side) + "/output_0.pb", float_tensor({3}, {1, -2, 3}), "y");
    const float scale = side[0] == 'p' ? 1.0f : 100.0f;
    write_tensor_file(d.file(side) + "/w.pb", float_tensor({3}, {1, -2, 3 * scale}), "w");
    write_npy_file(d.file(side) + "/z.npy", float_tensor({3}, {scale, 0, 0}));
  }
  const ProcessResult r = run_cli({"compare", d.file("p"), d.file("q"), "--json"});
  CHECK_EXIT(r, 1);
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  REQUIRE(doc["values"].size() == 3);  // the input is no result
  CHECK(doc["values"][0]["name"] == "y");
  CHECK(doc["same"] == 1);
  const ProcessResult q = run_cli({"compare", d.file("p"), d.file("q"), "-q"});
  CHECK_EXIT(q, 1);
  CHECK_THAT(q.err, Contains("2 of 3 values differ"));
}

TEST_CASE("compare: a tensor file that values.tsv does not list is compared under its own name", "[cli][compare]") {
  // values.tsv in a folder once hid every file it did not list: a z.npy that differs
  // passed ("1 of 1 values agree"), and with values.tsv on one side only, z was "only in B".
  TempDir d;
  for (const char* side : {"a", "b"}) {
    fs::create_directories(d.file(side));
    write_npy_file(d.file(side) + "/y_0.npy", float_tensor({2}, {1, 2}));
    write_npy_file(d.file(side) + "/z.npy", float_tensor({1}, {side[0] == 'a' ? 1.0f : 2.0f}));
  }
  write_file(d.file("a/values.tsv"), "y_0.npy\ty/0\n");
  for (const bool both : {false, true}) {
    if (both) write_file(d.file("b/values.tsv"), "y_0.npy\ty/0\n");
    CAPTURE(both);
    const ProcessResult r = run_cli({"compare", d.file("a"), d.file("b"), "--json"});
    CHECK_EXIT(r, 1);
    const nlohmann::json doc = nlohmann::json::parse(r.out);
    REQUIRE(doc["values"].size() == 2);
    if (both) CHECK(doc["values"][0]["name"] == "y/0");  // else y/0 and y_0 pair by position
    CHECK(doc["values"][1]["name"] == "z");
    CHECK(doc["values"][1]["comparison"]["ok"] == false);
    CHECK(doc["same"] == 1);
    const ProcessResult q = run_cli({"compare", d.file("a"), d.file("b"), "-q"});
    CHECK_EXIT(q, 1);
    CHECK_THAT(q.err, Contains("1 of 2 values differs (z:"));
    const ProcessResult text = run_cli({"compare", d.file("a"), d.file("b")});
    CHECK_EXIT(text, 1);
    CHECK_THAT(text.out, Contains("'z': " + d.file("a/z.npy") + " vs " + d.file("b/z.npy")));
    CHECK_THAT(text.out, !Contains("only in"));
  }
  write_npy_file(d.file("b/z.npy"), float_tensor({1}, {1}));
  CHECK_EXIT(run_cli({"compare", d.file("a"), d.file("b"), "-q"}), 0);
}

TEST_CASE("compare: the mean error of doubles near the largest is theirs, and judged so", "[cli][compare]") {
  // Found by black-box testing: three errors of 1e308 had the mean inf, so the mean
  // statistic failed under any atol ("would pass with atol >= inf").
  TempDir d;
  for (const char* side : {"a", "b"}) fs::create_directories(d.file(side));
  Tensor zeros(DType::kDouble, {3}), big(DType::kDouble, {3});
  for (int k = 0; k < 3; ++k) {
    zeros.mutable_data<double>()[k] = 0;
    big.mutable_data<double>()[k] = 1e308;
  }
  write_npy_file(d.file("a") + "/v.npy", zeros);
  write_npy_file(d.file("b") + "/v.npy", big);
  const ProcessResult j = run_cli({"compare", d.file("a"), d.file("b"), "--json"});
  CHECK_EXIT(j, 1);
  CHECK(nlohmann::json::parse(j.out)["values"][0]["comparison"]["errors"]["mean_abs_err"] == 1e308);
  CHECK_EXIT(run_cli({"compare", d.file("a"), d.file("b"), "-q", "--check-error-stat", "mean", "--atol", "1.5e308"}),
             0);
}

TEST_CASE("compare: a value on one side only is a difference", "[cli][compare]") {
  Sets s;
  fs::remove(s.flipped + "/z.pb");
  const ProcessResult r = run_cli({"compare", s.a, s.flipped, "--json"});
  CHECK_EXIT(r, 1);
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  REQUIRE(doc["values"].size() == 2);
  CHECK(doc["values"][1]["name"] == "z");
  CHECK(doc["values"][1]["b"].is_null());
  CHECK(doc["values"][1]["comparison"].is_null());
}

TEST_CASE("compare --model: two dumps part at the first value that differs in graph order", "[cli][compare]") {
  TempDir d;
  onnx::ModelProto m = make_model(16);
  add_input(m, "x", TP::FLOAT, {4});
  add_output(m, "y", TP::FLOAT, {4});
  add_float_attr(*add_node(m, "LeakyRelu", {"x"}, {"h"}, "first"), "alpha", 0.1f);
  add_float_attr(*add_node(m, "LeakyRelu", {"h"}, {"y"}, "second"), "alpha", 3.0f);
  const std::string model = save_model(m, d.file("chain.onnx"));
  const std::string one = d.file("one"), two = d.file("two");
  for (const std::string& dump : {one, two})
    REQUIRE_EXIT(
        run_cli({model, "-i", "x=[-1,0,1,2]", "--no-fuse", "--dump-intermediates", dump, "--format", "npy", "-q"}), 0);
  // The second run went wrong at h, and so at y.
  const std::vector<std::string> files = names_in(one);
  REQUIRE(std::find(files.begin(), files.end(), "h.npy") != files.end());
  write_npy_file(two + "/h.npy", float_tensor({-0.1f, 0, 1, 2.5f}));
  write_npy_file(two + "/y.npy", float_tensor({-0.3f, 0, 1, 2.5f}));
  // values.tsv of A listing y before h: without the model, y comes first.
  const std::string tsv = read_file(one + "/values.tsv");
  std::string reordered;
  for (const char* name : {"y", "h", "x"})
    for (size_t at = 0; (at = tsv.find(std::string(name) + ".npy\t", at)) != std::string::npos; at++)
      if (at == 0 || tsv[at - 1] == '\n') reordered += tsv.substr(at, tsv.find('\n', at) + 1 - at);
  write_file(one + "/values.tsv", reordered);
  const ProcessResult plain = run_cli({"compare", one, two, "-q"});
  CHECK_EXIT(plain, 1);
  CHECK_THAT(plain.out, Contains("first divergent value: 'y'"));
  const ProcessResult ordered = run_cli({"compare", one, two, "--model", model, "-q"});
  CHECK_EXIT(ordered, 1);
  CHECK_THAT(ordered.out, Contains("first divergent value in graph order: 'h'"));
  const nlohmann::json doc = nlohmann::json::parse(run_cli({"compare", one, two, "--model", model, "--json"}).out);
  CHECK(doc["first_divergent"] == "h");
}

TEST_CASE("compare --model: bfloat16 results in .npy (uint16 bits) compare as bfloat16, as --expected does",
          "[cli][compare]") {
  TempDir d;
  const std::string dir = testdata_dir() + "/leakyrelu_opset16_bfloat16_default";
  const std::string model = dir + "/model.onnx", input = dir + "/test_data_set_0/input_0.pb";
  const std::string out = d.file("out"), exp = d.file("exp");
  REQUIRE_EXIT(run_cli({model, "-i", "x=" + input, "-o", out, "--format", "npy", "-q"}), 0);
  // One element one bfloat16 step off: a relative error of at most 2^-7.
  Tensor y = read_npy_file(out + "/output_0.npy");
  REQUIRE(y.dtype() == DType::kUInt16);
  y.mutable_data<uint16_t>()[0] ^= 1;
  fs::create_directories(exp);
  write_npy_file(exp + "/y.npy", y);
  CHECK_EXIT(run_cli({model, "-i", "x=" + input, "--expected", "y=" + exp + "/y.npy", "--rtol", "0.01", "-q"}), 0);
  const ProcessResult typed = run_cli({"compare", exp, out, "--rtol", "0.01", "--model", model});
  CHECK_EXIT(typed, 0);
  CHECK_THAT(typed.out, Contains("max abs err"));
  // Without the model the two files are uint16 arrays, which must be equal.
  const ProcessResult bits = run_cli({"compare", exp, out, "--rtol", "0.01"});
  CHECK_EXIT(bits, 1);
  CHECK_THAT(bits.out, Contains("no tolerance passes it"));
}

TEST_CASE("compare with a missing argument: exit 2", "[cli][compare][bad-input]") {
  Sets s;
  const ProcessResult r = run_cli({"compare", s.a});
  CHECK_EXIT(r, 2);
  CHECK_THAT(r.err, StartsWith("onnx-run: "));
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
}

TEST_CASE("compare with a path that does not exist: exit 2", "[cli][compare][bad-input]") {
  Sets s;
  const ProcessResult r = run_cli({"compare", s.a, s.d.file("nowhere")});
  CHECK_EXIT(r, 2);
  CHECK_THAT(r.err, Contains("nowhere: no such file or folder"));
  CHECK(r.out.empty());
}

TEST_CASE("compare with a malformed tolerance: exit 2", "[cli][compare][bad-input]") {
  Sets s;
  const ProcessResult r = run_cli({"compare", s.a, s.a, "--rtol", "y:x"});
  CHECK_EXIT(r, 2);
  CHECK_THAT(r.err, Contains("--rtol"));
}

TEST_CASE("compare with a file that is not a tensor: exit 3", "[cli][compare][bad-input]") {
  Sets s;
  write_file(s.flipped + "/y.npy", "not numpy");
  const ProcessResult r = run_cli({"compare", s.a, s.flipped});
  CHECK_EXIT(r, 3);
  CHECK_THAT(r.err, StartsWith("onnx-run: ") && Contains("y.npy"));
  CHECK(r.out.empty());
}

// As in a test set: a K no count reaches is a gap (it was "internal error: stol").
TEST_CASE("compare of a test-set folder with output_99999999999999999999.pb: exit 3, the gap named",
          "[cli][compare][bad-input]") {
  TempDir d;
  for (const char* name : {"a/output_0.pb", "b/output_0.pb", "b/output_99999999999999999999.pb"}) {
    fs::create_directories(fs::path(d.file(name)).parent_path());
    write_tensor_file(d.file(name), float_tensor({3}), "y");
  }
  const ProcessResult r = run_cli({"compare", d.file("a"), d.file("b")});
  CHECK_EXIT(r, 3);
  CHECK(r.err == "onnx-run: " + d.file("b") + ": output_1.pb is missing (found output_99999999999999999999.pb)\n");
  CHECK(r.out.empty());
}

// A set's outputs with a gap before the first: output_1.pb alone was taken for output 0
// (compare: "1 of 1 values agree", exit 0; --expected: output 1's value judged output 0).
TEST_CASE("compare and --expected of a folder holding output_1.pb but no output_0.pb: exit 3, the gap named",
          "[cli][compare][bad-input]") {
  TempDir d;
  write_leaky_test(d.file("t"));
  for (const char* name : {"a/output_1.pb", "b/output_0.pb"}) {
    fs::create_directories(fs::path(d.file(name)).parent_path());
    write_tensor_file(d.file(name), float_tensor({3}), "");
  }
  const std::string gap = "onnx-run: " + d.file("a") + ": output_0.pb is missing (found output_1.pb)\n";
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"compare", d.file("a"), d.file("b")},
        {"compare", d.file("b"), d.file("a")},
        {d.file("t/model.onnx"), "-i", d.file("t/test_data_set_0/input_0.pb"), "--expected", d.file("a")}}) {
    const ProcessResult r = run_cli(args);
    INFO(args[0]);
    CHECK_EXIT(r, 3);
    CHECK(r.err == gap);
    CHECK(r.out.empty());
  }
}

TEST_CASE("compare and --expected --json: errors in the subnormal decades have their histogram", "[cli][compare]") {
  // Decades 1e-310 (subnormal) and 1e-324 (below the least double, which lies in it):
  // the JSON histogram's bounds once threw from std::stod, an internal error (exit 3).
  TempDir d;
  Tensor zero(DType::kDouble, {4}), tiny(DType::kDouble, {4});  // the typed model's double[4]
  for (int k = 0; k < 4; ++k) zero.mutable_data<double>()[k] = tiny.mutable_data<double>()[k] = 0;
  tiny.mutable_data<double>()[0] = 1.5e-310;
  tiny.mutable_data<double>()[1] = std::numeric_limits<double>::denorm_min();
  write_npy_file(d.file("zero.npy"), zero);
  write_npy_file(d.file("tiny.npy"), tiny);
  write_leaky_model_typed(d.file("m.onnx"), 16, TP::DOUBLE);
  const ProcessResult model_run =
      run_cli({d.file("m.onnx"), "-i", "x=" + d.file("zero.npy"), "--expected", "y=" + d.file("tiny.npy"), "--json"});
  const ProcessResult compared = run_cli({"compare", d.file("zero.npy"), d.file("tiny.npy"), "--json"});
  for (const ProcessResult& r : {model_run, compared}) {
    CHECK_EXIT(r, 0);  // within the default atol
    const nlohmann::json doc = nlohmann::json::parse(r.out);
    const nlohmann::json& c = r.out == compared.out ? doc["values"][0]["comparison"] : doc["outputs"][0]["comparison"];
    const nlohmann::json& h = c["errors"]["abs_histogram"];
    REQUIRE(h.size() == 3);
    CHECK(h[0]["count"] == 2);   // no error
    CHECK(h[1]["from"] == 0.0);  // 1e-324, as the nearest double reads it
    CHECK(h[1]["to"] == 1e-323);
    CHECK(h[1]["count"] == 1);
    CHECK(h[2]["from"] == 1e-310);
    CHECK(h[2]["count"] == 1);
  }
}

// `values` as a 1-d .npy of `dtype` (whose element type is T).
template <typename T>
void write_ints(const std::string& path, DType dtype, const std::vector<T>& values) {
  Tensor t(dtype, {static_cast<int64_t>(values.size())});
  std::memcpy(t.mutable_raw(), values.data(), values.size() * sizeof(T));
  write_npy_file(path, t);
}

TEST_CASE("compare of integers: the errors are their differences, int64's extremes 2^64 - 1 ULPs apart, exactly",
          "[cli][compare][integers]") {
  // The statistics once said inf where the worst element said abs err 1, and int64's
  // extremes printed 18446744073709551614 ULPs (saturated below "inf"), their values in
  // --json rounded to doubles.
  TempDir d;
  for (const char* side : {"a", "b", "c", "e"}) fs::create_directories(d.file(side));
  write_ints<int32_t>(d.file("a/y.npy"), DType::kInt32, {1, 5, -7});
  write_ints<int32_t>(d.file("b/y.npy"), DType::kInt32, {1, 6, -7});
  const ProcessResult small = run_cli({"compare", d.file("a"), d.file("b")});
  CHECK_EXIT(small, 1);
  CHECK_THAT(small.out, Contains("expected 5, got 6, abs err 1, rel err 0.2, ulp 1;"));
  CHECK_THAT(small.out, Contains("  abs err: max 1, mean 0.333, median 0; rel err: max 0.2, mean 0.0667, median 0;"));
  CHECK_THAT(small.out, Contains("[1e0, 1e1) 1"));
  CHECK(small.out.find("max inf") == std::string::npos);
  CHECK(small.out.find("inf (NaN, inf)") == std::string::npos);
  CHECK_THAT(small.err, Contains("max abs err 1, max ulp 1)"));
  // Unequal integers fail under every statistic still, whatever its tolerance.
  CHECK_EXIT(run_cli({"compare", d.file("a"), d.file("b"), "--check-error-stat", "max", "--atol", "10", "-q"}), 1);

  // INT64_MIN against INT64_MAX, and 2^60 against 2^60 + 1, which doubles cannot tell apart.
  const int64_t lo = std::numeric_limits<int64_t>::min(), hi = std::numeric_limits<int64_t>::max();
  const int64_t big = int64_t{1} << 60;
  write_ints<int64_t>(d.file("c/y.npy"), DType::kInt64, {lo, 0, big});
  write_ints<int64_t>(d.file("e/y.npy"), DType::kInt64, {hi, 0, big + 1});
  const ProcessResult wide = run_cli({"compare", d.file("c"), d.file("e")});
  CHECK_EXIT(wide, 1);
  CHECK_THAT(wide.out, Contains("expected -9223372036854775808, got 9223372036854775807, abs err 1.84e+19, rel err 2, "
                                "ulp 18446744073709551615; 2 of 3 not bit-identical, max ulp 18446744073709551615;"));
  CHECK_THAT(wide.out, Contains("abs err: max 1.84e+19, mean 6.15e+18, median 1;"));
  CHECK_THAT(wide.err, Contains("max abs err 1.84e+19, max ulp 18446744073709551615)"));
  const ProcessResult json = run_cli({"compare", d.file("c"), d.file("e"), "--json"});
  CHECK_EXIT(json, 1);
  const nlohmann::json c = nlohmann::json::parse(json.out)["values"][0]["comparison"];
  CHECK(c["worst"]["expected"] == lo);
  CHECK(c["worst"]["actual"] == hi);
  CHECK(c["worst"]["ulp"] == UINT64_MAX);
  CHECK(c["max_ulp"] == UINT64_MAX);
  CHECK(c["errors"]["max_abs_err"] == 18446744073709551615.0);  // 2^64 - 1 as the nearest double
  CHECK(c["errors"]["median_abs_err"] == 1.0);
  for (const nlohmann::json& row : c["errors"]["abs_histogram"]) CHECK(row["from"].is_number());
}
