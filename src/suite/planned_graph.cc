#include "suite/planned_graph.h"

#include "model/describe.h"
#include "model/load.h"

namespace onnxrun {

ExecOptions exec_options_for(const RunRequest& r, ThreadPool* pool) {
  ExecOptions o;
  o.pool = pool;
  if (r.no_fuse || !r.dump_dir.empty()) o = unfused(o);
  if (r.expand_functions) o.recognise_functions = false;
  return o;
}

PlannedGraph planned_graph(const RunRequest& r) {
  LoadOptions load_options;
  load_options.expand_schema_functions = r.expand_functions;
  Model model = load_model(r.model, load_options);
  const Executor exec(std::move(model.graph), exec_options_for(r, nullptr));
  return {exec.graph(), exec.fusion()};
}

std::optional<Fusion> default_fusion(const Graph& g) {
  if (unsupported_node_count(g) > 0) return std::nullopt;
  try {
    return Executor(g).fusion();
  } catch (const Error&) {
    return std::nullopt;  // the node's problem is for a run to report
  }
}

}  // namespace onnxrun
