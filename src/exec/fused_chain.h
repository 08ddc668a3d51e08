// Running a chain of elementwise nodes (OpDef::elementwise: one input, one output of its
// type, element i from element i alone) in one pass: the chain goes block by block, each
// block small enough to stay in the cache from the first node to the last, so each
// element is read from memory once and written once however long the chain. Every
// node's kernel computes its own block (OpKernel::compute_elements), so each node
// rounds exactly as it does alone: fused and unfused give the same bits.
#pragma once

#include <cstddef>
#include <vector>

#include "core/tensor.h"

namespace onnxrun {

class OpKernel;
class ThreadPool;

// Bytes per block: well inside L2, and a whole number of cache lines.
inline constexpr size_t kFusedBlockBytes = size_t{32} << 10;

// The chain's output for input `x`: in x's buffer when the caller handed it over
// (x.can_overwrite()), else in a new tensor, written with streaming stores when large.
// Large tensors are split across `pool` (may be null). REQUIRES: !kernels.empty(), each
// an elementwise kernel for x's element type (the caller checked the types).
Tensor run_fused_chain(const std::vector<const OpKernel*>& kernels, Tensor x, ThreadPool* pool);

// A fan-out: several chains (branches[b], each as for run_fused_chain) over the same
// input, in one pass: each block of x is read once, while it is in the cache, by every
// branch. Returns one new tensor per branch; x is left as it is.
std::vector<Tensor> run_fused_fanout(const std::vector<std::vector<const OpKernel*>>& branches, const Tensor& x,
                                     ThreadPool* pool);

}  // namespace onnxrun
