// What a run is asked to do (RunRequest) and the values it reads and makes (RunValue):
// the data that run_model (suite/run.h) shares with its steps, feeds.h and test_set.h,
// kept apart so that the steps need not include the pipeline that calls them.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/tensor.h"
#include "io/tensor_format.h"
#include "io/test_data.h"
#include "suite/bench.h"
#include "suite/compare.h"

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

}  // namespace onnxrun
