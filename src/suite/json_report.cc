// The `onnx-run test --json FILE` report (schema in suite/json_documents.h), and its
// "run" object read back (by `report merge`).
#include <climits>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "core/error.h"
#include "core/fail.h"
#include "suite/json_documents.h"
#include "suite/json_values.h"
#include "suite/report.h"

namespace onnxrun {

std::string test_report_json(const RunInfo& info, const Summary& s, const std::vector<TestResult>& results,
                             const MergeInfo* merge, const BaselineNote* baseline) {
  nlohmann::ordered_json j;
  j["generator"] = info.generator;
  auto per_output = [](const std::optional<std::map<std::string, double>>& m) {
    return m ? nlohmann::ordered_json(*m) : nlohmann::ordered_json();
  };
  j["run"] = {{"paths", info.paths},
              {"cwd", info.cwd},
              {"filter", info.filter},
              {"exclude", info.exclude},
              {"shard", info.shard},
              {"shard_source", info.shard_source},
              {"rtol", info.rtol},
              {"atol", info.atol},
              {"output_rtol", per_output(info.output_rtol)},
              {"output_atol", per_output(info.output_atol)},
              {"check_error_stat", info.check_error_stat.empty() ? nlohmann::ordered_json()
                                                                 : nlohmann::ordered_json(info.check_error_stat)},
              {"exact", info.exact},
              {"max_ulp", info.max_ulp},
              {"jobs", info.jobs},
              {"isolate", info.isolate},
              {"timeout", info.timeout},
              {"strict", info.strict},
              {"no_fuse", info.no_fuse},
              {"selected", info.selected.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(info.selected)}};
  if (merge)
    j["merge"] = {{"shard_count", merge->shard_count},
                  {"reports", merge->reports},
                  {"shards", merge->shards},
                  {"missing", merge->missing}};
  if (baseline) {
    nlohmann::ordered_json missing = nlohmann::ordered_json::array();
    for (const TestResult& r : baseline->missing) missing.push_back(result_to_json(r));
    nlohmann::ordered_json regressions = nlohmann::ordered_json::array();
    for (const BaselineChange& c : baseline->regressions) {
      nlohmann::ordered_json r = {{"name", c.name},
                                  {"before", c.new_test ? nlohmann::ordered_json() : outcome_name(c.before)},
                                  {"now", outcome_name(c.now)},
                                  {"change", describe_change(c)}};
      if (c.baseline_sets) r.update({{"sets", c.sets}, {"baseline_sets", c.baseline_sets}});
      regressions.push_back(std::move(r));
    }
    j["baseline"] = {{"path", baseline->path}, {"regressions", regressions}, {"missing", missing}};
  }
  nlohmann::ordered_json summary;
  summary["total"] = s.total;
  for (int k = 0; k < kOutcomeCount; ++k) summary[std::string(outcome_name(static_cast<Outcome>(k)))] = s.counts[k];
  summary["seconds"] = s.seconds;
  j["summary"] = summary;
  nlohmann::ordered_json causes = nlohmann::ordered_json::array();
  for (const auto& [cause, n] : unsupported_causes(results)) causes.push_back({{"cause", cause}, {"tests", n}});
  j["unsupported_causes"] = causes;
  nlohmann::ordered_json tests = nlohmann::ordered_json::array();
  for (const TestResult& r : results) tests.push_back(result_to_json(r));
  j["tests"] = tests;
  return json_text(j, 1);
}

namespace {

// `field` of `run` into `out` when present; a value of another type is no report of ours.
template <typename T>
void read_field(const nlohmann::json& run, const char* field, T& out) {
  if (!run.contains(field) || run[field].is_null()) return;
  if constexpr (std::is_same_v<T, int>) {  // "jobs": 4294967297 was read as 1, 2.9 as 2
    const std::optional<int> n = json_count(run[field]);
    if (!n)
      fail(ErrorKind::kInvalid, "\"run\".\"{}\" is {}, not a whole number from 0 to {}", field, run[field].dump(),
           INT_MAX);
    out = *n;
  } else {
    try {
      out = run[field].get<T>();
    } catch (const nlohmann::json::exception&) {
      fail(ErrorKind::kInvalid, "\"run\".\"{}\" has the wrong type", field);
    }
  }
}

}  // namespace

RunInfo run_info_from_json(const nlohmann::json& run) {
  RunInfo info;
  if (!run.is_object()) fail(ErrorKind::kInvalid, "\"run\" is not an object");
  read_field(run, "paths", info.paths);
  read_field(run, "cwd", info.cwd);
  read_field(run, "filter", info.filter);
  read_field(run, "exclude", info.exclude);
  read_field(run, "shard", info.shard);
  read_field(run, "shard_source", info.shard_source);
  read_field(run, "rtol", info.rtol);
  read_field(run, "atol", info.atol);
  // Absent or null in an older report: left nullopt (or empty), "not recorded", which
  // `report merge` does not take for any value a newer report records.
  for (auto [field, out] : {std::pair{"output_rtol", &info.output_rtol}, std::pair{"output_atol", &info.output_atol}})
    if (run.contains(field) && !run[field].is_null()) {
      std::map<std::string, double> m;
      read_field(run, field, m);
      *out = std::move(m);
    }
  read_field(run, "check_error_stat", info.check_error_stat);
  read_field(run, "exact", info.exact);
  read_field(run, "max_ulp", info.max_ulp);
  read_field(run, "jobs", info.jobs);
  read_field(run, "isolate", info.isolate);
  read_field(run, "timeout", info.timeout);
  read_field(run, "strict", info.strict);
  read_field(run, "no_fuse", info.no_fuse);
  read_field(run, "selected", info.selected);
  return info;
}

}  // namespace onnxrun
