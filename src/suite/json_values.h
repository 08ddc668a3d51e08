// The JSON values the documents of json_documents.h are made of, for the files that build
// or read documents: the serialiser, and the pieces that more than one document shares.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "suite/compare.h"
#include "suite/outcome.h"

namespace onnxrun {

struct RunInfo;

// The document as text: indented by `indent` spaces (-1: one line), ending in a newline.
std::string json_text(const nlohmann::ordered_json& j, int indent);

// COMPARISON of json_documents.h: an output's "comparison".
nlohmann::ordered_json comparison_json(const Comparison& c);

// A count read back from a report: a whole number from 0 to INT_MAX (2.0 too), else
// nullopt (1e26, -1, 2.5, "3", 4294967297: nlohmann's get<int> would narrow them silently).
std::optional<int> json_count(const nlohmann::json& v);

// The "run" object of a test report read back; fields an older report lacks keep their
// defaults. Throws Error(kInvalid) for a field of the wrong type.
RunInfo run_info_from_json(const nlohmann::json& run);

// RESULT (json_result.cc): one TestResult, as in the report's "tests", in a baseline
// read back, and as an isolated child sends it to its parent:
// {"name", "outcome", "seconds", "message", "model", "sets"?, "causes"?, "signal"?, "warnings"?}
// ("sets" absent: kSetsNotRecorded, as older reports wrote it; "warnings": TestResult's).
nlohmann::ordered_json result_to_json(const TestResult& r);
// Throws Error(kInvalid) when `j` lacks a name or a known outcome.
TestResult result_from_json(const nlohmann::json& j);

}  // namespace onnxrun
