// Running tests of `onnx-run test` on models made here: every outcome, tolerances from
// data.json, the light layout, stable order under parallelism, and isolation catching a
// deliberate crash (SIGSEGV from the test-only hook) and a hang (--timeout).
#include <catch2/catch.hpp>

#include <csignal>

#include "suite/discovery.h"
#include "suite/runner.h"
#include "support/model_tree.h"
#include "support/paths.h"

using namespace onnxrun;
using namespace onnxrun::test;

namespace {

// pass/, fail/, unsup/, broken/, tol/ (off by 1% with rtol 0.05 in data.json),
// light/light_c.onnx (constant input, expected output beside it),
// light/light_needs_input.onnx (an input but no input file: unsupported).
void make_tree(const TempDir& d) {
  write_leaky_test(d.file("pass"));
  write_leaky_test(d.file("fail"), 2.0f);
  write_unknown_op_model(d.file("unsup/model.onnx"), "Conv");
  write_float_tensor(d.file("unsup/test_data_set_0/input_0.pb"), {1, 2, 3, 4});
  write_float_tensor(d.file("unsup/test_data_set_0/output_0.pb"), {1, 2, 3, 4});
  write_text_file(d.file("broken/model.onnx"), "this is not protobuf");
  write_leaky_test(d.file("tol"), 1.01f);
  write_text_file(d.file("tol/data.json"), R"({"rtol": 0.05, "atol": 0})");
  const std::vector<float> x{-4, -1, 0, 5};
  write_leaky_model(d.file("light/light_c.onnx"), 0.25f, x);
  write_float_tensor(d.file("light/light_c_output_0.pb"), leaky(x, 0.25f));
  write_leaky_model(d.file("light/light_needs_input.onnx"), 0.25f);
  write_float_tensor(d.file("light/light_needs_input_output_0.pb"), leaky(x, 0.25f));
}

const TestResult& find(const std::vector<TestResult>& rs, const std::string& name) {
  for (const TestResult& r : rs)
    if (r.name == name) return r;
  FAIL("no result for " << name);
  throw 0;
}

}  // namespace

TEST_CASE("each test gets its outcome and nothing aborts the run", "[suite]") {
  TempDir d;
  make_tree(d);
  const auto tests = discover_tests({d.path()});
  REQUIRE(tests.size() == 7);
  const auto rs = run_tests(tests, RunnerOptions{});
  REQUIRE(rs.size() == 7);
  CHECK(find(rs, "pass").outcome == Outcome::kPassed);
  CHECK(find(rs, "pass").message.empty());
  CHECK(find(rs, "pass").sets == 1);
  const TestResult& fail = find(rs, "fail");
  CHECK(fail.outcome == Outcome::kFailed);
  CHECK_THAT(fail.message, Catch::Contains("test_data_set_0: output 'y'") &&
                               Catch::Contains("worst (largest error for its tolerance) at"));
  const TestResult& unsup = find(rs, "unsup");
  CHECK(unsup.outcome == Outcome::kUnsupported);
  CHECK(unsup.causes == std::vector<std::string>{"Conv"});
  const TestResult& broken = find(rs, "broken");
  CHECK(broken.outcome == Outcome::kError);
  CHECK_THAT(broken.message, Catch::Contains("not a valid ONNX model"));
  CHECK(find(rs, "tol").outcome == Outcome::kPassed);  // data.json's rtol 0.05 allows 1%
  CHECK(find(rs, "light/light_c").outcome == Outcome::kPassed);
  const TestResult& needs = find(rs, "light/light_needs_input");
  CHECK(needs.outcome == Outcome::kUnsupported);  // ONNX's light layout has no inputs
  CHECK(needs.causes == std::vector<std::string>{"no input data (light layout)"});
  CHECK_THAT(needs.message, Catch::Contains("light_needs_input_*.pb: no input data for the model's inputs"));
}

TEST_CASE("without data.json the command line's tolerance applies", "[suite]") {
  TempDir d;
  write_leaky_test(d.file("tol"), 1.01f);
  RunnerOptions o;
  CHECK(run_tests(discover_tests({d.path()}), o)[0].outcome == Outcome::kFailed);
  o.case_options.tol.rtol = 0.05;
  CHECK(run_tests(discover_tests({d.path()}), o)[0].outcome == Outcome::kPassed);
}

