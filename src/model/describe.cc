#include "model/describe.h"

#include <map>

#include <fmt/format.h>

#include "ops/registry.h"

namespace onnxrun {

std::string domain_label(const std::string& d) { return d.empty() ? "ai.onnx" : d; }

bool node_is_invalid(const Node& n) { return n.problem && n.problem->kind() != ErrorKind::kUnsupported; }

std::string node_problem_reason(const Node& n) {
  const std::string prefix = n.label() + ": ";
  const std::string why = n.problem ? n.problem->what() : "";
  std::string r = why.compare(0, prefix.size(), prefix) == 0 ? why.substr(prefix.size()) : why;
  if (r.size() > 18 && r.compare(r.size() - 18, 18, "is not implemented") == 0) return "operator not implemented";
  return r;
}

std::vector<std::string> function_body_ops(const Function& f) {
  std::vector<std::string> ops;
  for (const Node& n : f.nodes) ops.push_back(n.op_type);
  return ops;
}

std::vector<std::string> function_attribute_names(const Function& f) {
  std::vector<std::string> names = f.attributes;
  for (const auto& [name, value] : f.attribute_defaults) names.push_back(name);
  return names;
}

namespace {

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

}  // namespace

size_t initializer_bytes(const Graph& g) {
  size_t total = 0;
  for (const auto& [name, t] : g.initializers) total += t.nbytes();
  return total;
}

size_t unsupported_node_count(const Graph& g) {
  size_t n = 0;
  for (const Node& node : g.nodes) n += node.op == nullptr;
  return n;
}

namespace {

size_t invalid_count(const Graph& g) {
  size_t n = 0;
  for (const Node& node : g.nodes) n += node.op == nullptr && node_is_invalid(node);
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
  for (const auto& [name, t] : g.initializers)
    line(fmt::format("  {}  {}  {}", name, t.describe(), human_bytes(t.nbytes())));

  const size_t bad = unsupported_node_count(g);
  line(fmt::format("nodes ({}, {}):", g.nodes.size(),
                   bad ? fmt::format("{} not supported by onnx-run", bad) : std::string("all supported")));
  for (const Node& n : g.nodes) {
    const std::string head = fmt::format("  {}  {}", n.name, n.op_type);
    const std::string where = fmt::format("{} opset {}", domain_label(n.domain), n.opset);
    const std::string io = fmt::format("({}) -> ({})", joined(n.inputs), joined(n.outputs));
    if (n.op) line(fmt::format("{}  {} -> {}  {}", head, where, n.op->version_range(), io));
    else
      line(fmt::format("{}  {} -> {} ({})  {}", head, n.opset ? where : domain_label(n.domain),
                       node_is_invalid(n) ? "INVALID" : "NOT SUPPORTED", node_problem_reason(n), io));
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
                     joined(f.outputs),
                     function_attribute_names(f).empty() ? "" : "  attributes: " + joined(function_attribute_names(f)),
                     joined(function_body_ops(f), " ")));
  line(std::string("runnable:       ") + (bad == 0 ? "yes"
                                          : invalid_count(g)
                                              ? "no (the model is invalid: see the nodes marked INVALID)"
                                              : "no (onnx-run does not implement everything this model uses)"));
  return out;
}

}  // namespace onnxrun
