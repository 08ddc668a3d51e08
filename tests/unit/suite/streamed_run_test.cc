// The run pipeline's block path (suite/streamed_run.h) in the library: the digests and
// checks of a run in many small blocks, on given files or a test set, are the whole
// run's, bit for bit; and the runs it must leave to the whole path (0-d inputs, callers that keep tensors, literals) go there.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <random>

#include "io/streamed_tensor_file.h"
#include "io/test_data.h"
#include "suite/run.h"
#include "support/model_builder.h"
#include "support/paths.h"
#include "support/shortcuts.h"

using namespace onnxrun;
using namespace onnxrun::test;

namespace {

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void check_same_digest(const ValueDigest& a, const ValueDigest& b) {
  REQUIRE(a.valid());
  REQUIRE(b.valid());
  CHECK(describe(a) == describe(b));
  CHECK(a.stats.count == b.stats.count);
  CHECK(a.stats.nan == b.stats.nan);
  CHECK(a.stats.pos_inf == b.stats.pos_inf);
  CHECK(same_bits(a.stats.min, b.stats.min));
  CHECK(same_bits(a.stats.max, b.stats.max));
  CHECK(same_bits(a.stats.mean, b.stats.mean));
  CHECK(same_bits(a.stats.std, b.stats.std));
  REQUIRE(a.shown.nbytes() == b.shown.nbytes());
  CHECK(std::memcmp(a.shown.raw(), b.shown.raw(), a.shown.nbytes()) == 0);
}

// A .pb of n floats with NaN and infinities among them, for x[n] of `model`.
std::string write_floats(const TempDir& dir, const std::vector<int64_t>& dims, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(1, 4);
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  std::vector<float> v(static_cast<size_t>(n));
  for (float& x : v) x = rng() % 101 == 0 ? (rng() % 2 ? NAN : INFINITY) : normal(rng);
  const std::string path = dir.file("x.pb");
  write_message(path, float_tensor("x", dims, v));
  return path;
}

// x -> LeakyRelu -> y, x of `dims` (empty: 0-d) or, by default, [n].
std::string model(const TempDir& dir, const std::vector<int64_t>* dims = nullptr) {
  onnx::ModelProto m = make_model(16);
  if (dims) {
    add_input(m, "x", onnx::TensorProto::FLOAT, *dims);
    add_output(m, "y", onnx::TensorProto::FLOAT, *dims);
  } else {
    add_symbolic_input(m, "x", onnx::TensorProto::FLOAT, {"n"});
    add_output(m, "y", onnx::TensorProto::FLOAT, {-1});
  }
  add_node(m, "LeakyRelu", {"x"}, {"y"}, "relu");
  return save_model(m, dir.file(dims ? "fixed.onnx" : "m.onnx"));
}

}  // namespace

TEST_CASE("a run in many small blocks makes the whole run's digests", "[streaming]") {
  TempDir dir;
  RunRequest r;
  r.model = model(dir);
  r.inputs = {"x=" + write_floats(dir, {300007}, 3)};
  r.keep_tensors = false;
  r.path = ExecPath::kWhole;
  const RunReport whole = run_model(r);
  CHECK_FALSE(whole.streamed);
  for (size_t block : {size_t{4096}, size_t{4100}, size_t{1} << 20}) {
    CAPTURE(block);
    r.path = ExecPath::kBlocks;
    r.block_bytes = block;
    const RunReport blocks = run_model(r);
    REQUIRE(blocks.streamed);
    CHECK_FALSE(blocks.runs[0].outputs[0].tensor.valid());  // nothing kept
    check_same_digest(blocks.runs[0].inputs[0].digest, whole.runs[0].inputs[0].digest);
    check_same_digest(blocks.runs[0].outputs[0].digest, whole.runs[0].outputs[0].digest);
  }
}

