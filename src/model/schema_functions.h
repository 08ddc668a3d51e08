// Operators that ONNX defines by a function body, expanded on request: every node that
// resolved to such a version is replaced by its body, built as plain Graph nodes. This
// runs a model "the long way", through the ops of the body, which is how the fused
// kernels are checked against the definition (`onnx-run --expand-functions`).
// The bodies are data of the operator table (OpDef::body, written in ops/); this file
// only turns them into Graph nodes and names nothing of its own.
#pragma once

#include "model/graph.h"

namespace onnxrun {

// REQUIRES: `g` resolved (node.op set). The nodes it adds carry their opset but are not
// resolved: call resolve_graph(g, ...) afterwards. Returns how many nodes it expanded.
size_t expand_schema_functions(Graph& g);

}  // namespace onnxrun
