#include "exec/fusion.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace onnxrun {
namespace {

std::string quoted(const std::vector<std::string>& names, const char* sep) {
  std::vector<std::string> q;
  for (const std::string& n : names) q.push_back("'" + n + "'");
  return fmt::format("{}", fmt::join(q, sep));
}

}  // namespace

std::string describe_fusion(const Fusion& f) {
  if (f.empty()) return "  (none)\n";
  std::string s;
  for (const RecognisedSubgraph& r : f.recognised)
    s += fmt::format("  recognised '{}' {}: {} of {} nodes ({})\n", r.node, r.op, r.what, r.replaced.size(),
                     quoted(r.replaced, ", "));
  for (const std::vector<std::string>& c : f.chains)
    s += fmt::format("  fused      {}: one pass per block\n", quoted(c, " -> "));
  for (const Fusion::FanOut& fan : f.fanouts)
    s += fmt::format("  fused      '{}' read once by {}: one pass per block\n", fan.input, quoted(fan.branches, ", "));
  return s;
}

}  // namespace onnxrun
