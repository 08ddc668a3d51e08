// An output computed in a shape other than the one the model declares (README, "Declared
// output shapes"): the run succeeds and writes it, with one warning per output, through
// every door that runs a model: -i (whole and block by block), test sets, -q, `test`
// (its lines, --json, --junit, --isolate) and bench.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/check_exit.h"
#include "support/model_builder.h"
#include "support/paths.h"
#include "support/process.h"

using namespace onnxrun::test;
namespace fs = std::filesystem;
using TP = onnx::TensorProto;

namespace {

const std::vector<float> kX = {-3, -2, -1, 0, 1, 2};
const std::vector<float> kY = {-0.03f, -0.02f, -0.01f, 0, 1, 2};
const std::string kWarning = "onnx-run: warning: graph output 'y' is declared float[2,4] but computed as float[2,3]\n";

// x[N,3] -> LeakyRelu -> y declared `y_dims` (-1: unknown), and with `second` a LeakyRelu
// x -> z declared [6]: two outputs computed [2,3].
std::string model_in(const std::string& dir, const std::vector<int64_t>& y_dims, bool second = false) {
  fs::create_directories(dir);
  onnx::ModelProto m = make_model(16);
  add_symbolic_input(m, "x", TP::FLOAT, {"N", "C"});
  add_output(m, "y", TP::FLOAT, y_dims);
  add_node(m, "LeakyRelu", {"x"}, {"y"}, "a");
  if (second) {
    add_output(m, "z", TP::FLOAT, {6});
    add_node(m, "LeakyRelu", {"x"}, {"z"}, "b");
  }
  return save_model(m, dir + "/model.onnx");
}

// `sets` test sets of x[2,3] and its expected y beside the model in `dir`.
void add_sets(const std::string& dir, int sets) {
  for (int k = 0; k < sets; ++k) {
    const std::string set = dir + "/test_data_set_" + std::to_string(k);
    fs::create_directories(set);
    write_message(set + "/input_0.pb", float_tensor("x", {2, 3}, kX));
    write_message(set + "/output_0.pb", float_tensor("y", {2, 3}, kY));
  }
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("a declared output shape that differs warns once per output, and the run succeeds and writes it",
          "[cli][declared_shapes]") {
  TempDir d;
  const std::string model = model_in(d.file("m"), {2, 4});
  write_message(d.file("x.pb"), float_tensor("x", {2, 3}, kX));
  for (const char* path : {"whole", "blocks"}) {
    CAPTURE(path);
    const std::string out = d.file(std::string("out_") + path);
    const ProcessResult r = run_cli({model, "-i", d.file("x.pb"), "-o", out, "--exec-path", path});
    CHECK_EXIT(r, 0);
    CHECK(r.err == kWarning);
    CHECK(fs::exists(out + "/output_0.pb"));
  }
  const ProcessResult quiet = run_cli({model, "-q", "-i", d.file("x.pb")});
  CHECK_EXIT(quiet, 0);
  CHECK(quiet.err.empty());
  const ProcessResult json = run_cli({model, "--json", "-i", d.file("x.pb")});
  CHECK_EXIT(json, 0);
  CHECK(json.err == kWarning);
  CHECK(nlohmann::json::parse(json.out)["outputs"][0]["shape"] == nlohmann::json({2, 3}));
  const ProcessResult bench = run_cli({"bench", model, "-i", d.file("x.pb"), "--repeat", "2"});
  CHECK_EXIT(bench, 0);
  CHECK(bench.err == kWarning);
}

TEST_CASE("test sets say a declared output shape once, however many, and -d too", "[cli][declared_shapes]") {
  TempDir d;
  const std::string model = model_in(d.file("m"), {2, 4});
  add_sets(d.file("m"), 2);
  const ProcessResult all = run_cli({model});
  CHECK_EXIT(all, 0);
  CHECK(all.err == kWarning);
  const ProcessResult one = run_cli({model, "-d", d.file("m/test_data_set_1")});
  CHECK_EXIT(one, 0);
  CHECK(one.err == kWarning);
}

TEST_CASE("a rank that differs warns, each output has its line, symbolic and unknown dims take any size",
          "[cli][declared_shapes]") {
  TempDir d;
  write_message(d.file("x.pb"), float_tensor("x", {2, 3}, kX));
  const ProcessResult two = run_cli({model_in(d.file("two"), {2, 4}, true), "-i", d.file("x.pb")});
  CHECK_EXIT(two, 0);
  CHECK(two.err == kWarning + "onnx-run: warning: graph output 'z' is declared float[6] but computed as float[2,3]\n");
  const ProcessResult free_dims = run_cli({model_in(d.file("free"), {-1, 3}), "-i", d.file("x.pb")});
  CHECK_EXIT(free_dims, 0);
  CHECK(free_dims.err.empty());
  // The input's symbols N and C are the output's here: a symbolic dim matches anything.
  onnx::ModelProto m = make_model(16);
  add_symbolic_input(m, "x", TP::FLOAT, {"N", "C"});
  onnx::ValueInfoProto* y = m.mutable_graph()->add_output();
  *y = m.graph().input(0);
  y->set_name("y");
  add_node(m, "LeakyRelu", {"x"}, {"y"}, "a");
  const ProcessResult symbolic = run_cli({save_model(m, d.file("sym.onnx")), "-i", d.file("x.pb")});
  CHECK_EXIT(symbolic, 0);
  CHECK(symbolic.err.empty());
}

TEST_CASE("onnx-run test shows a declared output shape once per test: its lines, --json, --junit, --isolate",
          "[cli][declared_shapes]") {
  TempDir d;
  model_in(d.file("tree/bad"), {2, 4});
  add_sets(d.file("tree/bad"), 2);
  model_in(d.file("tree/good"), {-1, 3});
  add_sets(d.file("tree/good"), 1);
  const std::string line = "    warning: graph output 'y' is declared float[2,4] but computed as float[2,3]\n";
  for (const char* isolate : {"--threads=1", "--isolate"}) {
    CAPTURE(isolate);
    const ProcessResult r =
        run_cli({"test", d.file("tree"), isolate, "--json", d.file("r.json"), "--junit", d.file("r.xml")});
    CHECK_EXIT(r, 0);
    CHECK(count(r.out, line) == 1);
    CHECK(r.out.find("passed      bad (") < r.out.find(line));
    const nlohmann::json j = nlohmann::json::parse(read_file(d.file("r.json")));
    for (const nlohmann::json& t : j["tests"]) {
      CAPTURE(t.dump());
      if (t["name"] == "bad")
        CHECK(t["warnings"] == nlohmann::json({"graph output 'y' is declared float[2,4] but computed as float[2,3]"}));
      else CHECK_FALSE(t.contains("warnings"));
    }
    const std::string xml = read_file(d.file("r.xml"));
    CHECK(count(xml,
                "<system-err>warning: graph output &apos;y&apos; is declared float[2,4] but computed as "
                "float[2,3]</system-err>") == 1);
  }
  const ProcessResult quiet = run_cli({"test", d.file("tree"), "-q"});
  CHECK_EXIT(quiet, 0);
  CHECK(quiet.out.find("warning") == std::string::npos);
  // report merge prints a shard's tests as test printed them: the warning under its test,
  // none with -q.
  REQUIRE_EXIT(run_cli({"test", d.file("tree"), "-q", "--shard", "1/1", "--json", d.file("s.json")}), 0);
  const ProcessResult merged = run_cli({"report", "merge", d.file("s.json")});
  CHECK_EXIT(merged, 0);
  CHECK(count(merged.out, line) == 1);
  CHECK(merged.out.find("passed      bad (") < merged.out.find(line));
  const ProcessResult merged_quiet = run_cli({"report", "merge", d.file("s.json"), "-q"});
  CHECK_EXIT(merged_quiet, 0);
  CHECK(merged_quiet.out.find("warning") == std::string::npos);
}
