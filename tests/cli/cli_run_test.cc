// The run command as a user runs it: the built binary on the project's testdata/,
// its outputs, its reports, and every rejection with its exit code and one-line cause.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "io/tensor_file.h"
#include "io/test_data.h"
#include "support/check_exit.h"
#include "support/model_builder.h"
#include "support/paths.h"
#include "support/process.h"

using namespace onnxrun;
using namespace onnxrun::test;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

std::string model_dir(const std::string& name) { return testdata_dir() + "/" + name; }
std::string model(const std::string& name) { return model_dir(name) + "/model.onnx"; }
std::string input0(const std::string& name) { return model_dir(name) + "/test_data_set_0/input_0.pb"; }
const std::string kFloat16 = "leakyrelu_opset16_float_default";

size_t count_lines(const std::string& s) { return static_cast<size_t>(std::count(s.begin(), s.end(), '\n')); }

bool folder_is_empty(const std::string& dir) { return !fs::exists(dir) || fs::is_empty(dir); }

// A rejection: the exit code, one line on stderr containing every word, nothing in `out_dir`.
void require_rejected(const ProcessResult& r, int code, std::initializer_list<const char*> words,
                      const std::string& out_dir = "") {
  INFO("stderr: " << r.err << "stdout: " << r.out);
  CHECK_EXIT(r, code);
  CHECK(count_lines(r.err) == 1);
  CHECK_THAT(r.err, Contains("onnx-run: "));
  for (const char* w : words) CHECK_THAT(r.err, Contains(w));
  if (!out_dir.empty()) CHECK(folder_is_empty(out_dir));
}

}  // namespace

TEST_CASE("every generated testdata model passes its test sets bit for bit", "[cli]") {
  size_t models = 0;
  for (const auto& entry : fs::directory_iterator(testdata_dir())) {
    if (!fs::exists(entry.path() / "model.onnx")) continue;
    INFO(entry.path());
    ProcessResult r = run_cli({(entry.path() / "model.onnx").string(), "--rtol", "0", "--atol", "0"});
    CHECK_EXIT(r, 0);
    CHECK_THAT(r.out, Contains("test_data_set_0: passed"));
    CHECK(r.err.empty());
    ++models;
  }
  CHECK(models >= 45);
}

TEST_CASE("-i and -o write output_<k>.pb named after the graph output", "[cli]") {
  TempDir out;
  ProcessResult r = run_cli({model("graph_chain_fanout"), "-i",
                             "x=" + model_dir("graph_chain_fanout") + "/test_data_set_0/input_0.pb", "-o", out.path()});
  REQUIRE_EXIT(r, 0);
  CHECK_THAT(r.out, Contains("input 'x': float[3,4]") && Contains("output 'c'") && Contains("output 'd'"));
  for (int k = 0; k < 3; ++k) {
    NamedTensor got = read_tensor_file(out.file("output_" + std::to_string(k) + ".pb"));
    NamedTensor want =
        read_tensor_file(model_dir("graph_chain_fanout") + "/test_data_set_0/output_" + std::to_string(k) + ".pb");
    CHECK(got.name == want.name);
    CHECK(got.tensor.describe() == want.tensor.describe());
    CHECK(std::memcmp(got.tensor.raw(), want.tensor.raw(), want.tensor.nbytes()) == 0);
  }
  // Only the outputs are left: no temporary files.
  CHECK(std::distance(fs::directory_iterator(out.path()), fs::directory_iterator()) == 3);
  // Positional binding and -q: nothing on stdout.
  r = run_cli({model(kFloat16), "-i", input0(kFloat16), "-q"});
  CHECK_EXIT(r, 0);
  CHECK(r.out.empty());
}

