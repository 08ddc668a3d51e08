// Fresh value and node names for nodes the loader adds to a graph (inlined function
// bodies, expanded schema functions): never equal to a name the graph already uses or
// to one handed out before, so inlining can not capture or clash with a value.
#pragma once

#include <set>
#include <string>

#include "model/graph.h"

namespace onnxrun {

class NameScope {
 public:
  // Reserves every value name `g` uses (inputs, outputs, initializers, node inputs
  // and outputs).
  explicit NameScope(const Graph& g);

  void reserve(const std::string& name) { used_.insert(name); }
  // `wanted` if free, else `wanted` followed by "_2", "_3", ...; reserved from then on.
  std::string fresh(const std::string& wanted);

 private:
  std::set<std::string> used_;
};

}  // namespace onnxrun
