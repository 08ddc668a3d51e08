// The fuzz cases of what the verdict reads (fuzz_cases.h): result files for `compare` and
// `--expected`, and reports for `report merge` and `--baseline`.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "core/error.h"
#include "fuzz_cases.h"
#include "io/streamed_tensor_file.h"
#include "io/tensor_file.h"
#include "io/test_data.h"
#include "model/graph.h"
#include "onnx/onnx.pb.h"
#include "suite/baseline.h"
#include "suite/compare_sets.h"
#include "suite/expected_outputs.h"
#include "suite/json_documents.h"
#include "suite/report_file.h"
#include "suite/report_merge.h"
#include "suite/run.h"
#include "support/shortcuts.h"

namespace fs = std::filesystem;

namespace onnxrun::fuzz {
namespace {

void write_text(const std::string& path, const std::string& text) {
  write_bytes(path, reinterpret_cast<const uint8_t*>(text.data()), text.size());
}

// A folder holding the one result file named `name` made of the bytes.
std::string result_folder(const std::string& dir, const std::string& name, const uint8_t* data, size_t size) {
  const std::string folder = dir + "/a";
  fs::remove_all(folder);
  fs::create_directories(folder);
  write_bytes(folder + "/" + name, data, size);
  return folder;
}

// The other side of the comparison, in `dir`/b: y = [-1, 0, 1, 2] in float.
std::string reference_folder(const std::string& dir) {
  const std::string b = dir + "/b";
  if (fs::exists(b + "/output_0.pb")) return b;
  fs::create_directories(b);
  Tensor y(DType::kFloat, Shape{4});
  float* p = static_cast<float*>(y.mutable_raw());
  p[0] = -1, p[1] = 0, p[2] = 1, p[3] = 2;
  write_tensor_file(b + "/output_0.pb", y, "y");
  return b;
}

// A test of y = LeakyRelu(x), x float[4], in `dir`/test: model.onnx and
// test_data_set_0/input_0.pb (written once). Returns the set's folder.
std::string leaky_relu_test(const std::string& dir) {
  const std::string set = dir + "/test/test_data_set_0";
  if (fs::exists(set + "/input_0.pb")) return set;
  fs::create_directories(set);
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(16);
  onnx::GraphProto* g = m.mutable_graph();
  g->set_name("g");
  onnx::NodeProto* n = g->add_node();
  n->set_op_type("LeakyRelu");
  n->add_input("x");
  n->add_output("y");
  for (onnx::ValueInfoProto* v : {g->add_input(), g->add_output()}) {
    v->set_name(v == &g->input(0) ? "x" : "y");
    onnx::TypeProto::Tensor* t = v->mutable_type()->mutable_tensor_type();
    t->set_elem_type(onnx::TensorProto::FLOAT);
    t->mutable_shape()->add_dim()->set_dim_value(4);
  }
  const std::string model = m.SerializeAsString();
  write_bytes(dir + "/test/model.onnx", reinterpret_cast<const uint8_t*>(model.data()), model.size());
  write_tensor_file(set + "/input_0.pb", read_tensor_file(reference_folder(dir) + "/output_0.pb").tensor, "x");
  return set;
}

// A small shard report: one test, slice 1/2, with `name` and `outcome`.
std::string shard_report(int slice, const std::string& name, const std::string& outcome) {
  return R"({"generator": "onnx-run fuzz", "run": {"paths": ["t"], "shard": ")" + std::to_string(slice) +
         R"(/2", "rtol": 0.001, "atol": 1e-07}, "summary": {"total": 1, "seconds": 0.5}, "tests": [{"name": ")" + name +
         R"(", "outcome": ")" + outcome + R"(", "seconds": 0.1, "message": "", "model": "t/)" + name +
         R"(/model.onnx", "sets": 1}]})";
}

}  // namespace

void result_file_case(const uint8_t* data, size_t size, const std::string& dir) {
  if (size == 0) return;
  // The first byte chooses the file's name (so its format) and the tolerance.
  static const char* const kNames[] = {"output_0.pb", "output_0.npy", "outputs.npz", "y.npy"};
  const uint8_t pick = data[0];
  const std::string a = result_folder(dir, kNames[pick % 4], data + 1, size - 1);
  Tolerance tol;
  if (pick & 0x10) tol.exact = true;
  else if (pick & 0x20) tol.max_ulp = pick & 0x0f;
  // `onnx-run compare A B`, as the command runs it, rendered.
  try {
    const SetsComparison s = compare_result_sets(a, reference_folder(dir), tol);
    (void)compare_json(s);
    (void)s.mismatch_summary();
  } catch (const Error&) {
  }
  // `onnx-run test` of a LeakyRelu test whose expected output_0.pb is the file, block by
  // block (two elements a block): the expected output streamed beside the computed one.
  if (pick % 4 == 0) {
    const std::string set = leaky_relu_test(dir);
    write_bytes(set + "/output_0.pb", data + 1, size - 1);
    RunRequest r;
    r.model = dir + "/test/model.onnx";
    r.source = FeedSource::kTestSets;
    r.threads = 1;
    r.keep_tensors = false;
    r.path = ExecPath::kBlocks;
    r.block_bytes = 8;
    r.tol = tol;
    try {
      r.test_sets = {{"test_data_set_0", set, list_test_set(set)}};
      const RunReport report = run_model(r);
      (void)run_json(report);
      (void)report.mismatch_summary();
    } catch (const Error&) {
    }
  }
  // `--expected A` for a graph whose one output is y, float[4].
  Graph g;
  g.outputs.push_back(ValueInfo{"y", DType::kFloat, std::vector<Dim>{Dim{4}}});
  try {
    (void)read_expected_outputs(g, {a});
  } catch (const Error&) {
  }
}

void report_case(const uint8_t* data, size_t size, const std::string& dir) {
  const std::string path = dir + "/report.json";
  write_bytes(path, data, size);
  const std::string other = dir + "/shard1.json";
  write_text(other, shard_report(1, "good", "passed"));
  // `onnx-run report merge shard1.json report.json --baseline report.json`.
  try {
    const std::vector<ReportFile> shards = {read_report_file(other, "report"), read_report_file(path, "report")};
    const MergedReport m = merge_reports(shards);
    (void)test_report_json(m.run, m.summary, m.tests, &m.merge);
    const std::vector<TestResult> baseline = read_baseline(path).tests;
    const BaselineDiff diff = compare_with_baseline(m.tests, baseline);
    (void)updated_baseline(m.tests, &baseline, false);
    (void)diff;
  } catch (const Error&) {
  }
}

}  // namespace onnxrun::fuzz
