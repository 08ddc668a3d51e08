// Running a chain of elementwise nodes (OpDef::elementwise: one input, one output of its
// type, element i from element i alone) in one pass: the chain goes block by block, each
// block small enough to stay in the cache from the first node to the last, so each
// element is read from memory once and written once however long the chain. Every
// node's kernel computes its own block (OpKernel::compute_elements), so each node
// rounds exactly as it does alone: fused and unfused give the same bits.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "core/tensor.h"
#include "ops/registry.h"

namespace onnxrun {

// Bytes per block: well inside L2, and a whole number of cache lines.
inline constexpr size_t kFusedBlockBytes = size_t{32} << 10;

// A chain as one kernel, which the executor runs like any node's (Executor: the plan
// rewrites a chain into one step). compute() takes ctx.inputs[0] and gives outputs[0]:
// in the input's buffer when the caller handed it over (can_overwrite()), else in a new
// tensor, written with streaming stores when large and composed into one kernel (a
// chain past kMaxComposedNodes goes block by block, through the cache); large tensors are split across
// ctx.pool. REQUIRES: the caller checked that every node takes the input's type.
class FusedChainKernel final : public OpKernel {
 public:
  // The chain's nodes' kernels, in order, two or more, each elementwise. Neighbours an op
  // can compose (OpKernel::then) become one kernel, so that an element goes through both
  // in registers rather than once per block; at most kMaxComposedNodes each, so that
  // composing a long chain costs time and memory linear in its length (a composition
  // copies what it composes).
  explicit FusedChainKernel(std::vector<std::unique_ptr<OpKernel>> kernels);
  static constexpr size_t kMaxComposedNodes = 64;
  void compute(OpContext& ctx) const override;
  // What runs a block, in order: the kernels after composing.
  const std::vector<const OpKernel*>& passes() const { return passes_; }

 private:
  std::vector<std::unique_ptr<OpKernel>> owned_;  // the nodes' kernels and the composed ones
  std::vector<const OpKernel*> passes_;
};

// A fan-out as one kernel: several branches (each a node's elementwise kernel or a
// FusedChainKernel) over the same input, in one pass: each block of ctx.inputs[0] is read
// once, while it is in the cache, by every branch. outputs[b] is branch b's, a new
// tensor; the input is left as it is.
class FusedFanOutKernel final : public OpKernel {
 public:
  explicit FusedFanOutKernel(std::vector<std::unique_ptr<OpKernel>> branches);
  void compute(OpContext& ctx) const override;

 private:
  std::vector<std::unique_ptr<OpKernel>> branches_;
  std::vector<std::vector<const OpKernel*>> passes_;  // of each branch
};

}  // namespace onnxrun
