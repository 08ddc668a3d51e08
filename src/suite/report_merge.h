// Merging the --json reports of the shards of one regression run (`onnx-run report
// merge`) into the report one run over all of them would have written: the same tests
// in the same order with the same outcomes, the same summary and unsupported causes.
//
// Shards merge only when they belong together: the same shard count N, no slice twice,
// no test twice, and the same settings that decide outcomes (onnx-run version, --rtol,
// --atol and their NAME:V values, --check-error-stat, --exact, --max-ulp, --filter,
// --exclude, --strict, --no-fuse, --isolate, --timeout). A setting an older report did
// not record differs from every recorded value: such a mix is refused, not guessed at.
// A slice of 1..N that no report holds is recorded as missing; the caller decides
// whether that fails (`report merge` fails unless --allow-missing: a lost shard
// must not turn a CI run green).
#pragma once

#include <string>
#include <vector>

#include "suite/outcome.h"
#include "suite/report.h"
#include "suite/report_file.h"

namespace onnxrun {

struct MergedReport {
  RunInfo run;                    // the shards' settings; paths united; no shard; jobs the largest
  MergeInfo merge;                // what was merged and what is missing
  std::vector<TestResult> tests;  // in the order of one run's discovery (natural by name)
  Summary summary;                // seconds: the sum of the shards' wall times
};

// Throws Error(kUsage) naming the reports at odds: overlapping slices or tests, different
// shard counts or settings, a report that is itself a merge.
MergedReport merge_reports(const std::vector<ReportFile>& shards);

}  // namespace onnxrun
