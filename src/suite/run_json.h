// The --json document of `onnx-run MODEL`, built from a RunReport (suite/run.h).
//
// A run on given or made-up inputs:
//   {"model", "inputs": [TENSOR...], "outputs": [TENSOR...],
//    "timings_ms": {"load", "inputs", "run"}}
// A run over test sets (`onnx-run MODEL`, `-d DIR`):
//   {"model", "test_sets": [{"name", "dir", "passed", "error"?, "inputs", "outputs",
//    "timings_ms"}], "passed": N, "total": N, "timings_ms": {"load"}}
// TENSOR: {"name", "type", "shape", "source", "stats"?, "values", "truncated",
//          "comparison"?}: "values" are nested lists in the tensor's shape (floats as
//   the shortest decimal that reads back in their own type; "nan", "inf", "-inf" as
//   strings), null when the tensor has more than 1000 elements and `full` is off
//   (then "truncated" is true) or was not kept. "comparison" (outputs of a test set):
//   {"ok", "elements", "mismatches", "problem"?, "worst"?: {"index", "position",
//   "expected", "actual", "expected_bits", "actual_bits", "abs_err", "rel_err"},
//   "needed_atol", "needed_rtol"}.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "suite/compare.h"

namespace onnxrun {

struct RunReport;

std::string run_report_json(const RunReport& report, bool full);

nlohmann::ordered_json comparison_json(const Comparison& c);

}  // namespace onnxrun