TEST_CASE("runs the block path must leave alone run whole", "[streaming]") {
  TempDir dir;
  RunRequest r;
  r.path = ExecPath::kBlocks;
  r.keep_tensors = false;
  // A 0-d input: one element, whole.
  const std::vector<int64_t> scalar;
  r.model = model(dir, &scalar);
  r.inputs = {"x=" + write_floats(dir, {}, 1)};
  CHECK_FALSE(run_model(r).streamed);
  // A caller that keeps the tensors; a literal.
  r.model = model(dir);
  r.inputs = {"x=" + write_floats(dir, {5000}, 2)};
  CHECK(run_model(r).streamed);
  r.keep_tensors = true;
  const RunReport kept = run_model(r);
  CHECK_FALSE(kept.streamed);
  CHECK(kept.runs[0].outputs[0].tensor.valid());
  r.keep_tensors = false;
  r.inputs = {"x=[1,2,3]"};
  CHECK_FALSE(run_model(r).streamed);
  // A --full print of more elements than a digest may keep.
  r.inputs = {"x=" + write_floats(dir, {kMaxShownElements + 1}, 4)};
  r.print.full = true;
  CHECK_FALSE(run_model(r).streamed);
  r.print.full = false;
  CHECK(run_model(r).streamed);
}

// A request to run m.onnx (model()) over test sets, keeping no tensors, as `onnx-run test` does.
RunRequest test_set_request(const TempDir& dir) {
  RunRequest r;
  r.model = model(dir);
  r.source = FeedSource::kTestSets;
  r.keep_tensors = false;
  return r;
}

// The checks of two runs: every number of the verdict the same, bit for bit.
void check_same_verdict(const SetRun& a, const SetRun& b) {
  REQUIRE(a.checks.size() == b.checks.size());
  for (size_t k = 0; k < a.checks.size(); ++k) {
    const Comparison &x = a.checks[k].comparison, &y = b.checks[k].comparison;
    CHECK(x.verdict() == y.verdict());
    CHECK(x.ok == y.ok);
    CHECK(x.mismatches == y.mismatches);
    CHECK(x.bit_differences == y.bit_differences);
    CHECK(x.worst_index == y.worst_index);
    CHECK(same_bits(x.errors.mean_abs, y.errors.mean_abs));
    CHECK(same_bits(x.errors.median_abs, y.errors.median_abs));
    CHECK(same_bits(x.errors.median_rel, y.errors.median_rel));
    CHECK(x.error_report("") == y.error_report(""));
  }
}

TEST_CASE("a test set in many small blocks makes the whole run's checks and digests", "[streaming]") {
  TempDir dir;
  RunRequest r = test_set_request(dir);
  const std::vector<int64_t> dims{300007};
  const std::string x = write_floats(dir, dims, 5);
  // The expected output: the whole run's own (passes), then one with every 7th element
  // off (fails, with a median to find).
  RunRequest whole_run = r;
  whole_run.source = FeedSource::kGiven;
  whole_run.inputs = {"x=" + x};
  whole_run.keep_tensors = true;
  whole_run.path = ExecPath::kWhole;
  const Tensor y = run_model(whole_run).runs[0].outputs[0].tensor;
  Tensor off(y.dtype(), y.shape());
  std::memcpy(off.mutable_raw(), y.raw(), y.nbytes());
  float* p = static_cast<float*>(off.mutable_raw());
  for (int64_t k = 0; k < off.numel(); k += 7) p[k] = std::nextafter(p[k], INFINITY) * 1.01f;
  // And outputs of another shape and of another type: the comparison's problem.
  const Tensor shorter(DType::kFloat, Shape{300006}, y.buffer());
  const Tensor doubles(DType::kDouble, y.shape());
  std::memset(doubles.buffer()->mutable_data(), 0, doubles.nbytes());
  const struct {
    std::string name;
    Tensor expected;
    bool passes;
  } sets[] = {{"pass", y, true}, {"fail", off, false}, {"shorter", shorter, false}, {"doubles", doubles, false}};
  for (const auto& [name, expected, passes] : sets) {
    CAPTURE(name);
    const std::string set = dir.file(name);
    std::filesystem::create_directories(set);
    std::filesystem::copy_file(x, set + "/input_0.pb", std::filesystem::copy_options::overwrite_existing);
    write_tensor_file(set + "/output_0.pb", expected, "y");
    r.test_sets = {{"test_data_set_0", set, list_test_set(set)}};
    r.path = ExecPath::kWhole;
    const RunReport w = run_model(r);
    REQUIRE_FALSE(w.streamed);
    REQUIRE_FALSE(w.runs[0].error);
    CHECK(all_passed(w) == passes);
    for (size_t block : {size_t{4096}, size_t{1} << 20}) {
      CAPTURE(block);
      r.path = ExecPath::kBlocks;
      r.block_bytes = block;
      const RunReport b = run_model(r);
      REQUIRE(b.streamed);
      REQUIRE_FALSE(b.runs[0].error);
      CHECK(all_passed(b) == all_passed(w));
      CHECK(b.mismatch_summary() == w.mismatch_summary());
      CHECK(b.runs[0].inputs[0].source == w.runs[0].inputs[0].source);
      check_same_verdict(b.runs[0], w.runs[0]);
      check_same_digest(b.runs[0].inputs[0].digest, w.runs[0].inputs[0].digest);
      check_same_digest(b.runs[0].outputs[0].digest, w.runs[0].outputs[0].digest);
    }
  }
}

