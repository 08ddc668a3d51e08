// TestResult <-> JSON: the one spelling of a result, used by the --json report, by
// baselines read back, and by isolated children reporting to their parent.
#pragma once

#include <nlohmann/json.hpp>

#include "suite/outcome.h"

namespace onnxrun {

nlohmann::ordered_json result_to_json(const TestResult& r);
// Throws Error(kInvalid) when `j` lacks a name or a known outcome.
TestResult result_from_json(const nlohmann::json& j);

}  // namespace onnxrun
