// The `onnx-run info --json` document (schema in suite/json_documents.h).
#include <utility>

#include "model/describe.h"
#include "ops/registry.h"
#include "suite/json_documents.h"
#include "suite/json_values.h"

namespace onnxrun {
namespace {

using nlohmann::ordered_json;

// A JSON array of to_json(item) for each item; [] rather than null when there are none.
template <class Items, class ToJson>
ordered_json json_array(const Items& items, ToJson to_json) {
  ordered_json list = ordered_json::array();
  for (const auto& item : items) list.push_back(to_json(item));
  return list;
}

// A fixed dim as its size, a symbolic one as its name, an unknown one as null.
ordered_json json_dim(const Dim& d) {
  if (d.fixed()) return d.value;
  if (d.param.empty()) return nullptr;
  return d.param;
}

ordered_json json_value(const ValueInfo& v) {
  ordered_json j;
  j["name"] = v.name;
  j["type"] = v.dtype ? ordered_json(dtype_name(*v.dtype)) : ordered_json(nullptr);
  j["shape"] = v.shape ? json_array(*v.shape, json_dim) : ordered_json(nullptr);  // null: rank unknown
  return j;
}

ordered_json json_operator(const OperatorUse& u) {
  ordered_json j;
  j["domain"] = u.domain;
  j["op_type"] = u.op_type;
  j["nodes"] = u.nodes;
  j["unsupported_nodes"] = u.unsupported;
  j["versions"] = u.versions;
  j["reason"] = u.unsupported ? ordered_json(u.reason) : ordered_json(nullptr);
  j["invalid"] = u.invalid;
  return j;
}

ordered_json json_initializer(const std::pair<const std::string, Tensor>& named) {
  const auto& [name, t] = named;
  ordered_json j;
  j["name"] = name;
  j["type"] = dtype_name(t.dtype());
  j["shape"] = t.shape();
  j["bytes"] = t.nbytes();
  return j;
}

ordered_json json_node(const Node& n) {
  ordered_json j;
  j["name"] = n.name;
  j["op_type"] = n.op_type;
  j["domain"] = domain_label(n.domain);
  j["opset"] = n.opset;
  j["supported"] = n.op != nullptr;
  if (n.op) {
    j["resolved_version"] = n.op->since;
    j["version_range"] = n.op->version_range();
  } else {
    j["reason"] = node_problem_reason(n);
    j["invalid"] = node_is_invalid(n);
  }
  j["inputs"] = n.inputs;
  j["outputs"] = n.outputs;
  return j;
}

ordered_json json_function(const Function& f) {
  ordered_json j;
  j["domain"] = domain_label(f.domain);
  j["name"] = f.name;
  j["inputs"] = f.inputs;
  j["outputs"] = f.outputs;
  j["attributes"] = function_attribute_names(f);
  j["body_ops"] = function_body_ops(f);
  return j;
}

ordered_json json_fusion(const Fusion& f) {
  ordered_json j;
  j["recognised"] = json_array(f.recognised, [](const RecognisedSubgraph& r) {
    ordered_json e;
    e["node"] = r.node;
    e["op"] = r.op;
    e["what"] = r.what;
    e["replaced"] = r.replaced;
    return e;
  });
  j["chains"] = json_array(f.chains, [](const std::vector<std::string>& c) { return ordered_json(c); });
  j["fanouts"] = json_array(f.fanouts, [](const Fusion::FanOut& fan) {
    ordered_json e;
    e["input"] = fan.input;
    e["branches"] = fan.branches;
    return e;
  });
  return j;
}

}  // namespace

std::string info_json(const Model& m, const std::optional<Fusion>& fusion) {
  const Graph& g = m.graph;
  ordered_json j;
  j["ir_version"] = m.meta.ir_version;
  j["producer_name"] = m.meta.producer_name;
  j["producer_version"] = m.meta.producer_version;
  j["domain"] = m.meta.domain;
  j["model_version"] = m.meta.model_version;
  j["graph_name"] = g.name;
  ordered_json imports = ordered_json::object();
  for (const auto& [domain, version] : g.opset_imports) imports[domain_label(domain)] = version;
  j["opset_imports"] = imports;
  j["inputs"] = json_array(g.inputs, [&](const ValueInfo& v) {
    ordered_json e = json_value(v);
    e["initializer"] = has_initializer(g, v);
    return e;
  });
  j["outputs"] = json_array(g.outputs, json_value);
  j["initializers"] = json_array(g.initializers, json_initializer);
  j["initializer_bytes"] = initializer_bytes(g);
  j["nodes"] = json_array(g.nodes, json_node);
  j["functions"] = json_array(m.functions, json_function);
  const std::vector<OperatorUse> uses = operator_uses(g);
  j["operators"] = json_array(uses, json_operator);
  const std::vector<std::string> why = not_runnable_because(g, uses);
  j["runnable"] = why.empty();
  j["not_runnable_because"] = why;
  j["fusion"] = fusion ? json_fusion(*fusion) : ordered_json(nullptr);
  return json_text(j, 2);
}

}  // namespace onnxrun
