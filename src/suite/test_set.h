// Running one ONNX test set against a model: read its inputs, bind them (by TensorProto
// name when it names a graph input, else by position K), run, and compare every graph
// output with its output_K.pb (bound by name, else by position).
#pragma once

#include <string>
#include <vector>

#include "core/tensor.h"
#include "suite/compare.h"

namespace onnxrun {

class Executor;

struct OutputCheck {
  std::string name;  // the graph output's name
  Comparison comparison;
};

struct TestSetResult {
  std::string dir;
  std::vector<Tensor> inputs;   // as bound, in graph input order
  std::vector<Tensor> outputs;  // as computed, in graph output order
  std::vector<OutputCheck> checks;
  bool passed() const;
};

// Throws Error for a test set that cannot be run (unreadable or invalid files, inputs
// that do not fit, an output file missing); a mismatch is a result, not an error.
TestSetResult run_test_set(const Executor& exec, const std::string& dir, Tolerance tol);

struct TestSetFiles;
// The same for files given one by one (the `light/` layout keeps NAME_output_K.pb
// beside the model rather than in a folder); `label` names the set in messages.
TestSetResult run_test_set(const Executor& exec, const std::string& label, const TestSetFiles& files, Tolerance tol);

}  // namespace onnxrun
