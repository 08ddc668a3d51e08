// The inverse of schema_functions.h: subgraphs that compute exactly what one operator
// version computes (its function body, or an exporter's idiom for it: OpDef::patterns,
// written in ops/) are found and replaced by one node of that version, so that its
// kernel runs them in one pass. The patterns are data of the operator table; this file
// matches them and names no operator of its own.
//
// A match needs: every pattern node a resolved graph node of that op type (default
// domain, no attributes, one output), inputs bound consistently (X the same value
// wherever the pattern uses it), constants as the pattern says (OpDef::constant nodes
// or initializers no input can replace, 0-d, NaN never), the type of input 0 known and
// allowed by the version, and no value inside the match used outside it (nor a graph
// output). Node order does not matter.
#pragma once

#include <string>
#include <vector>

#include "model/graph.h"

namespace onnxrun {

class OpRegistry;

// One replacement, for info and --print-graph.
struct RecognisedSubgraph {
  std::string node;                   // the node that replaced them (named after the match's output node)
  std::string op;                     // "LeakyRelu v16 (16+)"
  std::string what;                   // OpPattern::what
  std::vector<std::string> replaced;  // names of the graph nodes it replaced, in graph order
};

// REQUIRES: `g` resolved and topologically sorted. Rewrites `g` in place (node order
// stays topological) and returns what it replaced; constant nodes a match used are
// dropped when nothing else uses them.
std::vector<RecognisedSubgraph> recognise_functions(Graph& g, const OpRegistry& registry);

}  // namespace onnxrun
