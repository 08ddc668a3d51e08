#include "suite/verify_report.h"

#include <set>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.h"
#include "suite/outcome.h"

namespace onnxrun {
namespace {

// One line of a report: names from the model or the dump (a node's, a value's, a file's)
// reach it with their control characters written \xNN, so a newline in a name cannot
// start a line of its own ("node 'x' (LeakyRelu): exact" forged inside a node's name).
std::string line(std::string_view text) { return printable(text) + "\n"; }

std::string node_heading(const NodeCheck& c) {
  return fmt::format("node '{}' ({}{})", c.name, c.op_type, c.version.empty() ? "" : " " + c.version);
}

// The lines under a node that differs (or agrees without being bit-identical): per output,
// the comparison's verdict with its worst element, and the inputs at that element.
std::string output_details(const NodeCheck& c, const std::string& indent) {
  std::string out;
  for (const VerifiedOutput& o : c.outputs) {
    if (o.comparison.bit_identical()) continue;
    out += line(fmt::format("{}{} ({}): {}", indent, o.value.name, o.value.file, o.comparison.verdict()));
    if (!o.worst_inputs.empty())
      out += line(fmt::format("{}  at the worst element: {}", indent, fmt::join(o.worst_inputs, ", ")));
  }
  return out;
}

std::string node_text(const NodeCheck& c) {
  std::string out = line(fmt::format("{}: {}", node_heading(c), c.verdict()));
  if (c.checked) out += output_details(c, "  ");
  return out;
}

}  // namespace

std::string verify_summary_line(const VerifyReport& r) {
  size_t exact = 0;
  for (const NodeCheck& c : r.nodes) exact += c.exact();
  const size_t checked = r.checked(), differ = r.differing(), within = checked - differ - exact;
  std::string line =
      fmt::format("{} node{}: {} checked ({} exact", r.nodes.size(), r.nodes.size() == 1 ? "" : "s", checked, exact);
  if (within) line += fmt::format(", {} within tolerance", within);
  line += fmt::format(", {} differ{}), {} not checked", differ, differ == 1 ? "s" : "", r.nodes.size() - checked);
  if (r.first_differing) {
    const NodeCheck& c = r.nodes[*r.first_differing];
    line += fmt::format("; first differing node: '{}' ({})", c.name, c.op_type);
  }
  return line;
}

std::string verify_text(const VerifyReport& r, bool quiet) {
  std::string out;
  if (!quiet)
    out += line(fmt::format("verify {} against {} ({} value{})", r.model, fmt::join(r.sources, ", "), r.values,
                            r.values == 1 ? "" : "s"));
  for (const NodeCheck& c : r.nodes) {
    if (quiet && (!c.checked || c.agrees())) continue;
    out += node_text(c);
  }
  out += line(verify_summary_line(r));
  return out;
}

std::string verify_plan_text(const std::vector<NodeCheck>& plan, const Graph& g) {
  std::string lines;
  std::vector<std::string> needed;
  std::set<std::string> seen;
  size_t checkable = 0;
  auto need = [&](const std::string& name) {
    // An initializer no input replaces is the model's own: nothing to dump.
    if (g.initializers.count(name) && !g.find_input(name)) return false;
    if (seen.insert(name).second) needed.push_back(name);
    return true;
  };
  for (const NodeCheck& c : plan) {
    // Known not to be checked before any value is read: an operator onnx-run lacks, or a
    // call of a model function left whole (which --require-all still counts).
    if (!c.runnable || !c.reason.empty()) {
      lines += line(fmt::format("  {}: not checked: {}", node_heading(c), c.reason));
      continue;
    }
    ++checkable;
    std::vector<std::string> reads, compares;
    for (const VerifyValue& v : c.inputs)
      if (need(v.name)) reads.push_back(v.name);
    for (const VerifiedOutput& o : c.outputs) {
      need(o.value.name);
      compares.push_back(o.value.name);
    }
    lines += line(fmt::format("  {}: checked given {}{}{}", node_heading(c),
                              reads.empty() ? ""
                                            : "input" + std::string(reads.size() == 1 ? " " : "s ") +
                                                  fmt::format("{}", fmt::join(reads, ", ")) + " and ",
                              compares.size() == 1 ? "output " : "outputs ", fmt::join(compares, ", ")));
  }
  return fmt::format("verify would check {} of {} node{}:\n{}", checkable, plan.size(), plan.size() == 1 ? "" : "s",
                     lines) +
         line(fmt::format("values it needs: {}", needed.empty() ? "none" : fmt::format("{}", fmt::join(needed, ", "))));
}

std::string verify_junit(const VerifyReport& r, const ReportStamp& stamp) {
  std::vector<TestResult> results;
  for (const NodeCheck& c : r.nodes) {
    TestResult t;
    t.junit_class = c.op_type;  // a node's name may hold '/' ("/layer1/act/LeakyRelu")
    t.name = c.name;
    t.model = r.model;
    t.seconds = c.seconds;
    if (c.checked) {
      t.outcome = c.agrees() ? Outcome::kPassed : Outcome::kFailed;
      if (!c.agrees()) t.message = c.verdict() + "\n" + output_details(c, "");
    } else if (r.require_all && c.required()) {
      t.outcome = Outcome::kError;
      t.message = "not checked (--require-all): " + c.reason;
    } else {
      continue;
    }
    results.push_back(std::move(t));
  }
  if (r.verified() == 0 && !r.first_differing) {
    // Nothing verified is no pass: one error says why, where CI would see 0 tests.
    TestResult t;
    t.junit_class = "verify";
    t.name = "no node checked";
    t.model = r.model;
    t.outcome = Outcome::kError;
    t.message = r.none_checked_summary();
    results = {std::move(t)};
  }
  double seconds = 0;
  for (const TestResult& t : results) seconds += t.seconds;
  return junit_report(summarize(results, seconds), results, /*strict=*/false, stamp);
}

}  // namespace onnxrun
