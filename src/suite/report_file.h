// A `test --json` report read back from its file: what `--baseline` compares with and
// what `report merge` merges.
#pragma once

#include <string>
#include <vector>

#include "suite/outcome.h"
#include "suite/report.h"

namespace onnxrun {

struct ReportFile {
  std::string path;
  RunInfo run;          // "generator" and "run" (defaults for what an older report lacks)
  bool merged = false;  // it has a "merge" object: made by `report merge`
  double seconds = 0;   // "summary"."seconds": the run's wall time
  std::vector<TestResult> tests;
};

// `what` names the file in messages ("baseline", "report"). Throws Error(kIo) when the
// file cannot be read, Error(kInvalid) when it is not an onnx-run report.
ReportFile read_report_file(const std::string& path, const char* what);

}  // namespace onnxrun
