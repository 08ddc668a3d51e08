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
#include "model/graph.h"
#include "suite/baseline.h"
#include "suite/compare_sets.h"
#include "suite/expected_outputs.h"
#include "suite/json_documents.h"
#include "suite/report_file.h"
#include "suite/report_merge.h"

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
    const std::vector<TestResult> baseline = read_baseline(path);
    const BaselineDiff diff = compare_with_baseline(m.tests, baseline);
    (void)updated_baseline(m.tests, baseline);
    (void)diff;
  } catch (const Error&) {
  }
}

}  // namespace onnxrun::fuzz
