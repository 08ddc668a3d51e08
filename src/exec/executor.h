// Executor: runs a loaded Graph. Kernels are built once, at construction; run() may be
// called many times (not concurrently on one Executor). Each value is kept alive only
// until its last use, and the last use hands the tensor over so that a kernel may write
// its output into the same buffer (see OpContext).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/tensor.h"
#include "model/graph.h"

namespace onnxrun {

class OpKernel;
class ThreadPool;

struct ExecOptions {
  ThreadPool* pool = nullptr;  // null: single-threaded
};

// Called with each value a node produces, right after the node ran and before any later
// node may reuse its buffer (for --dump-intermediates and debugging; exec writes no files,
// the callback does whatever it wants). An exception it throws stops the run.
using ValueObserver = std::function<void(const std::string& name, const Tensor& value)>;

class Executor {
 public:
  explicit Executor(Graph graph, ExecOptions options = {});
  ~Executor();

  const Graph& graph() const { return graph_; }

  // `inputs` as bind_inputs returns them. Returns the graph outputs in declared order.
  // `observer`, when given, sees every node output as it is produced.
  std::vector<Tensor> run(std::map<std::string, Tensor> inputs, const ValueObserver& observer = nullptr) const;

 private:
  struct Step {
    const Node* node;
    std::unique_ptr<OpKernel> kernel;
    std::vector<int> inputs;      // value ids, -1 for an absent optional input
    std::vector<bool> hand_over;  // input k's value dies here and the op may run in place: move it to the kernel
    std::vector<bool> release;    // input k's value dies here but the op may not overwrite it: drop it after
    std::vector<int> outputs;     // value ids, -1 for an output not asked for
  };

  Graph graph_;
  ExecOptions options_;
  std::map<std::string, int> value_ids_;
  std::vector<Step> steps_;
  std::vector<int> output_ids_;
};

}  // namespace onnxrun
