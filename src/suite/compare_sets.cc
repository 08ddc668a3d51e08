#include "suite/compare_sets.h"

#include <algorithm>
#include <map>

#include "io/npy.h"
#include "io/result_files.h"
#include "model/load.h"

namespace onnxrun {
namespace {

// Each value's place in the graph: inputs, then the nodes' outputs in (topological)
// node order, then the graph's outputs.
std::map<std::string, size_t> graph_order(const std::string& model) {
  const Model m = load_model(model);
  std::map<std::string, size_t> order;
  auto place = [&](const std::string& name) { order.emplace(name, order.size()); };
  for (const ValueInfo& v : m.graph.inputs) place(v.name);
  for (const Node& n : m.graph.nodes)
    for (const std::string& out : n.outputs) place(out);
  for (const ValueInfo& v : m.graph.outputs) place(v.name);
  return order;
}

}  // namespace

SetsComparison compare_result_sets(const std::string& a, const std::string& b, const Tolerance& tol,
                                   const std::string& model) {
  SetsComparison out;
  out.a = a;
  out.b = b;
  out.model = model;
  const std::map<std::string, size_t> order = model.empty() ? std::map<std::string, size_t>() : graph_order(model);
  std::vector<ResultTensor> set_a = read_result_files(a);
  std::vector<ResultTensor> set_b = read_result_files(b);
  std::vector<std::string> names_a, names_b;
  for (const ResultTensor& t : set_a) names_a.push_back(t.name);
  for (const ResultTensor& t : set_b) names_b.push_back(t.name);
  const std::vector<size_t> slot = match_by_name_then_position(names_a, names_b);

  std::vector<const ResultTensor*> partner(set_a.size(), nullptr);
  for (size_t k = 0; k < set_b.size(); ++k)
    if (slot[k] < set_a.size()) partner[slot[k]] = &set_b[k];
  for (size_t j = 0; j < set_a.size(); ++j) {
    ValuePair p;
    p.name = set_a[j].name;
    p.file_a = set_a[j].file;
    if (const ResultTensor* other = partner[j]) {
      p.file_b = other->file;
      // numpy has no bfloat16: a numpy side's uint16 bits are bfloat16 where the other side is.
      const Tensor x = set_a[j].numpy ? bfloat16_from_bits(set_a[j].tensor, other->tensor.dtype()) : set_a[j].tensor;
      const Tensor y = other->numpy ? bfloat16_from_bits(other->tensor, set_a[j].tensor.dtype()) : other->tensor;
      p.comparison = compare_tensors(x, y, tol.for_output(p.name));
    }
    out.values.push_back(std::move(p));
  }
  for (size_t k = 0; k < set_b.size(); ++k)
    if (slot[k] == set_a.size()) out.values.push_back({set_b[k].name, "", set_b[k].file, std::nullopt});

  if (!order.empty()) {
    auto place = [&](const ValuePair& p) {
      const auto it = order.find(p.name);
      return it == order.end() ? order.size() : it->second;
    };
    std::stable_sort(out.values.begin(), out.values.end(),
                     [&](const ValuePair& x, const ValuePair& y) { return place(x) < place(y); });
  }
  for (size_t k = 0; k < out.values.size() && !out.first_divergent; ++k)
    if (!out.values[k].same()) out.first_divergent = k;
  return out;
}

}  // namespace onnxrun
