// Binding caller-supplied tensors to a graph's inputs, checked against the graph's
// declarations before anything runs: every required input given once, no unknown name,
// element type, rank and fixed dims as declared, symbolic dims bound consistently.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/tensor.h"
#include "model/graph.h"

namespace onnxrun {

struct Feed {
  std::string name;     // graph input name; empty: bind by `position`
  size_t position = 0;  // index into the graph's required inputs when `name` is empty
  Tensor tensor;
  std::string origin;  // where it came from ("input_0.pb", "-i x.pb"), for messages
};

// Throws Error(kInput) naming the input and what was wrong.
std::map<std::string, Tensor> bind_inputs(const Graph& g, std::vector<Feed> feeds);

}  // namespace onnxrun
