#include "model/validate.h"

#include <map>
#include <queue>
#include <set>

#include "core/error.h"
#include "core/fail.h"

namespace onnxrun {

void validate_and_sort(Graph& g) {
  // Where each value comes from: -1 for graph inputs and initializers, else a node index.
  std::map<std::string, long> producer;
  std::set<std::string> declared;
  for (const ValueInfo& v : g.inputs) {
    if (!declared.insert(v.name).second) fail(ErrorKind::kInvalid, "graph input '{}' is declared twice", v.name);
    producer[v.name] = -1;
  }
  for (const auto& [name, t] : g.initializers) producer[name] = -1;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    for (const std::string& out : g.nodes[i].outputs) {
      if (out.empty()) continue;  // an optional output not asked for
      auto [it, fresh] = producer.emplace(out, static_cast<long>(i));
      if (!fresh) {
        std::string by =
            it->second < 0 ? "a graph input or initializer" : g.nodes[static_cast<size_t>(it->second)].label();
        fail(ErrorKind::kInvalid, "{}: value '{}' is produced twice (also by {})", g.nodes[i].label(), out, by);
      }
    }
  }

  // Kahn's algorithm over node indices; a min-heap keeps the file's order among ready nodes.
  std::vector<size_t> pending(g.nodes.size(), 0);
  std::vector<std::vector<size_t>> consumers(g.nodes.size());
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    std::set<long> deps;
    for (const std::string& in : g.nodes[i].inputs) {
      if (in.empty()) continue;
      auto it = producer.find(in);
      if (it == producer.end())
        fail(ErrorKind::kInvalid, "{}: input '{}' is not produced by any node, graph input or initializer",
             g.nodes[i].label(), in);
      if (it->second >= 0) deps.insert(it->second);
    }
    pending[i] = deps.size();
    for (long d : deps) consumers[static_cast<size_t>(d)].push_back(i);
  }
  std::priority_queue<size_t, std::vector<size_t>, std::greater<>> ready;
  for (size_t i = 0; i < g.nodes.size(); ++i)
    if (pending[i] == 0) ready.push(i);
  std::vector<size_t> order;
  while (!ready.empty()) {
    size_t i = ready.top();
    ready.pop();
    order.push_back(i);
    for (size_t c : consumers[i])
      if (--pending[c] == 0) ready.push(c);
  }
  if (order.size() != g.nodes.size()) {
    for (size_t i = 0; i < g.nodes.size(); ++i)
      if (pending[i] > 0) fail(ErrorKind::kInvalid, "the graph has a cycle through {}", g.nodes[i].label());
  }
  std::vector<Node> sorted;
  sorted.reserve(g.nodes.size());
  for (size_t i : order) sorted.push_back(std::move(g.nodes[i]));
  g.nodes = std::move(sorted);

  std::set<std::string> outs;
  for (const ValueInfo& v : g.outputs) {
    if (!outs.insert(v.name).second) fail(ErrorKind::kInvalid, "graph output '{}' is declared twice", v.name);
    if (!producer.count(v.name)) fail(ErrorKind::kInvalid, "graph output '{}' is not produced by any node", v.name);
  }
  if (g.outputs.empty()) fail(ErrorKind::kInvalid, "the graph has no outputs");
}

}  // namespace onnxrun
