// The one run pipeline. Every door of onnx-run that runs a model (`onnx-run MODEL` over
// its test sets, `-d DIR`, `-i`, `--npz`, made-up inputs, `onnx-run test`, `bench`) fills
// in a RunRequest and calls run_model(), which loads the model, gathers the feeds,
// runs, compares with expected outputs where there are any, writes the requested files
// and returns a RunReport. Callers render the report (text, JSON, a TestResult); none
// of them repeats a step, so every door gives the same answer.
//
// Files: outputs (-o) are written under temporary names inside an OutputTransaction the
// report holds; they appear only when the caller commits it, after it has rendered the
// report and knows the run succeeded. Dropping the report removes them.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/tensor.h"
#include "io/tensor_format.h"
#include "io/test_data.h"
#include "suite/bench.h"
#include "suite/compare.h"

namespace onnxrun {

class OutputTransaction;

// One test set to run: input_K.pb files and the expected output_K.pb files.
struct TestSetSpec {
  std::string label;  // "test_data_set_0", or "NAME_*.pb" for the light layout
  std::string dir;    // the folder, for messages and reports
  TestSetFiles files;
};

enum class FeedSource {
  kGiven,     // -i / --npz
  kRandom,    // made up from the declared types and shapes (asked for, or nothing else)
  kTestSets,  // test_sets below
};

struct RunRequest {
  std::string model;              // the .onnx file
  bool expand_functions = false;  // run LeakyRelu-16 through its function body

  FeedSource source = FeedSource::kGiven;
  std::vector<std::string> inputs;  // -i "[NAME=]FILE" or "[NAME=][v0,v1,...]"
  std::vector<std::string> npz;     // --npz FILE
  std::map<std::string, Shape> shapes;  // --shape: made-up inputs, symbolic dims, literals
  uint64_t seed = 0;                    // made-up inputs
  double low = -1, high = 1;
  std::vector<TestSetSpec> test_sets;  // kTestSets, in order (none: the model is only loaded)

  Tolerance tol;
  std::string output_dir;  // -o: outputs as DIR/output_<k>.<format> (or outputs.npz)
  TensorFormat format = TensorFormat::kPb;
  std::string dump_dir;  // --dump-intermediates
  unsigned threads = 0;  // 0: one per core; 1: the calling thread only

  // The caller reads the tensors of the report (prints them, writes JSON); false lets
  // a large elementwise run go block by block to its output file, keeping no tensor.
  bool keep_tensors = true;
  std::optional<BenchOptions> bench;  // time repeated runs of the first feed set
};

struct RunValue {
  std::string name;
  Tensor tensor;       // !valid() when the run streamed it (keep_tensors = false)
  std::string source;  // "x.npy", "input_0.pb", "literal", "random", "computed"
};

struct OutputVerdict {
  std::string name;
  Comparison comparison;
};

// One execution of the graph: one test set, or the given or made-up inputs.
struct SetRun {
  std::string label;  // the test set's label; empty for a run on given or made-up inputs
  std::string dir;
  std::vector<RunValue> inputs;   // in graph input order
  std::vector<RunValue> outputs;  // in graph output order
  std::vector<OutputVerdict> checks;  // one per output when there are expected outputs
  std::optional<Error> error;     // the set could not be run (then nothing else is set)
  double input_ms = 0, run_ms = 0;
  bool passed() const;  // no error, every check ok
};

struct RunReport {
  RunReport();
  RunReport(RunReport&&) noexcept;
  RunReport& operator=(RunReport&&) noexcept;
  ~RunReport();  // removes uncommitted output files

  std::string model;
  FeedSource source = FeedSource::kGiven;
  double load_ms = 0;
  std::vector<SetRun> runs;
  bool streamed = false;          // the run went block by block (no tensors kept)
  std::string notice;             // for the user, e.g. that inputs were made up
  size_t values_dumped = 0;       // --dump-intermediates
  std::optional<BenchResult> bench;
  unsigned threads = 0;           // threads the executor could use

  bool passed() const;  // every run passed
  // Renames the output files into place; returns their paths. Throws Error(kIo).
  std::vector<std::string> commit_outputs();

 private:
  friend RunReport run_model(const RunRequest& request);
  std::unique_ptr<OutputTransaction> outputs_;
};

// Throws Error for what stops the whole run: a model that cannot be loaded, a usage
// error, inputs that do not fit, a file that cannot be written. A test set that cannot
// be run is recorded in its SetRun and the others still run. An unsupported model
// throws Error(kUnsupported) whose causes() name every unsupported node.
RunReport run_model(const RunRequest& request);

}  // namespace onnxrun
