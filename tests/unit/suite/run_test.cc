// The run pipeline (suite/run.h) in the library: every door gives the same bits, output
// files appear only on commit, a test set that cannot run is that set's result, and an
// unsupported model names its causes.
#include <filesystem>

#include <catch2/catch.hpp>

#include "core/error.h"
#include "io/streamed_tensor_file.h"
#include "io/tensor_file.h"
#include "io/test_data.h"
#include "suite/run.h"
#include "support/model_builder.h"
#include "support/op_runner.h"
#include "support/paths.h"
#include "support/shortcuts.h"

namespace fs = std::filesystem;
using namespace onnxrun;
using namespace onnxrun::test;

namespace {

// LeakyRelu-16 (default alpha) over float[3], with one test set whose expected output
// is written out by hand: 0.01f * -2 is exact in float32, so it is -0.02f.
struct Fixture {
  TempDir dir;
  std::string model = dir.file("model.onnx");
  std::string set = dir.file("test_data_set_0");
  Fixture() {
    save_model(leaky_relu_xy_model(16, onnx::TensorProto::FLOAT, {3}), model);
    fs::create_directories(set);
    write_tensor_file(set + "/input_0.pb", make_tensor<float>(DType::kFloat, {3}, {-2, 0.5f, 4}), "X");
    write_tensor_file(set + "/output_0.pb", make_tensor<float>(DType::kFloat, {3}, {-0.02f, 0.5f, 4}), "Y");
  }
  RunRequest test_sets() const {
    RunRequest r;
    r.model = model;
    r.source = FeedSource::kTestSets;
    r.test_sets.push_back({"test_data_set_0", set, list_test_set(set)});
    return r;
  }
};

std::vector<float> floats(const Tensor& t) { return {t.data<float>(), t.data<float>() + t.numel()}; }

}  // namespace

TEST_CASE("given inputs, a literal and a test set give the same bits", "[unit][run]") {
  Fixture f;
  RunRequest given;
  given.model = f.model;
  given.inputs = {"X=" + f.set + "/input_0.pb"};
  RunRequest literal;
  literal.model = f.model;
  literal.inputs = {"X=[-2,0.5,4]"};
  const RunReport a = run_model(given), b = run_model(literal), c = run_model(f.test_sets());
  const std::vector<float> want{-0.02f, 0.5f, 4};
  CHECK(floats(a.runs.at(0).outputs.at(0).tensor) == want);
  CHECK(floats(b.runs.at(0).outputs.at(0).tensor) == want);
  CHECK(floats(c.runs.at(0).outputs.at(0).tensor) == want);
  CHECK(a.runs[0].inputs.at(0).source == f.set + "/input_0.pb");
  CHECK(b.runs[0].inputs.at(0).source == "literal");
  CHECK(c.runs[0].inputs.at(0).source == "input_0.pb");
  REQUIRE(c.runs[0].checks.size() == 1);
  CHECK(c.runs[0].checks[0].comparison.ok);
  CHECK(all_passed(c));
}

TEST_CASE("output files appear on commit, and never from a report that is dropped", "[unit][run]") {
  Fixture f;
  RunRequest r = f.test_sets();
  r.output_dir = f.dir.file("out");
  {
    RunReport dropped = run_model(r);
    CHECK_FALSE(fs::exists(f.dir.file("out/output_0.pb")));
  }
  CHECK_FALSE(fs::exists(f.dir.file("out")));  // nothing left behind, not even the folder made for it
  RunReport kept = run_model(r);
  const std::vector<std::string> written = kept.commit_outputs();
  REQUIRE(written == std::vector<std::string>{f.dir.file("out/output_0.pb")});
  CHECK(floats(read_tensor_file(written[0]).tensor) == std::vector<float>{-0.02f, 0.5f, 4});
}

TEST_CASE("a test set that cannot run is its own result, the others still run", "[unit][run]") {
  Fixture f;
  const std::string bad = f.dir.file("test_data_set_1");
  fs::create_directories(bad);
  write_file(bad + "/input_0.pb", "not a tensor");
  write_tensor_file(bad + "/output_0.pb", make_tensor<float>(DType::kFloat, {3}, {0, 0, 0}), "Y");
  RunRequest r = f.test_sets();
  r.test_sets.insert(r.test_sets.begin(), {"test_data_set_1", bad, list_test_set(bad)});
  const RunReport report = run_model(r);
  REQUIRE(report.runs.size() == 2);
  REQUIRE(report.runs[0].error);
  // The error is the set's own; the set's label goes in front where one line names it.
  CHECK_THAT(report.runs[0].error->what(), Catch::Contains("not a valid TensorProto"));
  CHECK_THAT(report.runs[0].labelled_error().what(), Catch::StartsWith("test_data_set_1: "));
  CHECK(report.runs[1].passed());
  CHECK_FALSE(all_passed(report));
}

TEST_CASE("a mismatch is a verdict, not an error", "[unit][run]") {
  Fixture f;
  write_tensor_file(f.set + "/output_0.pb", make_tensor<float>(DType::kFloat, {3}, {-0.03f, 0.5f, 4}), "Y");
  const RunReport report = run_model(f.test_sets());
  REQUIRE(report.runs.at(0).checks.size() == 1);
  const Comparison& c = report.runs[0].checks[0].comparison;
  CHECK_FALSE(c.ok);
  CHECK(c.mismatches == 1);
  CHECK(c.worst_index == 0);
  CHECK_FALSE(report.runs[0].error);
}

TEST_CASE("an unsupported model throws with every cause, before any input is read", "[unit][run]") {
  Fixture f;
  save_model(leaky_relu_xy_model(16, 17 /* FLOAT8E4M3FN, newer than this onnx.proto */, {3}), f.model);
  RunRequest r;
  r.model = f.model;
  r.inputs = {"X=/does/not/exist.pb"};
  try {
    run_model(r);
    FAIL("ran");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::kUnsupported);
    REQUIRE(e.causes().size() == 1);
    CHECK(e.causes()[0].key() == "LeakyRelu(float8e4m3fn)");
  }
}

TEST_CASE("made-up inputs say so, and are the same for the same seed", "[unit][run]") {
  Fixture f;
  RunRequest r;
  r.model = f.model;
  r.source = FeedSource::kRandom;
  r.seed = 5;
  const RunReport a = run_model(r), b = run_model(r);
  CHECK_THAT(a.notice, Catch::Contains("made up random inputs"));
  CHECK(floats(a.runs.at(0).inputs.at(0).tensor) == floats(b.runs.at(0).inputs.at(0).tensor));
  CHECK(a.runs[0].inputs[0].source == "random");
}
