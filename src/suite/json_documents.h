// Every JSON document onnx-run prints or writes, as text: built in the json_*.cc files of
// this floor and serialised by json_text (json_values.h, which brings in nlohmann/json,
// heavy to compile, for those files alone). Keys come in the order written below. Names
// and strings from model files need not be valid UTF-8: their bad bytes are written as
// U+FFFD. (Test names and model paths in test reports are made valid UTF-8 before, with
// \xNN escapes that read back as they were written: core/error.h valid_utf8.)
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "exec/fusion.h"
#include "model/graph.h"
#include "suite/bench.h"
#include "suite/compare.h"
#include "suite/outcome.h"

namespace onnxrun {

struct RunReport;
struct RunInfo;
struct MergeInfo;
struct BaselineNote;
struct SetsComparison;
struct VerifyReport;

// `onnx-run info --json` (json_info.cc), indented by 2:
// {"ir_version", "producer_name", "producer_version", "domain", "model_version",
//  "graph_name", "opset_imports": {domain: version},
//  "inputs"/"outputs": [{"name", "type", "shape"}],
//  "initializers": [{"name", "type", "shape", "bytes"}], "initializer_bytes",
//  "nodes": [{"name", "op_type", "domain", "opset", "supported",
//             "resolved_version", "version_range" | "reason", "invalid", "inputs", "outputs"}],
//  "functions": [{"domain", "name", "inputs", "outputs", "attributes", "body_ops"}],
//  "runnable", "fusion": {"recognised": [{"node", "op", "what", "replaced": [names]}],
//  "chains": [[names]]} | null}. A shape is a list whose items are numbers (fixed), strings
//  (symbolic) or null (unknown); null for an unknown rank. "type" is null when not declared.
//  "fusion" is what the executor's default plan rewrites; null when the model cannot run.
std::string info_json(const Model& m, const std::optional<Fusion>& fusion = std::nullopt);

// `onnx-run MODEL --json` (json_run.cc), from a RunReport (suite/run.h), indented by 2.
// A run on given or made-up inputs:
//   {"model", "inputs": [TENSOR...], "outputs": [TENSOR...],
//    "timings_ms": {"load", "inputs", "run"}}
// A run over test sets (`onnx-run MODEL`, `-d DIR`):
//   {"model", "test_sets": [{"name", "dir", "passed", "error"?, "inputs", "outputs",
//    "timings_ms": {"inputs", "run"}}], "passed": N, "total": N, "timings_ms": {"load"}}
// TENSOR: {"name", "type", "shape", "source", "stats"?, "values", "truncated",
//          "comparison"?}: "values" are nested lists in the tensor's shape (floats as
//   the shortest decimal that reads back in their own type; "nan", "inf", "-inf" as
//   strings), null when the tensor has more than 1000 elements and the request's
//   print.full is off (then "truncated" is true). "stats": io/tensor_json.h. Made from
//   the values' digests (RunRequest::digests must be on).
std::string run_json(const RunReport& report);
// COMPARISON, an output's "comparison": {"ok", "elements", "mismatches", "problem"?,
//   "worst"?: {"index", "position", "expected", "actual", "expected_bits", "actual_bits",
//   "abs_err", "rel_err", "ulp"}, "needed_atol", "needed_rtol" (Comparison::passing_tolerance), "rtol", "atol",
//   "check_error_stat", "exact" (--exact), "max_ulp_bound" (--max-ulp, or null),
//   "bit_identical", "bit_differences", "max_ulp" (a ULP distance: a whole number, or "inf"
//   for NaN against a number and unequal infinities; suite/ulp.h), "errors": {"max_abs_err", "mean_abs_err", "median_abs_err",
//   "max_rel_err", "mean_rel_err", "median_rel_err", "beyond_tolerance", "abs_histogram": [{"from", "to", "count"}]}} (only the first
//   four with a "problem"). The histogram: {0, 0} for exact elements, [10^d, 10^(d+1)) per
//   decade that has errors, {"inf", "inf"} for NaN and infinity mismatches.
//   A run on given or made-up inputs with --expected has a "comparison" on each compared
//   output, and "passed" beside "outputs".
//   (json_values.h: comparison_json)

// `onnx-run compare --json` (json_compare.cc), indented by 2:
// {"a", "b", "model" (null without --model), "equal", "values": [{"name", "a", "b"
//  (a file, null on the side that lacks the value), "comparison": COMPARISON | null}],
//  "same", "total", "first_divergent": name | null}.
std::string compare_json(const SetsComparison& s);

// `onnx-run verify --json` (json_verify.cc), indented by 2:
// {"model", "sources": [paths], "values" (how many the sources hold), "require_all",
//  "passed" (the exit status's verdict: false when a node differs, when no node was
//  checked, or, with require_all, when a node onnx-run runs was not),
//  "nodes": [{"index", "name", "op_type", "domain", "version" (null: no version serves it),
//             "status": "exact" | "agrees" | "differs" | "not_checked", "reason" (null when checked),
//             "max_ulp" (a whole number, "inf", or null when not checked),
//             "inputs": [{"name", "file"}], "outputs": [{"name", "file", "comparison": COMPARISON | null,
//             "worst_inputs": ["x[0,3] = -1.5 (0xbe00)"]}], "seconds"}],
//  "checked", "exact", "differ", "not_checked", "first_differing": name | null}.
// "file" is where the value was read ("(initializer)" for the model's own), null when VALUES
// lacks it. In a COMPARISON, "expected" is onnx-run's value, "actual" the dumped one.
std::string verify_json(const VerifyReport& r);

// `onnx-run bench --json` (json_bench.cc), indented by 2 as the other documents:
// {"what", "threads", "kernel_path", "warmup", "duration_s" (0: --repeat counted the runs),
//  "runs", "batch", "min_ns", "median_ns", "p90_ns", "p99_ns", "max_ns", "mean_ns",
//  "percentiles": {"p50"|"p90"|"p95"|"p99"|"p99.9": {"ns", "is_max"}}, "elements_per_run",
//  "bytes_per_run", "elements_per_s", "gb_per_s", "peak_rss_bytes"}; the rates are at the
//  median run; "batch": runs timed together (1: each alone), the times then being batches'
//  mean runs; "is_max": too few times for that rank (p99 under 100), so it is the max.
std::string bench_json(const std::string& what, unsigned threads, const BenchOptions& options, const BenchResult& r);

// `onnx-run test --json FILE` (json_report.cc), indented by 1:
// {"generator", "run": {"paths", "filter", "exclude", "shard", "shard_source", "rtol", "atol",
//  "output_rtol", "output_atol" ({NAME: V} of --rtol/--atol NAME:V, {} for none), "check_error_stat",
//  "exact", "max_ulp" (--max-ulp: "N", "NAME:N", comma-separated, global first; "" for none), "jobs",
//  "isolate", "timeout", "strict", "no_fuse", "selected" ("N tests, digest HEX": the tests selected
//  before sharding, suite/discovery.h names_digest; null in an older report)},
//  "merge"?: {"shard_count", "reports", "shards", "missing"} (`report merge` only),
//  "baseline"?: {"path", "missing": [RESULT...]} (with --baseline: the baseline tests the run
//  selects that are gone, named in the run's terms, with the baseline's outcome; not in "tests"
//  nor "summary", which count what ran),
//  "summary": {"total", "passed", "failed", "unsupported", "error", "timeout", "crashed", "no data", "seconds"},
//  "unsupported_causes": [{"cause", "tests"}], "tests": [RESULT...]}
std::string test_report_json(const RunInfo& info, const Summary& summary, const std::vector<TestResult>& results,
                             const MergeInfo* merge = nullptr, const BaselineNote* baseline = nullptr);
// RESULT: json_values.h.

}  // namespace onnxrun
