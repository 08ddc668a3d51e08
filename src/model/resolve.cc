#include "model/resolve.h"

#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.h"
#include "core/fail.h"
#include "core/log.h"
#include "model/known_versions.h"
#include "ops/registry.h"

namespace onnxrun {
namespace {

std::string domain_label(const std::string& d) { return d.empty() ? "ai.onnx" : d; }

std::string implemented_list(const std::vector<const OpDef*>& versions) {
  std::vector<std::string> parts;
  for (const OpDef* d : versions) parts.push_back(d->version_range());
  return fmt::format("{}", fmt::join(parts, ", "));
}

const OpDef* resolve_node(const Node& n, int64_t opset, const OpRegistry& registry) {
  if (!registry.has_domain(n.domain)) {
    std::vector<std::string> domains;
    for (const std::string& d : registry.domains()) domains.push_back(domain_label(d));
    Cause c{Cause::Kind::kDomain, n.op_type, n.domain, opset, "", ""};
    fail_unsupported(c, "{}: domain '{}' (opset {}) is not supported; onnx-run implements: {}", n.label(),
                     domain_label(n.domain), opset, fmt::join(domains, ", "));
  }
  if (const OpDef* def = registry.find(n.domain, n.op_type, opset)) return def;
  const auto versions = registry.versions(n.domain, n.op_type);
  if (versions.empty())
    fail_unsupported(Cause{Cause::Kind::kOp, n.op_type, n.domain, opset, "", ""},
                     "{}: operator {} (domain {}, opset {}) is not implemented", n.label(), n.op_type,
                     domain_label(n.domain), opset);
  fail_unsupported(Cause{Cause::Kind::kVersion, n.op_type, n.domain, opset, "", ""},
                   "{}: {}: opset {} has no implemented version; implemented: {}", n.label(), n.op_type, opset,
                   implemented_list(versions));
}

// Resolves one node and follows element types through it (`types`: value -> type).
void resolve_one(Node& n, const Graph& g, const OpRegistry& registry,
                 std::map<std::string, std::optional<DType>>& types) {
  // A node inlined from a function body arrives with its opset set from the function's
  // own opset_import; every other node takes the model's.
  if (n.opset <= 0) {
    auto imp = g.opset_imports.find(n.domain);
    if (imp == g.opset_imports.end())
      fail(ErrorKind::kInvalid, "{}: the model does not import domain '{}' in opset_import", n.label(),
           domain_label(n.domain));
    n.opset = imp->second;
  }
  n.op = resolve_node(n, n.opset, registry);
  const OpDef& def = *n.op;
  // An empty name is ONNX's absent optional input; in a required position it leaves the
  // kernel without an operand.
  for (size_t k = 0; k < n.inputs.size() && k < def.min_inputs; ++k)
    if (n.inputs[k].empty()) fail(ErrorKind::kInvalid, "{}: input {} is required but its name is empty", n.label(), k);
  const std::string ctx = fmt::format("{} {} {}", n.label(), def.op_type, def.version_range());
  try {
    check_attributes(def, n.attrs);
    if (n.inputs.size() < def.min_inputs || n.inputs.size() > def.inputs.size())
      fail(ErrorKind::kInvalid, "takes {} to {} inputs, got {}", def.min_inputs, def.inputs.size(), n.inputs.size());
    if (n.outputs.size() > def.outputs.size() || n.outputs.empty())
      fail(ErrorKind::kInvalid, "has at most {} outputs, got {}", def.outputs.size(), n.outputs.size());
    std::vector<std::optional<DType>> in_types;
    for (const std::string& name : n.inputs) in_types.push_back(name.empty() ? std::nullopt : types[name]);
    auto out_types = check_and_infer_types(def, in_types, n.attrs);
    for (size_t k = 0; k < n.outputs.size(); ++k)
      if (!n.outputs[k].empty()) types[n.outputs[k]] = k < out_types.size() ? out_types[k] : std::nullopt;
  } catch (const Error& e) {
    throw e.with_context(ctx);
  }
}

}  // namespace

void resolve_graph(Graph& g, const OpRegistry& registry, bool keep_unsupported) {
  auto it = g.opset_imports.find("");
  if (it != g.opset_imports.end() && it->second > kNewestKnownOpset)
    log::warn(
        "the model imports opset {} of ai.onnx; onnx-run knows versions up to {} and resolves each node "
        "to the newest version it implements",
        it->second, kNewestKnownOpset);

  // A fault of the graph itself: thrown, or with keep_unsupported kept for `info`.
  auto invalid = [&](const std::string& problem) {
    if (!keep_unsupported) fail(ErrorKind::kInvalid, "{}", problem);
    g.problems.push_back(problem);
  };
  std::map<std::string, std::optional<DType>> types;
  for (const ValueInfo& v : g.inputs) types[v.name] = v.dtype;
  for (const auto& [name, t] : g.initializers) {
    // Named after an input, an initializer is that input's default: of its declared type.
    // Described (keep_unsupported), the graph goes on with the declared type, so that the
    // outputs computed from it do not take the blame as well.
    if (const ValueInfo* v = g.find_input(name); v && v->dtype && *v->dtype != t.dtype())
      invalid(fmt::format("initializer '{}' is {} but graph input '{}' is declared {}", name, dtype_name(t.dtype()),
                          name, dtype_name(*v->dtype)));
    else types[name] = t.dtype();
  }

  // Every node is resolved, even after one fails, so that the error names every
  // unsupported node (the test runner's table counts them all) and `info` can show each.
  const Node* first_bad = nullptr;
  std::vector<Cause> causes;
  for (Node& n : g.nodes) {
    try {
      resolve_one(n, g, registry, types);
      if (n.problem) throw *n.problem;  // an attribute it could not read (model/proto_to_graph.cc)
    } catch (const Error& e) {
      n.op = nullptr;
      n.problem = e;
      if (!first_bad) first_bad = &n;
      for (const Cause& c : e.causes()) causes.push_back(c);
      for (const std::string& out : n.outputs) types[out] = std::nullopt;
    }
  }
  if (first_bad && !keep_unsupported) {
    const Error e = *first_bad->problem;
    throw causes.empty() || e.kind() != ErrorKind::kUnsupported ? e : e.with_causes(causes);
  }
  for (const ValueInfo& v : g.outputs) {
    auto t = types[v.name];
    if (v.dtype && t && *v.dtype != *t)
      invalid(fmt::format("graph output '{}' is declared {} but computed as {}", v.name, dtype_name(*v.dtype),
                          dtype_name(*t)));
  }
}

}  // namespace onnxrun
