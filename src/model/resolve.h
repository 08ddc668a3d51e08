// Opset resolution: each node gets the operator version that serves the model's import
// for its domain (the greatest since_version not above it), its attributes are checked
// against that version, and element types are followed through the graph so that a
// type the version does not allow is refused at load, not at run time.
#pragma once

#include "model/graph.h"

namespace onnxrun {

class OpRegistry;

// With `keep_unsupported`, a node that cannot be resolved or checked gets the reason in
// Node::unsupported (and a null op) instead of failing the load.
void resolve_graph(Graph& g, const OpRegistry& registry, bool keep_unsupported = false);

}  // namespace onnxrun
