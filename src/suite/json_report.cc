// The `onnx-run test --json FILE` report (schema in suite/json_documents.h).
#include <string>

#include "suite/json_documents.h"
#include "suite/report.h"

namespace onnxrun {

std::string test_report_json(const RunInfo& info, const Summary& s, const std::vector<TestResult>& results) {
  nlohmann::ordered_json j;
  j["generator"] = info.generator;
  j["run"] = {{"paths", info.paths},     {"filter", info.filter}, {"exclude", info.exclude}, {"shard", info.shard},
              {"rtol", info.rtol},       {"atol", info.atol},     {"jobs", info.jobs},       {"isolate", info.isolate},
              {"timeout", info.timeout}, {"strict", info.strict}};
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

}  // namespace onnxrun
