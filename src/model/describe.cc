#include "model/describe.h"

#include <map>

#include <fmt/format.h>

#include "core/json.h"
#include "ops/registry.h"

namespace onnxrun {
namespace {

std::string domain_label(const std::string& d) { return d.empty() ? "ai.onnx" : d; }

// The reason without the "node 'x' (Op): " context that starts every node error.
std::string short_reason(const Node& n) {
  const std::string prefix = n.label() + ": ";
  std::string r = n.unsupported.compare(0, prefix.size(), prefix) == 0 ? n.unsupported.substr(prefix.size()) : n.unsupported;
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

std::string json_list(const std::vector<std::string>& v) {
  std::string out = "[";
  for (size_t k = 0; k < v.size(); ++k) out += (k ? ", " : "") + json_string(v[k]);
  return out + "]";
}

std::string json_shape(const ValueInfo& v) {
  if (!v.shape) return "null";
  std::string out = "[";
  for (size_t k = 0; k < v.shape->size(); ++k) {
    const Dim& d = (*v.shape)[k];
    out += k ? ", " : "";
    out += d.fixed() ? std::to_string(d.value) : d.param.empty() ? "null" : json_string(d.param);
  }
  return out + "]";
}

std::string json_value(const ValueInfo& v) {
  return fmt::format("{{\"name\": {}, \"type\": {}, \"shape\": {}}}", json_string(v.name),
                     v.dtype ? json_string(dtype_name(*v.dtype)) : "null", json_shape(v));
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
      line(fmt::format("{}  {} -> NOT SUPPORTED ({})  {}", head, n.opset ? where : domain_label(n.domain), short_reason(n), io));
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
       (bad == 0 ? "yes" : "no (onnx-run does not implement everything this model uses)"));
  return out;
}

std::string describe_model_json(const Model& m) {
  const Graph& g = m.graph;
  std::string out = "{\n";
  out += fmt::format("  \"ir_version\": {},\n  \"producer_name\": {},\n  \"producer_version\": {},\n", m.meta.ir_version,
                     json_string(m.meta.producer_name), json_string(m.meta.producer_version));
  out += fmt::format("  \"domain\": {},\n  \"model_version\": {},\n  \"graph_name\": {},\n", json_string(m.meta.domain),
                     m.meta.model_version, json_string(g.name));
  std::vector<std::string> parts;
  for (const auto& [d, v] : g.opset_imports) parts.push_back(fmt::format("{}: {}", json_string(domain_label(d)), v));
  out += "  \"opset_imports\": {" + joined(parts) + "},\n";
  auto values = [](const std::vector<ValueInfo>& vs) {
    std::vector<std::string> items;
    for (const ValueInfo& v : vs) items.push_back("    " + json_value(v));
    return items.empty() ? std::string("[]") : "[\n" + joined(items, ",\n") + "\n  ]";
  };
  out += "  \"inputs\": " + values(g.inputs) + ",\n";
  out += "  \"outputs\": " + values(g.outputs) + ",\n";
  parts.clear();
  for (const auto& [name, t] : g.initializers) {
    std::string shape = "[";
    for (size_t k = 0; k < t.rank(); ++k) shape += (k ? ", " : "") + std::to_string(t.shape()[k]);
    parts.push_back(fmt::format("    {{\"name\": {}, \"type\": {}, \"shape\": {}], \"bytes\": {}}}", json_string(name),
                                json_string(dtype_name(t.dtype())), shape, t.nbytes()));
  }
  out += "  \"initializers\": " + (parts.empty() ? std::string("[]") : "[\n" + joined(parts, ",\n") + "\n  ]") + ",\n";
  out += fmt::format("  \"initializer_bytes\": {},\n", initializer_bytes(g));
  parts.clear();
  for (const Node& n : g.nodes) {
    std::string item = fmt::format("    {{\"name\": {}, \"op_type\": {}, \"domain\": {}, \"opset\": {}, \"supported\": {}, ",
                                   json_string(n.name), json_string(n.op_type), json_string(domain_label(n.domain)),
                                   n.opset, n.op ? "true" : "false");
    item += n.op ? fmt::format("\"resolved_version\": {}, \"version_range\": {}, ", n.op->since,
                               json_string(n.op->version_range()))
                 : fmt::format("\"reason\": {}, ", json_string(short_reason(n)));
    item += fmt::format("\"inputs\": {}, \"outputs\": {}}}", json_list(n.inputs), json_list(n.outputs));
    parts.push_back(item);
  }
  out += "  \"nodes\": " + (parts.empty() ? std::string("[]") : "[\n" + joined(parts, ",\n") + "\n  ]") + ",\n";
  parts.clear();
  for (const Function& f : m.functions)
    parts.push_back(fmt::format(
        "    {{\"domain\": {}, \"name\": {}, \"inputs\": {}, \"outputs\": {}, \"attributes\": {}, \"body_ops\": {}}}",
        json_string(domain_label(f.domain)), json_string(f.name), json_list(f.inputs), json_list(f.outputs),
        json_list(attribute_names(f)), json_list(body_ops(f))));
  out += "  \"functions\": " + (parts.empty() ? std::string("[]") : "[\n" + joined(parts, ",\n") + "\n  ]") + ",\n";
  out += fmt::format("  \"runnable\": {}\n}}\n", unsupported_count(g) == 0 ? "true" : "false");
  return out;
}

}  // namespace onnxrun
