// Graph structure: every value has one producer (graph input, initializer or one node
// output), every node input and graph output is produced, and the nodes form no cycle.
// Sorts the nodes topologically (stable: a graph already in order keeps its order).
#pragma once

#include "model/graph.h"

namespace onnxrun {

void validate_and_sort(Graph& g);

}  // namespace onnxrun
