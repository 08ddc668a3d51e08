#include "cli/render_run.h"

#include <fmt/core.h>

#include "core/tensor_stats.h"
#include "io/tensor_text.h"

namespace onnxrun::cli {
namespace {

void print_inputs(const SetRun& run) {
  for (const RunValue& v : run.inputs)
    fmt::print("input '{}': {} from {}\n  {}\n", v.name, v.tensor.describe(), v.source,
               format_stats(tensor_stats(v.tensor)));
}

void print_outputs(const SetRun& run, const RenderOptions& o) {
  ArrayPrintOptions po;
  po.full = o.full;
  for (size_t k = 0; k < run.outputs.size(); ++k) {
    const RunValue& v = run.outputs[k];
    fmt::print("output '{}': {}\n  {}\n", v.name, v.tensor.describe(), format_stats(tensor_stats(v.tensor)));
    if (k < run.checks.size()) fmt::print("  {}\n", run.checks[k].comparison.verdict());
    fmt::print("{}\n", format_array(v.tensor, po));
  }
}

void print_test_set(const SetRun& run, const RenderOptions& o) {
  if (run.error) {
    fmt::print("{}: error: {}\n", run.label, run.error->what());
    return;
  }
  const bool passed = run.passed();
  if (o.quiet && passed) return;
  fmt::print("{}: {}\n", run.label, passed ? "passed" : "FAILED");
  if (o.quiet) {
    for (const OutputVerdict& c : run.checks)
      if (!c.comparison.ok) fmt::print("  {}\n", c.comparison.summary(c.name));
    return;
  }
  print_inputs(run);
  print_outputs(run, o);
}

}  // namespace

void print_run_text(const RunReport& report, const RenderOptions& o) {
  if (report.source != FeedSource::kTestSets) {
    if (o.quiet || report.streamed) return;
    print_inputs(report.runs.at(0));
    print_outputs(report.runs.at(0), o);
    return;
  }
  size_t passed = 0;
  for (size_t k = 0; k < report.runs.size(); ++k) {
    if (k > 0 && !o.quiet) fmt::print("\n");
    print_test_set(report.runs[k], o);
    passed += report.runs[k].passed();
  }
  if (report.runs.size() > 1 || o.quiet) fmt::print("{} of {} test sets passed\n", passed, report.runs.size());
}

}  // namespace onnxrun::cli
