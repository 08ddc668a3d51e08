// Running one test of a regression run in the calling thread and turning whatever
// happens into a TestResult: nothing a model or its data does escapes as an exception.
//
// A test runs through the same pipeline as `onnx-run MODEL` (suite/run.h), so the two
// always agree. Unsupported is what the model layer says: the loader resolves every
// node (after inlining model-local functions) and its error names each unsupported
// one as a Cause, so the result lists every missing op, not just the first.
#pragma once

#include <string>
#include <vector>

#include "suite/compare.h"
#include "suite/discovery.h"
#include "suite/outcome.h"
#include "suite/run_request.h"

namespace onnxrun {

struct CaseOptions {
  Tolerance tol;         // overridden per test by a data.json beside the model (suite/test_set.h)
  bool no_fuse = false;  // no plan-time rewrite (RunRequest::no_fuse)
  unsigned threads = 1;  // within one test (tests run side by side); 0: one per core
  // Test-only hooks (hidden CLI flags): a test whose name matches crash_on raises
  // SIGSEGV, one matching hang_on never returns. They exist so that --isolate and
  // --timeout can be tested with real crashes and hangs; empty means off.
  std::string crash_on;
  std::string hang_on;
};

TestResult run_case(const TestCase& test, const CaseOptions& options);

// The test's data as the run pipeline takes it: its test_data_set_* folders, or its light
// layout's files as one set labelled "NAME_*.pb". Throws Error(kInput) for a gap in the
// light layout's K.
std::vector<TestSetSpec> test_sets_of(const TestCase& test);

}  // namespace onnxrun
