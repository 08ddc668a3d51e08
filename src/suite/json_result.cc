// RESULT, one TestResult as JSON (schema in suite/json_documents.h).
#include <climits>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/fail.h"
#include "suite/json_documents.h"
#include "suite/json_values.h"

namespace onnxrun {

namespace {

// A count in a report, refused by name rather than read as 0 where it is no count: a
// merge would count it wrong, silently.
int count_field(const nlohmann::json& j, const char* key, const std::string& test) {
  const nlohmann::json& v = j[key];
  if (const std::optional<int> n = json_count(v)) return *n;
  fail(ErrorKind::kInvalid, "test '{}': \"{}\" is {}, not a whole number from 0 to {}", test, key, v.dump(), INT_MAX);
}

// The strings of a list field; anything else in it, or a field of another kind, is left out.
std::vector<std::string> strings_field(const nlohmann::json& j, const char* key) {
  std::vector<std::string> out;
  if (j.contains(key) && j[key].is_array())
    for (const auto& s : j[key])
      if (s.is_string()) out.push_back(s.get<std::string>());
  return out;
}

}  // namespace

std::optional<int> json_count(const nlohmann::json& v) {
  if (v.is_number_unsigned() && v.get<uint64_t>() <= static_cast<uint64_t>(INT_MAX)) return v.get<int>();
  if (v.is_number_integer() && v.get<int64_t>() >= 0 && v.get<int64_t>() <= INT_MAX) return v.get<int>();
  // 2.0, as Python's json writes a count that went through a float, is that count.
  if (v.is_number_float()) {
    const double d = v.get<double>();
    if (d == std::floor(d) && d >= 0 && d <= INT_MAX) return static_cast<int>(d);
  }
  return std::nullopt;
}

nlohmann::ordered_json result_to_json(const TestResult& r) {
  nlohmann::ordered_json j;
  j["name"] = r.name;
  j["outcome"] = outcome_name(r.outcome);
  j["seconds"] = r.seconds;
  j["message"] = r.message;
  j["model"] = r.model;
  if (r.sets != kSetsNotRecorded) j["sets"] = r.sets;
  if (!r.causes.empty()) j["causes"] = r.causes;
  if (r.signal) j["signal"] = r.signal;
  if (!r.warnings.empty()) j["warnings"] = r.warnings;
  return j;
}

TestResult result_from_json(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("name") || !j["name"].is_string() || !j.contains("outcome") ||
      !j["outcome"].is_string())
    fail(ErrorKind::kInvalid, "a test entry needs a \"name\" and an \"outcome\"");
  TestResult r;
  r.name = j["name"].get<std::string>();
  const std::string outcome = j["outcome"].get<std::string>();
  auto o = parse_outcome(outcome);
  if (!o) fail(ErrorKind::kInvalid, "test '{}': unknown outcome \"{}\"", r.name, outcome);
  r.outcome = *o;
  if (j.contains("seconds") && j["seconds"].is_number()) r.seconds = j["seconds"].get<double>();
  if (j.contains("message") && j["message"].is_string()) r.message = j["message"].get<std::string>();
  // The model path is what a baseline matches a test by: one that is not text would
  // match nothing, and the test would be "missing" with nothing changed.
  if (j.contains("model") && !j["model"].is_null()) {
    if (!j["model"].is_string()) fail(ErrorKind::kInvalid, "test '{}': \"model\" is not a path", r.name);
    r.model = j["model"].get<std::string>();
  }
  r.sets = j.contains("sets") ? count_field(j, "sets", r.name) : kSetsNotRecorded;
  r.causes = strings_field(j, "causes");
  r.warnings = strings_field(j, "warnings");
  if (j.contains("signal")) r.signal = count_field(j, "signal", r.name);
  return r;
}

}  // namespace onnxrun
