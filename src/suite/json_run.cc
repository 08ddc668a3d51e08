// The `onnx-run MODEL --json` document (schema in suite/json_documents.h).

#include <cmath>
#include <cstdlib>

#include "core/tensor_stats.h"
#include "io/tensor_json.h"
#include "suite/json_documents.h"
#include "suite/run.h"

namespace onnxrun {
namespace {

using nlohmann::ordered_json;

// Up to the microsecond: the digits below it are the clock's noise.
double to_microseconds(double ms) { return std::round(ms * 1000) / 1000; }

constexpr int64_t kSummariseAbove = 1000;  // as the printed arrays (io/tensor_text.h)

ordered_json json_tensor(const RunValue& v, bool full, const OutputVerdict* check) {
  ordered_json j;
  j["name"] = v.name;
  const Tensor& t = v.tensor;
  if (t.valid()) {
    j["type"] = dtype_name(t.dtype());
    j["shape"] = t.shape();
  }
  j["source"] = v.source;
  const TensorStats s = t.valid() ? tensor_stats(t) : TensorStats{};
  if (s.numeric) j["stats"] = tensor_stats_json(s, t.dtype());
  const bool shown = t.valid() && s.numeric && (full || t.numel() <= kSummariseAbove);
  j["values"] = shown ? tensor_values_json(t) : ordered_json(nullptr);
  j["truncated"] = t.valid() && s.numeric && !shown;
  if (check) j["comparison"] = comparison_json(check->comparison);
  return j;
}

ordered_json json_values(const std::vector<RunValue>& values, bool full, const std::vector<OutputVerdict>* checks) {
  ordered_json list = ordered_json::array();
  for (size_t k = 0; k < values.size(); ++k)
    list.push_back(json_tensor(values[k], full, checks && k < checks->size() ? &(*checks)[k] : nullptr));
  return list;
}

}  // namespace

namespace {

// An element's shortest text as a JSON number; a bool's ("True") as its value.
ordered_json element_json(const std::string& text, double value) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  return json_real(!text.empty() && *end == 0 ? v : value);
}

}  // namespace

ordered_json comparison_json(const Comparison& c) {
  ordered_json j;
  j["ok"] = c.ok;
  j["elements"] = c.numel;
  j["mismatches"] = c.mismatches;
  if (!c.problem.empty()) {
    j["problem"] = c.problem;
    return j;
  }
  if (c.worst_index >= 0) {
    j["worst"] = {{"index", c.worst_index},
                  {"position", c.worst_position},
                  // In the tensor's own type's shortest digits, as the printed arrays show them.
                  {"expected", element_json(c.expected_text, c.expected)},
                  {"actual", element_json(c.actual_text, c.actual)},
                  {"expected_bits", c.expected_bits},
                  {"actual_bits", c.actual_bits},
                  {"abs_err", json_real(c.abs_err)},
                  {"rel_err", json_real(c.rel_err)}};
  }
  j["needed_atol"] = json_real(c.needed_atol);
  j["needed_rtol"] = json_real(c.needed_rtol);
  return j;
}

std::string run_json(const RunReport& report, bool full) {
  ordered_json j;
  j["model"] = report.model;
  if (report.source != FeedSource::kTestSets) {
    const SetRun& run = report.runs.at(0);
    j["inputs"] = json_values(run.inputs, full, nullptr);
    j["outputs"] = json_values(run.outputs, full, nullptr);
    j["timings_ms"] = {{"load", to_microseconds(report.load_ms)},
                       {"inputs", to_microseconds(run.input_ms)},
                       {"run", to_microseconds(run.run_ms)}};
    return json_text(j, 2);
  }
  ordered_json sets = ordered_json::array();
  size_t passed = 0;
  for (const SetRun& run : report.runs) {
    ordered_json s;
    s["name"] = run.label;
    s["dir"] = run.dir;
    s["passed"] = run.passed();
    passed += run.passed();
    if (run.error) s["error"] = run.error->what();
    s["inputs"] = json_values(run.inputs, full, nullptr);
    s["outputs"] = json_values(run.outputs, full, &run.checks);
    s["timings_ms"] = {{"inputs", to_microseconds(run.input_ms)}, {"run", to_microseconds(run.run_ms)}};
    sets.push_back(std::move(s));
  }
  j["test_sets"] = std::move(sets);
  j["passed"] = passed;
  j["total"] = report.runs.size();
  j["timings_ms"] = {{"load", to_microseconds(report.load_ms)}};
  return json_text(j, 2);
}

}  // namespace onnxrun
