// The mistakes a new user makes first, each with a message that says what to do
// instead: a folder or a tensor file given as the model, -d on a folder that is not a
// test set. Each is one line on stderr with exit code 3 and nothing on stdout.
#include <catch2/catch.hpp>

#include <filesystem>

#include "support/check_exit.h"
#include "support/model_tree.h"
#include "support/paths.h"
#include "support/process.h"

using namespace onnxrun::test;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

void require_one_line(const ProcessResult& r, const std::string& wanted) {
  CHECK_EXIT(r, 3);
  CHECK(r.err == "onnx-run: " + wanted + "\n");
  CHECK(r.out.empty());
}

}  // namespace

TEST_CASE("a folder as the model names the model in it, or says what to run instead", "[cli][mistakes]") {
  TempDir d;
  write_leaky_test(d.file("m"));
  require_one_line(run_cli({d.file("m")}), d.file("m") + " is a folder; its model is " + d.file("m/model.onnx"));
  require_one_line(run_cli({"info", d.file("m")}),
                   d.file("m") + " is a folder; its model is " + d.file("m/model.onnx"));
  require_one_line(run_cli({d.path()}), d.path() + " is a folder, not a model: `onnx-run test " + d.path() +
                                            "` runs the model tests under it, `onnx-run MODEL -d " + d.path() +
                                            "` one test set");
}

TEST_CASE("a TensorProto given as the model says so and points at -i", "[cli][mistakes]") {
  TempDir d;
  write_leaky_test(d.file("m"));
  const std::string tensor = d.file("m/test_data_set_0/input_0.pb");
  require_one_line(run_cli({tensor}),
                   tensor + ": a tensor (TensorProto) file, not a model: give it to a model as an input with -i");
}

TEST_CASE("-d on a folder that is not a test set says what a test set holds", "[cli][mistakes]") {
  TempDir d;
  write_leaky_test(d.file("m"));
  require_one_line(run_cli({d.file("m/model.onnx"), "-d", d.file("m")}),
                   "-d " + d.file("m") +
                       ": not a test set: a test set folder (test_data_set_N) holds input_0.pb, input_1.pb, ... and "
                       "output_0.pb, ... (its test sets: " +
                       d.file("m/test_data_set_0") + ")");
}

TEST_CASE("a literal that overflows its type is taken as inf with a warning naming the input", "[cli][mistakes]") {
  struct Case {
    const char* type;
    const char* literal;
    const char* warning;
  };
  for (const Case& c :
       {Case{"float", "[1e40,2,-1e39]", "1e40 is beyond float's range and becomes inf (and 1 more value)"},
        Case{"float16", "[1,65520,3]", "65520 is beyond float16's range and becomes inf"},
        Case{"bfloat16", "[-3.3e38,-3.5e38,0]", "-3.5e38 is beyond bfloat16's range and becomes -inf"},
        Case{"double", "[1e400,inf,0]", "1e400 is beyond double's range and becomes inf"}}) {
    INFO(c.type);
    const std::string m = testdata_dir() + "/leakyrelu_opset16_" + c.type + "_default/model.onnx";
    std::string arg = std::string("x=") + c.literal;  // three values, then 27 zeros for float[2,3,5]
    arg.pop_back();
    for (int k = 0; k < 27; ++k) arg += ",0";
    arg += "]";
    const auto r = run_cli({m, "-i", arg, "--shape", "x=2,3,5", "--json"});
    CHECK_EXIT(r, 0);
    CHECK(r.err == "onnx-run: warning: input 'x' (-i " + arg + "): " + c.warning + "\n");
    CHECK_THAT(r.out, Contains("inf"));
    CHECK(run_cli({"-q", m, "-i", arg, "--shape", "x=2,3,5"}).err.empty());
  }
  // Within range, or inf written as inf: no warning.
  const std::string f = testdata_dir() + "/leakyrelu_opset16_float_default/model.onnx";
  std::string in_range = "x=[3.4e38,inf,-inf";
  for (int k = 0; k < 27; ++k) in_range += ",0";
  const auto r = run_cli({f, "-i", in_range + "]", "--shape", "x=2,3,5"});
  CHECK_EXIT(r, 0);
  CHECK(r.err.empty());
}
