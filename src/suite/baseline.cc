#include "suite/baseline.h"

#include <set>

#include "suite/report_file.h"

namespace onnxrun {

std::map<std::string, Outcome> read_baseline(const std::string& path) {
  std::map<std::string, Outcome> out;
  for (const TestResult& r : read_report_file(path, "baseline").tests) out[r.name] = r.outcome;
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
