// What a run is asked to do (RunRequest) and the values it reads and makes (RunValue,
// SetRun):
// the data that run_model (suite/run.h) shares with its steps, feeds.h and test_set.h,
// kept apart so that the steps need not include the pipeline that calls them.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/tensor.h"
#include "exec/block_run.h"
#include "io/tensor_format.h"
#include "io/tensor_text.h"
#include "io/test_data.h"
#include "suite/bench.h"
#include "suite/compare.h"
#include "suite/value_digest.h"

namespace onnxrun {

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

enum class ExecPath { kAuto, kWhole, kBlocks };

struct RunRequest {
  std::string model;              // the .onnx file
  bool expand_functions = false;  // run LeakyRelu-16 through its function body (never recognised back)
  bool no_fuse = false;           // no plan-time rewrite (exec/executor.h): every node as the graph says

  FeedSource source = FeedSource::kGiven;
  std::vector<std::string> inputs;      // -i "[NAME=]FILE" or "[NAME=][v0,v1,...]"
  std::vector<std::string> npz;         // --npz FILE
  std::map<std::string, Shape> shapes;  // --shape: made-up inputs, symbolic dims, literals
  uint64_t seed = 0;                    // made-up inputs
  double low = -1, high = 1;
  std::map<std::string, std::pair<double, double>> ranges;  // --range NAME:LO,HI: one input's own
  std::vector<TestSetSpec> test_sets;                       // kTestSets, in order (none: the model is only loaded)

  Tolerance tol;
  // Refuse a per-output tolerance naming no output of the model (a typo); off for
  // `onnx-run test`, whose tolerances are for every model it runs.
  bool check_tolerance_names = true;
  // --expected: result sets or NAME=FILE (suite/expected_outputs.h) the outputs of a run
  // on given or made-up inputs are compared with.
  std::vector<std::string> expected;
  std::string output_dir;  // -o: outputs as DIR/output_<k>.<format> (or outputs.npz)
  TensorFormat format = TensorFormat::kPb;
  std::string save_inputs_dir;  // --save-inputs: the inputs as DIR/input_<k>.<format> (or inputs.npz)
  std::string dump_dir;         // --dump-intermediates
  unsigned threads = 0;         // 0: one per core; 1: the calling thread only

  // What the caller reads of each RunValue: its digest (what printing and JSON show;
  // `print` says which elements it keeps), and the whole tensor. A run that keeps no
  // tensors may go block by block (suite/streamed_run.h).
  bool digests = true;
  ArrayPrintOptions print;
  bool keep_tensors = true;
  std::optional<BenchOptions> bench;  // time repeated runs of the first feed set

  // How to execute: block by block whenever the run can (kAuto: when an input is large
  // enough for it to matter), or always whole. Every path gives the same bits; tests
  // and --exec-path force one. block_bytes sets the block size (tests use small ones).
  ExecPath path = ExecPath::kAuto;
  size_t block_bytes = kRunBlockBytes;
};

struct RunValue {
  std::string name;
  Tensor tensor;       // !valid() when the run streamed it (keep_tensors = false)
  std::string source;  // "x.npy", "input_0.pb", "literal", "random", "computed"
  ValueDigest digest;  // when RunRequest::digests
};

struct OutputVerdict {
  std::string name;
  Comparison comparison;
};

// One execution of the graph: one test set, or the given or made-up inputs.
struct SetRun {
  std::string label;  // the test set's label; empty for a run on given or made-up inputs
  std::string dir;
  std::vector<RunValue> inputs;       // in graph input order
  std::vector<RunValue> outputs;      // in graph output order
  std::vector<OutputVerdict> checks;  // one per output with expected values, in output order
  std::optional<Error> error;         // the set could not be run (then nothing else is set);
                                      // its message does not name the set
  double input_ms = 0, run_ms = 0;
  unsigned block_lanes = 0;  // a run block by block: how many blocks ran side by side (else 0)
  // A run block by block: how many times its inputs were read and its graph run, 2 or
  // more where an output's exact medians wanted its blocks again (else 0).
  unsigned block_passes = 0;
  // For the user, not failures: an output computed in a shape other than the one the
  // model declares ("graph output 'y' is declared float[2,3] but computed as float[3,2]").
  std::vector<std::string> warnings;
  bool passed() const;  // no error, every check ok
  // What failed, as one line: "1 of 2 outputs differ (y: 3 of 60 elements beyond
  // tolerance, max abs err 0.5, max ulp 4)"; empty when every check passed.
  std::string mismatch_summary() const;
  // `error` with the set's label in front, as one line on stderr reads; requires error.
  Error labelled_error() const;
  // The check of output `name`; null when it was not compared.
  const OutputVerdict* check_for(const std::string& name) const;
};

}  // namespace onnxrun
