// Running an elementwise graph block by block. When a graph is a chain of elementwise
// one-input, one-output ops (OpDef::elementwise) on one input, each output element depends
// only on the input element at the same place, so the graph can run on consecutive
// blocks of the flattened input, each result handed on (to a file writer) before the
// next block runs, through one reused buffer. For a large tensor whose result goes
// straight to a file this avoids touching a whole fresh output buffer, whose page
// faults would cost more than the work (tools/bench measures it).
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "core/tensor.h"
#include "model/graph.h"

namespace onnxrun {

class Executor;

// Block size, and the input size from which a caller should prefer blocks. A block of
// 1 MiB stays in L2 from the read that fills it, through the kernel, to the write that
// empties it (docs/perf.md, "Block size").
inline constexpr size_t kRunBlockBytes = size_t{1} << 20;
inline constexpr size_t kBlockRunMinBytes = size_t{64} << 20;

// True when `g` has one required input, one output, no initializers, and its nodes form
// a chain from the input to the output of ops whose rows say they are elementwise
// (OpDef::elementwise). REQUIRES: `g` resolved (node.op set; an unresolved node is false).
bool can_run_in_blocks(const Graph& g);

// Runs exec's graph over an input of `dtype` and `shape` bound to `input_name`, in
// blocks of about `block_bytes`: read(offset, dst, n) copies input data bytes
// [offset, offset + n) into the block buffer, the graph runs on it in place, and
// sink(block) gets each block of the output in order (a 1-D tensor valid only during
// the call). One buffer serves every block. REQUIRES: can_run_in_blocks(exec.graph()).
// The output has the input's element type and shape.
void run_in_blocks(const Executor& exec, const std::string& input_name, DType dtype, const Shape& shape,
                   const std::function<void(size_t offset, void* dst, size_t n)>& read, size_t block_bytes,
                   const std::function<void(const Tensor& block)>& sink);

}  // namespace onnxrun
