// Reading one ONNX test set for a model: its input_K.pb files bound to the graph's
// inputs (by TensorProto name when it names a graph input, else by position K), and
// its output_K.pb files matched to the graph's outputs (by name, else in order).
// Running and comparing is the run pipeline's (suite/run.h).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/tensor.h"
#include "model/graph.h"

namespace onnxrun {

struct TestSetFiles;
struct RunValue;

struct TestSetData {
  std::map<std::string, Tensor> bound;  // as bind_inputs returns them
  std::vector<RunValue> inputs;         // in graph input order, source = file name
  std::vector<Tensor> expected;         // one per graph output, in graph output order
};

// Throws Error for a test set that cannot be run: unreadable or invalid files, inputs
// that do not fit (Error(kInput)), output files that do not match the outputs in number
// (Error(kInvalid)). The caller names the set (Error::with_context).
TestSetData read_test_set(const Graph& g, const TestSetFiles& files);

// The graph output each of a test set's output files holds, from the files' TensorProto
// names (`names`, in file order): by name, else in order. Throws Error(kInvalid) when
// the files are not one per output; called with no names, before reading them, it only
// checks that.
std::vector<size_t> test_set_output_slots(const Graph& g, const TestSetFiles& files,
                                          const std::vector<std::string>& names = {});

// The input a test set's TensorProto named `proto_name` binds by name: that name when it
// is a graph input, else "" (bound by position): old exporters leave names empty or stale.
std::string test_set_input_name(const Graph& g, const std::string& proto_name);

}  // namespace onnxrun
