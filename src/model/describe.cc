#include "model/describe.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "core/error.h"
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

bool has_initializer(const Graph& g, const ValueInfo& input) { return g.initializers.count(input.name) != 0; }

std::vector<OperatorUse> operator_uses(const Graph& g) {
  std::map<std::pair<std::string, std::string>, OperatorUse> uses;
  for (const Node& n : g.nodes) {
    OperatorUse& u = uses[{domain_label(n.domain), n.op_type}];
    if (u.nodes++ == 0) u.domain = domain_label(n.domain), u.op_type = n.op_type;
    if (n.op) {
      const std::string range = n.op->version_range();
      if (std::find(u.versions.begin(), u.versions.end(), range) == u.versions.end()) u.versions.push_back(range);
    } else if (u.unsupported++ == 0) {
      u.reason = node_problem_reason(n);
      u.invalid = node_is_invalid(n);
    }
  }
  std::vector<OperatorUse> list;
  for (auto& [key, u] : uses) list.push_back(std::move(u));
  return list;
}

namespace {
std::string operator_name(const OperatorUse& u) { return (u.domain == "ai.onnx" ? "" : u.domain + ".") + u.op_type; }
}  // namespace

std::vector<std::string> not_runnable_because(const Graph& g, const std::vector<OperatorUse>& uses) {
  std::vector<std::string> why;
  for (const OperatorUse& u : uses)
    if (u.unsupported)
      why.push_back(fmt::format("{} ({} node{}): {}{}", operator_name(u), u.unsupported, u.unsupported == 1 ? "" : "s",
                                u.invalid ? "invalid model: " : "", u.reason));
  for (const std::string& p : g.problems) why.push_back("invalid model: " + p);
  return why;
}

namespace {

// "(N, ...)" heads a list; a long one is only counted unless --all (kShortList).
bool listed(size_t count, bool all) { return all || count <= kShortList; }
const char* kAllLists = "; --all lists them";

// One operator per line, names and counts in columns.
std::string operator_table(const std::vector<OperatorUse>& ops) {
  size_t name_width = 0, count_width = 0;
  for (const OperatorUse& u : ops) {
    name_width = std::max(name_width, operator_name(u).size());
    count_width = std::max(count_width, std::to_string(u.nodes).size() + 1);
  }
  std::string out;
  for (const OperatorUse& u : ops) {
    std::string serves = joined(u.versions);
    if (u.unsupported) {
      if (!serves.empty()) serves += fmt::format("; {} of them ", u.unsupported);  // some nodes resolve, some not
      serves += fmt::format("{} ({})", u.invalid ? "INVALID" : "NOT SUPPORTED", u.reason);
    }
    out += printable(fmt::format("  {:<{}}  {:>{}}  {}", operator_name(u), name_width, "x" + std::to_string(u.nodes),
                                 count_width, serves)) +
           "\n";
  }
  return out;
}

}  // namespace

std::string describe_model_text(const Model& m, bool all) {
  const Graph& g = m.graph;
  std::string out;
  // Each line escaped (core/error.h printable): a newline in a name would start a line of
  // the model's choosing.
  auto line = [&](const std::string& s) { out += printable(s) + "\n"; };
  line(fmt::format("IR version:     {}", m.meta.ir_version));
  line(fmt::format("producer:       {}{}", m.meta.producer_name.empty() ? "(none)" : m.meta.producer_name,
                   m.meta.producer_version.empty() ? "" : " " + m.meta.producer_version));
  if (!m.meta.domain.empty() || m.meta.model_version)
    line(fmt::format("model:          domain '{}', version {}", m.meta.domain, m.meta.model_version));
  if (!g.name.empty()) line(fmt::format("graph:          {}", g.name));
  std::vector<std::string> imports;
  for (const auto& [d, v] : g.opset_imports) imports.push_back(fmt::format("{} {}", domain_label(d), v));
  line("opset imports:  " + (imports.empty() ? std::string("(none)") : joined(imports)));

  size_t backed = 0;
  for (const ValueInfo& v : g.inputs) backed += has_initializer(g, v);
  if (backed == 0) line(fmt::format("inputs ({}):", g.inputs.size()));
  else if (all) line(fmt::format("inputs ({}, {} with an initializer):", g.inputs.size(), backed));
  else line(fmt::format("inputs ({}; {} more have an initializer{}):", g.inputs.size() - backed, backed, kAllLists));
  for (const ValueInfo& v : g.inputs)
    if (all || !has_initializer(g, v))
      line(fmt::format("  {}  {}{}", v.name, describe(v), has_initializer(g, v) ? "  (has an initializer)" : ""));
  line(fmt::format("outputs ({}):", g.outputs.size()));
  for (const ValueInfo& v : g.outputs) line(fmt::format("  {}  {}", v.name, describe(v)));
  const bool list_initializers = listed(g.initializers.size(), all);
  line(fmt::format("initializers ({}, {}{}):", g.initializers.size(), human_bytes(initializer_bytes(g)),
                   list_initializers ? "" : kAllLists));
  if (list_initializers)
    for (const auto& [name, t] : g.initializers)
      line(fmt::format("  {}  {}  {}", name, t.describe(), human_bytes(t.nbytes())));

  const size_t bad = unsupported_node_count(g);
  const bool list_nodes = listed(g.nodes.size(), all);
  line(fmt::format("nodes ({}, {}{}):", g.nodes.size(),
                   bad ? fmt::format("{} not supported by onnx-run", bad) : std::string("all supported"),
                   list_nodes ? "" : kAllLists));
  if (list_nodes)
    for (const Node& n : g.nodes) {
      const std::string head = fmt::format("  {}  {}", n.name, n.op_type);
      const std::string where = fmt::format("{} opset {}", domain_label(n.domain), n.opset);
      const std::string io = fmt::format("({}) -> ({})", joined(n.inputs), joined(n.outputs));
      if (n.op) line(fmt::format("{}  {} -> {}  {}", head, where, n.op->version_range(), io));
      else
        line(fmt::format("{}  {} -> {} ({})  {}", head, n.opset ? where : domain_label(n.domain),
                         node_is_invalid(n) ? "INVALID" : "NOT SUPPORTED", node_problem_reason(n), io));
    }
  const std::vector<OperatorUse> ops = operator_uses(g);
  line(fmt::format("operators ({}):", ops.size()));
  out += operator_table(ops);

  line(fmt::format("local functions ({}):", m.functions.size()));
  for (const Function& f : m.functions)
    line(fmt::format("  {}.{}({}) -> ({}){}  body: {}", domain_label(f.domain), f.name, joined(f.inputs),
                     joined(f.outputs),
                     function_attribute_names(f).empty() ? "" : "  attributes: " + joined(function_attribute_names(f)),
                     joined(function_body_ops(f), " ")));
  const std::vector<std::string> why = not_runnable_because(g, ops);
  if (why.empty()) line("runnable:       yes");
  else {
    line("runnable:       no, because:");
    for (const std::string& w : why) line("  " + w);
  }
  return out;
}

}  // namespace onnxrun