TEST_CASE("-d runs one test set, a mismatch exits 1 with the worst element", "[cli]") {
  ProcessResult r = run_cli({model("leakyrelu_opset6_float_alpha0.1"), "-d",
                             model_dir("leakyrelu_opset6_float_default") + "/test_data_set_0"});
  CHECK_EXIT(r, 1);
  CHECK_THAT(r.out, Contains("FAILED") && Contains("elements differ") &&
                        Contains("worst (largest error for its tolerance) at [") && Contains("(0x") &&
                        Contains("would pass with atol >="));
  // Loose enough tolerances make it pass.
  r = run_cli({model("leakyrelu_opset6_float_alpha0.1"), "-d",
               model_dir("leakyrelu_opset6_float_default") + "/test_data_set_0", "--rtol", "10", "-q"});
  CHECK_EXIT(r, 0);
  CHECK(r.out.empty());
  // -q on a failing set: the failure and the tally, no values.
  r = run_cli({model("leakyrelu_opset6_float_alpha0.1"), "-d",
               model_dir("leakyrelu_opset6_float_default") + "/test_data_set_0", "-q"});
  CHECK_EXIT(r, 1);
  CHECK_THAT(r.out, Contains("FAILED") && Contains("0 of 1 test sets passed") && !Contains("min "));
}

TEST_CASE("a test set that cannot run is named once in its error, on stderr alone when it is the only set", "[cli]") {
  TempDir dir;
  const std::filesystem::path set = std::filesystem::path(dir.path()) / "test_data_set_0";
  std::filesystem::create_directories(set);
  std::filesystem::copy_file(model(kFloat16), dir.path() + "/model.onnx");
  std::filesystem::copy_file(input0(kFloat16), set / "input_0.pb");  // no output_0.pb
  for (bool quiet : {false, true}) {
    std::vector<std::string> args = {dir.path() + "/model.onnx"};
    if (quiet) args.push_back("-q");
    const ProcessResult r = run_cli(args);
    INFO(r.out << r.err);
    CHECK_EXIT(r, 3);
    // Not on stdout too: the one set's error was printed twice.
    CHECK_THAT(r.out, !Contains("0 output files"));
    CHECK(r.err == "onnx-run: test_data_set_0: 0 output files for the model's 1 outputs\n");
  }
  // --json: the set's name and its error side by side, the error not naming it again.
  const ProcessResult r = run_cli({dir.path() + "/model.onnx", "--json"});
  INFO(r.out << r.err);
  CHECK_EXIT(r, 3);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["test_sets"][0]["name"] == "test_data_set_0");
  CHECK(j["test_sets"][0]["error"] == "0 output files for the model's 1 outputs");
  CHECK(r.err == "onnx-run: test_data_set_0: 0 output files for the model's 1 outputs\n");
}

TEST_CASE("control characters in a file name reach stderr escaped, on one line", "[cli]") {
  TempDir dir;
  const ProcessResult r = run_cli({model(kFloat16), "-i", "x=" + dir.path() + "/a\x1b[31m\nb.npy"});
  CHECK_EXIT(r, 3);
  CHECK_THAT(r.err, Contains("a\\x1b[31m b.npy"));
  CHECK(r.err.find('\x1b') == std::string::npos);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
}

TEST_CASE("a per-output tolerance for no output of the model is refused, not ignored", "[cli]") {
  for (const char* option : {"--atol", "--rtol"}) {
    const ProcessResult r = run_cli({model(kFloat16), "-i", "x=" + input0(kFloat16), option, "z:0.5"});
    CHECK_EXIT(r, 2);
    CHECK_THAT(r.err, Contains(std::string(option) + " z:0.5: no value 'z' among the model's outputs (y)"));
  }
  CHECK_EXIT(run_cli({model(kFloat16), "-i", "x=" + input0(kFloat16), "--atol", "y:0.5", "-q"}), 0);
}

TEST_CASE("the model's inputs, bound wrongly, are refused with exit 3 and nothing written", "[cli]") {
  TempDir out;
  const std::string o = out.path() + "/o";
  const std::string m = model(kFloat16);
  const std::string x = input0(kFloat16);
  require_rejected(run_cli({m, "-i", "z=" + x, "-o", o}), 3, {"unknown input 'z'", "x (float[2,3,5])"}, o);
  require_rejected(run_cli({m, "-i", "x=" + x, "-i", "x=" + x, "-o", o}), 3, {"'x' is given twice"}, o);
  require_rejected(run_cli({m, "-i", x, "-i", x, "-o", o}), 3, {"input #1", "takes 1"}, o);
  require_rejected(run_cli({m, "-i", "x=" + input0("leakyrelu_opset16_double_default"), "-o", o}), 3,
                   {"input 'x'", "double[2,3,5]", "declares float[2,3,5]"}, o);
  require_rejected(run_cli({m, "-i", "x=" + model_dir("graph_chain_fanout") + "/test_data_set_0/input_0.pb", "-o", o}),
                   3, {"input 'x'", "rank 2", "rank 3"}, o);
  require_rejected(run_cli({model("graph_chain_fanout"), "-i", "x=" + input0(kFloat16), "-o", o}), 3,
                   {"rank 3", "declares rank 2"}, o);
  require_rejected(run_cli({m, "-i", "x=" + out.file("missing.pb"), "-o", o}), 3, {"cannot open", "missing.pb"}, o);
  require_rejected(run_cli({m, "-i", "x=" + m, "-o", o}), 3, {"not a valid TensorProto"}, o);
}

