// The one run pipeline. Every door of onnx-run that runs a model (`onnx-run MODEL` over
// its test sets, `-d DIR`, `-i`, `--npz`, made-up inputs, `onnx-run test`, `bench`) fills
// in a RunRequest and calls run_model(), which loads the model, gathers the feeds,
// runs, compares with expected outputs where there are any, writes the requested files
// and returns a RunReport. Callers render the report (text, JSON, a TestResult); none
// of them repeats a step, so every door gives the same answer.
//
// Files: outputs (-o, --save-inputs) are written under temporary names into the run's
// OutputSet (io/output_set.h), which the report holds; they appear only when the caller
// commits it, after it has rendered the report and knows the run succeeded. Dropping the
// report removes them.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/tensor.h"
#include "suite/bench.h"
#include "suite/compare.h"
#include "suite/run_request.h"

namespace onnxrun {

class OutputSet;

struct RunReport {
  RunReport();
  RunReport(RunReport&&) noexcept;
  RunReport& operator=(RunReport&&) noexcept;
  ~RunReport();  // removes uncommitted output files

  std::string model;
  FeedSource source = FeedSource::kGiven;
  std::vector<std::string> output_names;  // the graph's outputs, in order
  double load_ms = 0;
  std::vector<SetRun> runs;
  bool streamed = false;     // the run went block by block (no tensors kept)
  std::string notice;        // for the user, e.g. that inputs were made up
  size_t values_dumped = 0;  // --dump-intermediates
  std::optional<BenchResult> bench;
  unsigned threads = 0;  // threads the executor could use

  // Why the comparisons failed, as the one line on stderr: the run's mismatch_summary,
  // or for test sets "1 of 3 test sets failed (test_data_set_1: 1 of 2 outputs differ
  // (...))"; empty when none failed. Sets that could not run are not counted here.
  std::string mismatch_summary() const;
  // Every run's warnings (SetRun::warnings), each line once: test sets of one shape say
  // the same, and a user wants it once per model.
  std::vector<std::string> warnings() const;
  // Renames the output files into place; returns their paths. Throws Error(kIo).
  std::vector<std::string> commit_outputs();

 private:
  friend RunReport run_model(const RunRequest& request);
  std::unique_ptr<OutputSet> outputs_;  // null when the run writes no such files
};

// Throws Error for what stops the whole run: a model that cannot be loaded, a usage
// error, inputs that do not fit, a file that cannot be written. A test set that cannot
// be run is recorded in its SetRun and the others still run. An unsupported model
// throws Error(kUnsupported) whose causes() name every unsupported node.
RunReport run_model(const RunRequest& request);

}  // namespace onnxrun