TEST_CASE("a test set that cannot be run block by block fails as a whole run does", "[streaming]") {
  TempDir dir;
  RunRequest r = test_set_request(dir);
  const std::string set = dir.file("set");
  std::filesystem::create_directories(set);
  std::filesystem::copy_file(write_floats(dir, {5000}, 6), set + "/input_0.pb");
  // Two output files for the model's one output: the set's error, in either path, and
  // nothing else of the run set.
  write_tensor_file(set + "/output_0.pb", Tensor(DType::kFloat, Shape{5000}), "y");
  write_tensor_file(set + "/output_1.pb", Tensor(DType::kFloat, Shape{5000}), "z");
  r.test_sets = {{"test_data_set_0", set, list_test_set(set)}};
  std::string messages[2];
  for (ExecPath path : {ExecPath::kWhole, ExecPath::kBlocks}) {
    r.path = path;
    const RunReport report = run_model(r);
    REQUIRE(report.runs.size() == 1);
    REQUIRE(report.runs[0].error);
    CHECK(report.runs[0].outputs.empty());
    CHECK(report.runs[0].checks.empty());
    messages[path == ExecPath::kBlocks] = report.runs[0].labelled_error().what();
  }
  CHECK(messages[0] == messages[1]);
  CHECK(messages[0].find("2 output files for the model's 1 outputs") != std::string::npos);
}

TEST_CASE("past a million errors, a test set block by block passes over its blocks again for the medians",
          "[streaming]") {
  // Every element of the expected output off, so that the medians keep a bounded number
  // of errors (ErrorStatsBuilder::kKeptErrors): the verdict must be the whole run's, bit
  // for bit, median included. The first kKeptErrors errors are large and the rest, more
  // of them, one ULP: the middle lies outside the window the kept errors place, so the
  // blocks must be run again (a middle among errors alike is found in the first pass).
  TempDir dir;
  RunRequest r = test_set_request(dir);
  const auto kept = static_cast<int64_t>(ErrorStatsBuilder::kKeptErrors);
  const int64_t n = 2 * kept + 100003;
  const std::string x = write_floats(dir, {n}, 11);
  RunRequest whole_run = r;
  whole_run.source = FeedSource::kGiven;
  whole_run.inputs = {"x=" + x};
  whole_run.keep_tensors = true;
  whole_run.path = ExecPath::kWhole;
  const Tensor y = run_model(whole_run).runs[0].outputs[0].tensor;
  Tensor off(y.dtype(), y.shape());
  std::memcpy(off.mutable_raw(), y.raw(), y.nbytes());
  float* p = static_cast<float*>(off.mutable_raw());
  for (int64_t k = 0; k < n; ++k)
    p[k] = k < kept ? p[k] * 1.5f + 1 : std::nextafter(p[k], k % 3 ? INFINITY : -INFINITY);
  const std::string set = dir.file("all_off");
  std::filesystem::create_directories(set);
  std::filesystem::copy_file(x, set + "/input_0.pb");
  write_tensor_file(set + "/output_0.pb", off, "y");
  r.test_sets = {{"test_data_set_0", set, list_test_set(set)}};
  r.path = ExecPath::kWhole;
  const RunReport w = run_model(r);
  REQUIRE_FALSE(w.runs[0].error);
  REQUIRE(w.runs[0].checks.size() == 1);
  REQUIRE(w.runs[0].checks[0].comparison.bit_differences > static_cast<int64_t>(ErrorStatsBuilder::kKeptErrors));
  r.path = ExecPath::kBlocks;
  r.block_bytes = size_t{1} << 20;
  const RunReport b = run_model(r);
  REQUIRE(b.streamed);
  REQUIRE_FALSE(b.runs[0].error);
  CHECK(b.runs[0].block_passes >= 2);
  check_same_verdict(b.runs[0], w.runs[0]);
}
