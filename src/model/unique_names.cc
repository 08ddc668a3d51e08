#include "model/unique_names.h"

namespace onnxrun {

NameScope::NameScope(const Graph& g) {
  for (const ValueInfo& v : g.inputs) used_.insert(v.name);
  for (const ValueInfo& v : g.outputs) used_.insert(v.name);
  for (const auto& [name, t] : g.initializers) used_.insert(name);
  for (const Node& n : g.nodes) {
    used_.insert(n.inputs.begin(), n.inputs.end());
    used_.insert(n.outputs.begin(), n.outputs.end());
  }
}

std::string NameScope::fresh(const std::string& wanted) {
  std::string name = wanted;
  for (int k = 2; !used_.insert(name).second; ++k) name = wanted + "_" + std::to_string(k);
  return name;
}

}  // namespace onnxrun
