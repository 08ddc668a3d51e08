// Executor: runs a loaded Graph. Kernels are built once, at construction; run() may be
// called many times, and from several threads at once when those are the tasks of one
// job of the pool (block lanes, exec/block_run.h: a kernel there splits nothing, as
// ThreadPool::in_job says) or no run uses the pool. Each value is kept alive only
// until its last use, and the last use hands the tensor over so that a kernel may write
// its output into the same buffer (see OpContext).
//
// The plan is made at construction and may rewrite the graph (ExecOptions): subgraphs
// equal to one operator run as that operator (LeakyRelu-16's body as LeakyRelu), and
// chains of elementwise nodes run as one pass (exec/fused_chain.h). Every rewrite keeps
// each node's rounding, so the results are the same bits as the unfused plan's; only the
// values inside a rewritten part are never produced (nor shown to an observer).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/tensor.h"
#include "exec/fusion.h"
#include "model/graph.h"

namespace onnxrun {

class OpKernel;
class ThreadPool;

struct ExecOptions {
  ThreadPool* pool = nullptr;  // null: single-threaded
  // Run subgraphs that an operator's row recognises (OpDef::patterns: its function body,
  // exporter idioms) by that operator's kernel.
  bool recognise_functions = true;
  // Run chains of elementwise nodes one cache-sized block at a time, in one pass.
  bool fuse_chains = true;
};

// The options with every plan-time rewrite off: each node runs as the graph says.
inline ExecOptions unfused(ExecOptions o = {}) {
  o.recognise_functions = false;
  o.fuse_chains = false;
  return o;
}

// Called with each value a node produces, right after the node ran and before any later
// node may reuse its buffer (for --dump-intermediates and debugging; exec writes no files,
// the callback does whatever it wants). An exception it throws stops the run.
using ValueObserver = std::function<void(const std::string& name, const Tensor& value)>;

class Executor {
 public:
  explicit Executor(Graph graph, ExecOptions options = {});
  ~Executor();

  // The graph as it runs: after recognise_functions, when on. Its inputs and outputs
  // are the given graph's.
  const Graph& graph() const { return graph_; }
  // What the plan rewrote.
  const Fusion& fusion() const { return fusion_; }

  // `inputs` as bind_inputs returns them. Returns the graph outputs in declared order.
  // `observer`, when given, sees every node output as it is produced.
  std::vector<Tensor> run(std::map<std::string, Tensor> inputs, const ValueObserver& observer = nullptr) const;

 private:
  // One step of the plan: a node, or what the plan rewrote into one (a chain, a fan-out),
  // run by one kernel.
  struct Step {
    const Node* node;                  // the first node it runs
    std::vector<const Node*> nodes;    // every node it runs, whose ops check the input types
    std::unique_ptr<OpKernel> kernel;  // the node's own, or a FusedChainKernel or FusedFanOutKernel
    std::string fused;                 // for messages, after the node's label: what else runs with it
    std::vector<int> inputs;           // value ids, -1 for an absent optional input
    std::vector<bool> hand_over;       // input k's value dies here and the op may run in place: move it to the kernel
    std::vector<bool> release;         // input k's value dies here but the op may not overwrite it: drop it after
    std::vector<int> outputs;          // value ids, -1 for an output not asked for
    bool in_place = false;             // the kernel may write its output in a handed-over input
  };

  void fuse_chains(const std::set<int>& graph_outputs);
  void fuse_fanouts();

  Graph graph_;
  ExecOptions options_;
  Fusion fusion_;
  std::map<std::string, int> value_ids_;
  std::vector<std::string> value_names_;  // by id
  std::vector<Step> steps_;
  std::vector<int> output_ids_;
};

}  // namespace onnxrun
