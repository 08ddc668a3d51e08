// The graph as it will run, as text: opset imports, inputs, initializers, then each
// node in execution order with the operator version it resolved to, its inputs,
// outputs and attributes, then the outputs. For `onnx-run --print-graph`, after model
// functions are inlined and (with --expand-functions) schema functions expanded.
#pragma once

#include <string>

#include "model/graph.h"

namespace onnxrun {

std::string format_graph(const Graph& g);

}  // namespace onnxrun