TEST_CASE("results keep the tests' order whatever the parallelism", "[suite]") {
  TempDir d;
  make_tree(d);
  const auto tests = discover_tests({d.path()});
  RunnerOptions one, four;
  four.jobs = 4;
  size_t calls = 0;
  const auto a = run_tests(tests, one);
  const auto b = run_tests(tests, four, [&](size_t, const TestResult&) { ++calls; });
  CHECK(calls == tests.size());
  REQUIRE(a.size() == b.size());
  for (size_t k = 0; k < a.size(); ++k) {
    CHECK(a[k].name == tests[k].name);
    CHECK(b[k].name == tests[k].name);
    CHECK(a[k].outcome == b[k].outcome);
    CHECK(a[k].message == b[k].message);
  }
}

TEST_CASE("isolation records a crashing child with its signal and goes on", "[suite]") {
  TempDir d;
  make_tree(d);
  const auto tests = discover_tests({d.path()});
  RunnerOptions o;
  o.isolate = true;
  o.jobs = 2;
  o.case_options.crash_on = "^pass$";
  const auto rs = run_tests(tests, o);
  REQUIRE(rs.size() == tests.size());
  const TestResult& crashed = find(rs, "pass");
  CHECK(crashed.outcome == Outcome::kCrashed);
  CHECK(crashed.signal == SIGSEGV);
  CHECK_THAT(crashed.message, Catch::Contains("SIGSEGV"));
  // The others ran in their own children and came back whole.
  CHECK(find(rs, "fail").outcome == Outcome::kFailed);
  CHECK_THAT(find(rs, "fail").message, Catch::Contains("worst (largest error for its tolerance) at"));
  CHECK(find(rs, "unsup").causes == std::vector<std::string>{"Conv"});
  CHECK(find(rs, "tol").outcome == Outcome::kPassed);
}

// [serial]: test b must finish within the 0.3 s timeout, so it runs alone (tests/CMakeLists.txt).
TEST_CASE("a test that hangs past --timeout is killed and recorded", "[suite][serial]") {
  TempDir d;
  write_leaky_test(d.file("a"));
  write_leaky_test(d.file("b"));
  RunnerOptions o;
  o.timeout = 0.3;  // implies isolation
  o.case_options.hang_on = "^a$";
  const auto rs = run_tests(discover_tests({d.path()}), o);
  REQUIRE(rs.size() == 2);
  CHECK(rs[0].outcome == Outcome::kTimeout);
  CHECK(rs[0].seconds >= 0.3);
  CHECK_THAT(rs[0].message, Catch::Contains("still running after 0.3 s"));
  CHECK(rs[1].outcome == Outcome::kPassed);
}

TEST_CASE("a folder with data.json and no model is reported unsupported, with its URL", "[suite]") {
  TempDir d;
  write_text_file(d.file("real/test_r/data.json"), R"({"url": "https://example.org/r.tar.gz", "rtol": 0.01})");
  const auto rs = run_tests(discover_tests({d.path()}), RunnerOptions{});
  REQUIRE(rs.size() == 1);
  CHECK(rs[0].outcome == Outcome::kUnsupported);
  CHECK_THAT(rs[0].message, Catch::Contains("https://example.org/r.tar.gz"));
}

// A type ONNX does not allow is the model's fault, an error; only the types onnx-run
// implements nowhere (float8, 4-bit, ...) are gaps, with a cause. Before, LeakyRelu on
// int32 was "unsupported": a skip, exit 0.
TEST_CASE("unsupported causes name the op and type or version the loader refused", "[suite]") {
  TempDir d;
  write_leaky_model_typed(d.file("bf16_v6/model.onnx"), 6, 16);  // bfloat16 needs LeakyRelu-16
  write_leaky_model_typed(d.file("int_v16/model.onnx"), 16, 6);  // int32 is never allowed
  write_leaky_model_typed(d.file("f8_v16/model.onnx"), 16, 17);  // float8e4m3fn: no kernel takes it
  write_leaky_model_typed(d.file("fine/model.onnx"), 16, 1);     // loads; has no test sets
  const auto rs = run_tests(discover_tests({d.path()}), RunnerOptions{});
  REQUIRE(rs.size() == 4);
  for (const char* invalid : {"bf16_v6", "int_v16"}) {
    CHECK(find(rs, invalid).outcome == Outcome::kError);
    CHECK(find(rs, invalid).causes.empty());
  }
  CHECK_THAT(find(rs, "int_v16").message, Catch::Contains("input 0 has type int32"));
  CHECK(find(rs, "f8_v16").outcome == Outcome::kUnsupported);
  CHECK(find(rs, "f8_v16").causes == std::vector<std::string>{"LeakyRelu(float8e4m3fn)"});
  CHECK(find(rs, "fine").outcome == Outcome::kNoData);  // loads, and there is nothing to compare
  CHECK_THAT(find(rs, "fine").message, Catch::Contains("no test data: no test_data_set_* folders"));
}