TEST_CASE("corrupt, missing and unsupported models are refused with exit 3", "[cli]") {
  TempDir dir;
  const std::string o = dir.file("out");
  {
    std::FILE* f = std::fopen(dir.file("bad.onnx").c_str(), "wb");
    std::fputs("\x08\x07garbage\xff\xff", f);
    std::fclose(f);
  }
  require_rejected(run_cli({dir.file("bad.onnx"), "-o", o}), 3, {"bad.onnx", "not a valid ONNX model"}, o);
  require_rejected(run_cli({dir.file("none.onnx")}), 3, {"cannot open", "none.onnx"});
  save_model(leaky_relu_model(6, onnx::TensorProto::BFLOAT16), dir.file("bf16.onnx"));
  require_rejected(run_cli({dir.file("bf16.onnx"), "-o", o}), 3, {"bfloat16", "v6 (6-15)", "node 'leaky'"}, o);
  auto m = leaky_relu_model(13);
  m.mutable_graph()->mutable_node(0)->set_op_type("Gelu");
  save_model(m, dir.file("gelu.onnx"));
  require_rejected(run_cli({dir.file("gelu.onnx")}), 3, {"Gelu", "not implemented", "opset 13"});
}

TEST_CASE("usage errors exit 2 with one line", "[cli]") {
  const std::string m = model(kFloat16);
  require_rejected(run_cli({m, "--no-such-flag"}), 2, {"--no-such-flag"});
  require_rejected(run_cli({}), 2, {"MODEL is required"});
  require_rejected(run_cli({m, "-i", "=" + input0(kFloat16)}), 2, {"expected [NAME=]FILE"});
  require_rejected(run_cli({m, "-i", input0(kFloat16), "-d", model_dir(kFloat16) + "/test_data_set_0"}), 2,
                   {"not both"});
  require_rejected(run_cli({m, "--rtol", "-1"}), 2, {"rtol"});
  require_rejected(run_cli({m, "-o", "/tmp/x"}), 2, {"-o needs one run", "-d"});
}

TEST_CASE("an output folder that cannot be written is refused and leaves nothing", "[cli]") {
  TempDir dir;
  {
    std::FILE* f = std::fopen(dir.file("a_file").c_str(), "wb");
    std::fclose(f);
  }
  require_rejected(run_cli({model(kFloat16), "-i", input0(kFloat16), "-o", dir.file("a_file") + "/sub"}), 3,
                   {"cannot create output folder"});
  fs::create_directory(dir.file("ro"));
  fs::permissions(dir.file("ro"), fs::perms::owner_read | fs::perms::owner_exec);
  if (::geteuid() != 0) {  // root writes anyway; the case above covers root
    require_rejected(run_cli({model(kFloat16), "-i", input0(kFloat16), "-o", dir.file("ro")}), 3, {"cannot write"},
                     dir.file("ro"));
  }
  fs::permissions(dir.file("ro"), fs::perms::owner_all);
}

TEST_CASE("--help and --version print to stdout and exit 0", "[cli]") {
  ProcessResult r = run_cli({"--help"});
  CHECK_EXIT(r, 0);
  CHECK_THAT(r.out, Contains("Examples:") && Contains("Exit status"));
  r = run_cli({"--version"});
  CHECK_EXIT(r, 0);
  CHECK_THAT(r.out, Contains("onnx-run") && Contains("opsets up to 28"));
}
