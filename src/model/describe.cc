#include "model/describe.h"

#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "ops/registry.h"

namespace onnxrun {
namespace {

std::string domain_label(const std::string& d) { return d.empty() ? "ai.onnx" : d; }

// A fault of the model (a required input named '', say), not a gap in onnx-run.
bool is_invalid(const Node& n) { return n.problem && n.problem->kind() != ErrorKind::kUnsupported; }

// The reason without the "node 'x' (Op): " context that starts every node error.
std::string short_reason(const Node& n) {
  const std::string prefix = n.label() + ": ";
  const std::string why = n.problem ? n.problem->what() : "";
  std::string r = why.compare(0, prefix.size(), prefix) == 0 ? why.substr(prefix.size()) : why;
  if (r.size() > 18 && r.compare(r.size() - 18, 18, "is not implemented") == 0) return "operator not implemented";
  return r;
}

// The op types of a function's body, in order.
std::vector<std::string> body_ops(const Function& f) {
  std::vector<std::string> ops;
  for (const Node& n : f.nodes) ops.push_back(n.op_type);
  return ops;
}

// Every attribute a function declares, with or without a default.
std::vector<std::string> attribute_names(const Function& f) {
  std::vector<std::string> names = f.attributes;
  for (const auto& [name, value] : f.attribute_defaults) names.push_back(name);
  return names;
}

std::string human_bytes(size_t b) {
  if (b < 1024) return fmt::format("{} B", b);
  if (b < 1024 * 1024) return fmt::format("{:.1f} KiB", b / 1024.0);
  if (b < size_t{1} << 30) return fmt::format("{:.1f} MiB", b / (1024.0 * 1024));
  return fmt::format("{:.2f} GiB", b / (1024.0 * 1024 * 1024));
}

std::string joined(const std::vector<std::string>& v, const char* sep = ", ") {
  std::string out;
  for (size_t k = 0; k < v.size(); ++k) out += (k ? sep : "") + (v[k].empty() ? std::string("<absent>") : v[k]);
  return out;
}

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
    j["reason"] = short_reason(n);
    j["invalid"] = is_invalid(n);
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
  j["attributes"] = attribute_names(f);
  j["body_ops"] = body_ops(f);
  return j;
}

size_t initializer_bytes(const Graph& g) {
  size_t total = 0;
  for (const auto& [name, t] : g.initializers) total += t.nbytes();
  return total;
}

size_t unsupported_count(const Graph& g) {
  size_t n = 0;
  for (const Node& node : g.nodes) n += node.op == nullptr;
  return n;
}

size_t invalid_count(const Graph& g) {
  size_t n = 0;
  for (const Node& node : g.nodes) n += node.op == nullptr && is_invalid(node);
  return n;
}

}  // namespace

std::string describe_model_text(const Model& m) {
  const Graph& g = m.graph;
  std::string out;
  auto line = [&](const std::string& s) { out += s + "\n"; };
  line(fmt::format("IR version:     {}", m.meta.ir_version));
  line(fmt::format("producer:       {}{}", m.meta.producer_name.empty() ? "(none)" : m.meta.producer_name,
                   m.meta.producer_version.empty() ? "" : " " + m.meta.producer_version));
  if (!m.meta.domain.empty() || m.meta.model_version)
    line(fmt::format("model:          domain '{}', version {}", m.meta.domain, m.meta.model_version));
  if (!g.name.empty()) line(fmt::format("graph:          {}", g.name));
  std::vector<std::string> imports;
  for (const auto& [d, v] : g.opset_imports) imports.push_back(fmt::format("{} {}", domain_label(d), v));
  line("opset imports:  " + (imports.empty() ? std::string("(none)") : joined(imports)));

  line(fmt::format("inputs ({}):", g.inputs.size()));
  for (const ValueInfo& v : g.inputs)
    line(fmt::format("  {}  {}{}", v.name, describe(v), g.initializers.count(v.name) ? "  (has an initializer)" : ""));
  line(fmt::format("outputs ({}):", g.outputs.size()));
  for (const ValueInfo& v : g.outputs) line(fmt::format("  {}  {}", v.name, describe(v)));
  line(fmt::format("initializers ({}, {}):", g.initializers.size(), human_bytes(initializer_bytes(g))));
  for (const auto& [name, t] : g.initializers) line(fmt::format("  {}  {}  {}", name, t.describe(), human_bytes(t.nbytes())));

  const size_t bad = unsupported_count(g);
  line(fmt::format("nodes ({}, {}):", g.nodes.size(),
                   bad ? fmt::format("{} not supported by onnx-run", bad) : std::string("all supported")));
  for (const Node& n : g.nodes) {
    const std::string head = fmt::format("  {}  {}", n.name, n.op_type);
    const std::string where = fmt::format("{} opset {}", domain_label(n.domain), n.opset);
    const std::string io = fmt::format("({}) -> ({})", joined(n.inputs), joined(n.outputs));
    if (n.op)
      line(fmt::format("{}  {} -> {}  {}", head, where, n.op->version_range(), io));
    else
      line(fmt::format("{}  {} -> {} ({})  {}", head, n.opset ? where : domain_label(n.domain),
                       is_invalid(n) ? "INVALID" : "NOT SUPPORTED", short_reason(n), io));
  }
  // Which operators the model uses, and how many times: the quickest answer to "can it run?".
  std::map<std::string, std::pair<size_t, bool>> ops;
  for (const Node& n : g.nodes) {
    auto& [count, supported] = ops[n.domain.empty() ? n.op_type : n.domain + "." + n.op_type];
    supported = count == 0 ? n.op != nullptr : supported && n.op != nullptr;
    ++count;
  }
  std::vector<std::string> op_list;
  for (const auto& [op, info] : ops)
    op_list.push_back(fmt::format("{} x{}{}", op, info.first, info.second ? "" : " (not supported)"));
  line("operators:      " + (op_list.empty() ? std::string("(none)") : joined(op_list)));

  line(fmt::format("local functions ({}):", m.functions.size()));
  for (const Function& f : m.functions)
    line(fmt::format("  {}.{}({}) -> ({}){}  body: {}", domain_label(f.domain), f.name, joined(f.inputs),
                     joined(f.outputs), attribute_names(f).empty() ? "" : "  attributes: " + joined(attribute_names(f)),
                     joined(body_ops(f), " ")));
  line(std::string("runnable:       ") +
       (bad == 0 ? "yes"
        : invalid_count(g) ? "no (the model is invalid: see the nodes marked INVALID)"
                           : "no (onnx-run does not implement everything this model uses)"));
  return out;
}

std::string describe_model_json(const Model& m) {
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
  j["inputs"] = json_array(g.inputs, json_value);
  j["outputs"] = json_array(g.outputs, json_value);
  j["initializers"] = json_array(g.initializers, json_initializer);
  j["initializer_bytes"] = initializer_bytes(g);
  j["nodes"] = json_array(g.nodes, json_node);
  j["functions"] = json_array(m.functions, json_function);
  j["runnable"] = unsupported_count(g) == 0;
  // The names and strings come from the model file, which need not be valid UTF-8:
  // `replace` writes U+FFFD for a bad byte where the default would throw.
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace onnxrun
