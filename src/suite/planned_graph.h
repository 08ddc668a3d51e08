// The executor's plan as the run pipeline makes it: which plan-time rewrites a request
// turns on (exec/executor.h, ExecOptions), and the graph as it will run, for
// `--print-graph` and `onnx-run info`. Loads, but runs nothing.
#pragma once

#include <optional>

#include "exec/executor.h"
#include "model/graph.h"
#include "suite/run_request.h"

namespace onnxrun {

// Fused plans give the same bits; they are off with --no-fuse, the function body is
// never recognised back when it was asked for (--expand-functions), and nothing is
// fused when every value is to be dumped (a fused value is never produced).
ExecOptions exec_options_for(const RunRequest& r, ThreadPool* pool);

struct PlannedGraph {
  Graph graph;  // after loading, inlining, expansion and the plan's rewrites
  Fusion fusion;
};

// Loads r.model as run_model does and plans it. Throws as run_model's loading does.
PlannedGraph planned_graph(const RunRequest& r);

// What the default plan would rewrite in `g`, or nullopt when `g` cannot be planned
// (an unsupported or invalid node: `onnx-run info` describes such models too).
std::optional<Fusion> default_fusion(const Graph& g);

}  // namespace onnxrun
