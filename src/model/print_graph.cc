#include "model/print_graph.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "io/tensor_text.h"
#include "ops/registry.h"

namespace onnxrun {
namespace {

std::string format_attr(const Attribute& a) {
  switch (a.kind) {
    case AttrKind::kFloat: return fmt::format("{}", a.f);
    case AttrKind::kInt: return fmt::format("{}", a.i);
    case AttrKind::kString: return fmt::format("\"{}\"", a.s);
    case AttrKind::kFloats: return fmt::format("[{}]", fmt::join(a.floats, ","));
    case AttrKind::kInts: return fmt::format("[{}]", fmt::join(a.ints, ","));
    case AttrKind::kStrings: return fmt::format("[{} strings]", a.strings.size());
    case AttrKind::kTensor:
      // The value as its own type reads back (an int64 past 2^53 too, which a double rounds).
      if (a.t.valid() && a.t.numel() == 1)
        return fmt::format("{}({})", a.t.describe(), format_element_shortest(a.t, 0));
      return a.t.valid() ? a.t.describe() : "tensor";
  }
  return "?";
}

}  // namespace

std::string format_graph(const Graph& g) {
  std::string s = fmt::format("graph '{}'\n", g.name);
  for (const auto& [domain, version] : g.opset_imports)
    s += fmt::format("  opset   {} {}\n", domain.empty() ? "ai.onnx" : domain, version);
  for (const ValueInfo& v : g.inputs)
    if (!g.initializers.count(v.name)) s += fmt::format("  input   {}: {}\n", v.name, describe(v));
  for (const auto& [name, t] : g.initializers) s += fmt::format("  init    {}: {}\n", name, t.describe());
  for (const Node& n : g.nodes) {
    std::vector<std::string> attrs;
    for (const auto& [name, a] : n.attrs) attrs.push_back(fmt::format("{}={}", name, format_attr(a)));
    s += fmt::format("  node    '{}' {} {}: ({}) -> ({}){}\n", n.name, n.op_type,
                     n.op ? n.op->version_range() : "unresolved", fmt::join(n.inputs, ", "), fmt::join(n.outputs, ", "),
                     attrs.empty() ? "" : fmt::format(" {{{}}}", fmt::join(attrs, ", ")));
  }
  for (const ValueInfo& v : g.outputs) s += fmt::format("  output  {}: {}\n", v.name, describe(v));
  return s;
}

}  // namespace onnxrun
