#include "model/schema_functions.h"

#include <map>

#include "core/error.h"
#include "core/fail.h"
#include "model/unique_names.h"
#include "ops/registry.h"

namespace onnxrun {
namespace {

// The value a body attribute takes for caller `n`: the caller's attribute it refers
// to, else the body's own value (a literal, or the default of the caller's attribute).
Attribute body_attr_value(const Node& n, const BodyAttr& a) {
  if (a.ref.empty()) return a.value;
  auto it = n.attrs.find(a.ref);
  if (it == n.attrs.end()) return a.value;
  if (it->second.kind != a.value.kind)
    fail(ErrorKind::kInvalid, "{}: attribute '{}' must be of type {}, got {}", n.label(), a.ref,
         attr_kind_name(a.value.kind), attr_kind_name(it->second.kind));
  return it->second;
}

// Whether `n` names every input and output its version's body needs.
bool has_formals(const Node& n, const FunctionBody& body) {
  if (n.inputs.size() < body.inputs.size() || n.outputs.size() < body.outputs.size()) return false;
  for (size_t k = 0; k < body.inputs.size(); ++k)
    if (n.inputs[k].empty()) return false;
  for (size_t k = 0; k < body.outputs.size(); ++k)
    if (n.outputs[k].empty()) return false;
  return true;
}

// Appends `body` for caller `n` to `out`: body node b becomes node "<n.name>/<b's first
// output>"; formals become the caller's values, every other value a fresh name.
void expand_body(const Node& n, const FunctionBody& body, NameScope& names, std::vector<Node>& out) {
  const std::string p = n.name + "/";
  std::map<std::string, std::string> value;  // body name -> graph name
  for (size_t k = 0; k < body.inputs.size(); ++k) value[body.inputs[k]] = n.inputs[k];
  for (size_t k = 0; k < body.outputs.size(); ++k) value[body.outputs[k]] = n.outputs[k];
  auto graph_name = [&](const std::string& v) -> const std::string& {
    auto [it, fresh] = value.emplace(v, "");
    if (fresh) it->second = names.fresh(p + v);
    return it->second;
  };
  for (const BodyNode& b : body.nodes) {
    Node g;
    g.name = p + b.outputs.at(0);
    g.op_type = b.op_type;
    g.domain = "";
    for (const std::string& v : b.inputs) g.inputs.push_back(graph_name(v));
    for (const std::string& v : b.outputs) g.outputs.push_back(graph_name(v));
    for (const BodyAttr& a : b.attrs) g.attrs[a.name] = body_attr_value(n, a);
    g.opset = n.opset;
    out.push_back(std::move(g));
  }
}

}  // namespace

size_t expand_schema_functions(Graph& g) {
  NameScope names(g);
  std::vector<Node> out;
  size_t expanded = 0;
  for (Node& n : g.nodes) {
    if (!n.op || !n.op->body || !has_formals(n, *n.op->body)) {
      out.push_back(std::move(n));
      continue;
    }
    expand_body(n, *n.op->body, names, out);
    ++expanded;
  }
  g.nodes = std::move(out);
  return expanded;
}

}  // namespace onnxrun
