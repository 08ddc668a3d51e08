#include "suite/baseline.h"

#include <fstream>
#include <set>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "suite/json_documents.h"

namespace onnxrun {

std::map<std::string, Outcome> read_baseline(const std::string& path) {
  std::ifstream in(path);
  if (!in) fail(ErrorKind::kIo, "cannot read baseline {}", path);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    fail(ErrorKind::kInvalid, "baseline {}: not valid JSON ({})", path, e.what());
  }
  if (!j.is_object() || !j.contains("tests") || !j["tests"].is_array())
    fail(ErrorKind::kInvalid, "baseline {}: not an onnx-run report (no \"tests\" array)", path);
  std::map<std::string, Outcome> out;
  for (const auto& t : j["tests"]) {
    try {
      TestResult r = result_from_json(t);
      out[r.name] = r.outcome;
    } catch (const Error& e) {
      throw e.with_context("baseline " + path);
    }
  }
  return out;
}

BaselineDiff compare_with_baseline(const std::vector<TestResult>& results,
                                   const std::map<std::string, Outcome>& baseline) {
  BaselineDiff d;
  std::set<std::string> run;
  for (const TestResult& r : results) {
    run.insert(r.name);
    auto it = baseline.find(r.name);
    if (it == baseline.end()) {
      if (r.outcome == Outcome::kPassed) d.newly_passing.push_back({r.name, r.outcome, r.outcome, true});
      continue;
    }
    if (it->second == Outcome::kPassed && r.outcome != Outcome::kPassed)
      d.regressions.push_back({r.name, it->second, r.outcome, false});
    else if (it->second != Outcome::kPassed && r.outcome == Outcome::kPassed)
      d.newly_passing.push_back({r.name, it->second, r.outcome, false});
  }
  for (const auto& [name, outcome] : baseline) d.not_run += !run.count(name);
  return d;
}

}  // namespace onnxrun
