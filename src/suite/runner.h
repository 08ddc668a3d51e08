// Running many tests: in parallel, in threads of this process or (isolate) each in a
// child process of its own, so that a crash or a hang costs one test, not the run.
//
// Results come back in the tests' order whatever the parallelism. With isolation the
// parent stays single-threaded (it forks from an event loop, never from worker threads),
// so fork() is safe. Children are workers reused from test to test (process creation
// costs more than most tests); each runs run_case() and writes the result to a pipe as
// JSON. A worker that crashes or times out is recorded against its current test and
// replaced, so the run goes on.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "suite/case_runner.h"
#include "suite/discovery.h"
#include "suite/outcome.h"

namespace onnxrun {

struct RunnerOptions {
  int jobs = 1;          // tests at a time (>= 1)
  bool isolate = false;  // one child process per test
  double timeout = 0;    // seconds per test, 0 = none; needs (and so implies) isolate
  CaseOptions case_options;
};

// Called once per test as it completes (completion order), never concurrently.
using ResultCallback = std::function<void(size_t index, const TestResult& result)>;

std::vector<TestResult> run_tests(const std::vector<TestCase>& tests, const RunnerOptions& options,
                                  const ResultCallback& on_done = {});

}  // namespace onnxrun
