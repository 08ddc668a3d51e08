// What the executor's plan-time rewrites did to a graph (Executor::fusion()), for
// `onnx-run info` and `--print-graph`: the subgraphs it recognised as one operator
// (model/recognise_functions.h) and the chains of elementwise nodes it runs as one pass
// (exec/fused_chain.h). Neither changes a result bit.
#pragma once

#include <string>
#include <vector>

#include "model/recognise_functions.h"

namespace onnxrun {

struct Fusion {
  std::vector<RecognisedSubgraph> recognised;
  std::vector<std::vector<std::string>> chains;  // node names, in the order they run; two or more each
  // Fan-outs run as one pass over their input: the input's name, then each branch's first
  // node (a branch that is a chain is listed in `chains` too).
  struct FanOut {
    std::string input;
    std::vector<std::string> branches;
  };
  std::vector<FanOut> fanouts;
  bool empty() const { return recognised.empty() && chains.empty() && fanouts.empty(); }
};

// One line per rewrite, each starting with two spaces ("  recognised ...", "  fused ...");
// "  (none)" when there were none.
std::string describe_fusion(const Fusion& f);

}  // namespace onnxrun
