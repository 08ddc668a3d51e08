// The `onnx-run MODEL --json` document (schema in suite/json_documents.h).

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#include <fmt/format.h>

#include "io/tensor_json.h"
#include "suite/json_documents.h"
#include "suite/json_values.h"
#include "suite/run.h"
#include "suite/ulp.h"

namespace onnxrun {
namespace {

using nlohmann::ordered_json;

// Up to the microsecond: the digits below it are the clock's noise.
double to_microseconds(double ms) { return std::round(ms * 1000) / 1000; }

// From the value's digest (suite/value_digest.h), whichever way the run went: the values
// are its shown elements when the print shows them all (at most 1000, or --full).
ordered_json json_tensor(const RunValue& v, const OutputVerdict* check) {
  ordered_json j;
  j["name"] = v.name;
  const ValueDigest& d = v.digest;
  if (d.valid()) {
    j["type"] = dtype_name(d.dtype);
    j["shape"] = d.shape;
  }
  j["source"] = v.source;
  if (d.valid() && d.stats.numeric) j["stats"] = tensor_stats_json(d.stats, d.dtype);
  const bool shown = d.valid() && d.stats.numeric && !d.summarised();
  j["values"] = shown ? tensor_values_json(d.shown) : ordered_json(nullptr);
  j["truncated"] = d.valid() && d.stats.numeric && !shown;
  if (check) j["comparison"] = comparison_json(check->comparison);
  return j;
}

// `run` gives the outputs' comparisons; null for inputs.
ordered_json json_values(const std::vector<RunValue>& values, const SetRun* run) {
  ordered_json list = ordered_json::array();
  for (const RunValue& v : values) list.push_back(json_tensor(v, run ? run->check_for(v.name) : nullptr));
  return list;
}

}  // namespace

namespace {

// An element's shortest text as a JSON number; a bool's ("True") as its value; the bits
// ("0x40") of a type without arithmetic as a string.
ordered_json element_json(const std::string& text, double value, bool integers) {
  if (text.rfind("0x", 0) == 0) return text;  // a type without arithmetic: its bits (strtod reads hex)
  char* end = nullptr;
  if (integers && !text.empty()) {  // whole: an int64 beyond 2^53 would round as a double
    errno = 0;
    if (text[0] == '-') {
      const long long v = std::strtoll(text.c_str(), &end, 10);
      if (*end == 0 && errno == 0) return ordered_json(static_cast<int64_t>(v));
    } else {
      const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
      if (*end == 0 && errno == 0) return ordered_json(static_cast<uint64_t>(v));
    }
  }
  const double v = std::strtod(text.c_str(), &end);
  return json_real(!text.empty() && *end == 0 ? v : value);
}

// A ULP distance: a whole number, or "inf" (NaN against a number, unequal infinities),
// as the values write infinities.
ordered_json ulp_json(uint64_t ulps, bool integers) {
  return ulps == kUlpInfinite && !integers ? ordered_json("inf") : ordered_json(ulps);
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
                  {"expected", element_json(c.expected_text, c.expected, c.integers)},
                  {"actual", element_json(c.actual_text, c.actual, c.integers)},
                  {"expected_bits", c.expected_bits},
                  {"actual_bits", c.actual_bits},
                  {"abs_err", json_real(c.abs_err)},
                  {"rel_err", json_real(c.rel_err)},
                  {"ulp", ulp_json(c.ulp, c.integers)}};
  }
  const auto [needed_atol, needed_rtol] = c.passing_tolerance();
  j["needed_atol"] = json_real(needed_atol);
  j["needed_rtol"] = json_real(needed_rtol);
  j["rtol"] = json_real(c.rtol);
  j["atol"] = json_real(c.atol);
  j["check_error_stat"] = error_stat_name(c.stat);
  j["exact"] = c.exact;
  j["max_ulp_bound"] = c.ulp_bound ? ordered_json(*c.ulp_bound) : ordered_json(nullptr);
  j["bit_identical"] = c.bit_identical();
  j["bit_differences"] = c.bit_differences;
  j["max_ulp"] = ulp_json(c.max_ulp, c.integers);
  // The errors are computed in double, as abs_err and rel_err are: exact, not shortened.
  const ErrorStats& e = c.errors;
  // 1e-3, not pow's; strtod, not stod, which throws where the power is subnormal (1e-310)
  // or rounds to 0 (1e-324, the decade of the least double): their nearest doubles.
  auto power_of_ten = [](int d) { return json_real(std::strtod(fmt::format("1e{}", d).c_str(), nullptr)); };
  ordered_json histogram = ordered_json::array();
  if (e.exact) histogram.push_back({{"from", 0}, {"to", 0}, {"count", e.exact}});
  for (const auto& [decade, count] : e.decades)
    histogram.push_back({{"from", power_of_ten(decade)}, {"to", power_of_ten(decade + 1)}, {"count", count}});
  if (e.infinite)
    histogram.push_back({{"from", json_real(INFINITY)}, {"to", json_real(INFINITY)}, {"count", e.infinite}});
  j["errors"] = {{"max_abs_err", json_real(e.max_abs)},       {"mean_abs_err", json_real(e.mean_abs)},
                 {"median_abs_err", json_real(e.median_abs)}, {"max_rel_err", json_real(e.max_rel)},
                 {"mean_rel_err", json_real(e.mean_rel)},     {"median_rel_err", json_real(e.median_rel)},
                 {"beyond_tolerance", c.mismatches},          {"abs_histogram", std::move(histogram)}};
  return j;
}

std::string run_json(const RunReport& report) {
  ordered_json j;
  j["model"] = report.model;
  if (report.source != FeedSource::kTestSets) {
    const SetRun& run = report.runs.at(0);
    j["inputs"] = json_values(run.inputs, nullptr);
    j["outputs"] = json_values(run.outputs, &run);
    if (!run.checks.empty()) j["passed"] = run.passed();
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
    s["inputs"] = json_values(run.inputs, nullptr);
    s["outputs"] = json_values(run.outputs, &run);
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
