// Running a pointwise graph block by block. When every node is pointwise (OpDef::pointwise:
// output element i a function of the inputs' elements at i) and the graph's inputs share
// one shape, each output element depends only on the input elements at the same place,
// so the graph can run on consecutive blocks of the flattened inputs, each block's results
// handed on (to statistics, a printer, file writers) before the next block runs, through
// a few reused buffers. A run over files then costs about what copying them does, and its
// memory does not grow with the tensors (tools/bench measures both).
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/tensor.h"
#include "model/graph.h"

namespace onnxrun {

class Executor;
class ThreadPool;

// Block size. A block of 1 MiB stays in the caches (L2 and the L3 behind it) from the
// read that fills it, through the kernels and statistics, to the write that empties it;
// 128 KiB to 2 MiB measured alike, 4 MiB slower (docs/perf.md, "Block size").
inline constexpr size_t kRunBlockBytes = size_t{1} << 20;

// True when every node of `g` is pointwise or has no inputs (Constant), every initializer
// holds one element, and the graph has a node. REQUIRES: `g` resolved (an unresolved
// node is false). Whether a run over given inputs can go in blocks is plan_block_run's.
bool can_run_in_blocks(const Graph& g);

struct BlockInput {
  std::string name;  // the graph input
  DType dtype = DType::kFloat;
  // Copies data bytes [offset, offset + n) into dst; calls come in order, each where the
  // last ended, unless any_order.
  std::function<void(size_t offset, void* dst, size_t n)> read;
  // read() takes any range at any time, from several threads at once (pread of a file):
  // blocks can then be read side by side by run_in_blocks' lanes.
  bool any_order = false;
};

// What a block run makes: the graph outputs' types and shapes.
struct BlockPlan {
  Shape input_shape;
  // Each is input_shape, with leading 1s where a one-element constant of higher rank broadcasts.
  std::vector<Shape> output_shapes;
  std::vector<DType> output_dtypes;
  // Every value the nodes produce, by name, with its whole shape: one of the blocks'
  // size (block_sized) has a shape like the outputs'; one made from constants alone keeps
  // its own (one element), and each block produces it again.
  struct Value {
    Shape shape;
    bool block_sized = false;
  };
  std::map<std::string, Value> values;
};

// The plan for exec's graph over inputs of these types (graph order, as bound), all of
// `shape`; nullopt when the graph cannot run so (can_run_in_blocks false, an input missing
// or given twice, an output that is not of the inputs' size, a constant of more than one
// element, types an op refuses). Every value's type and shape come from the ops' type
// rules and broadcasting, node by node, without running the graph; a node without inputs
// (a Constant) is made once, for its value's type and size.
std::optional<BlockPlan> plan_block_run(const Executor& exec, const std::vector<std::pair<std::string, DType>>& inputs,
                                        const Shape& shape);

// What a block run tells its caller about each block; `begin` is the block's first
// element. Tensors are 1-D (or of a broadcast rank) and valid only during the call.
struct BlockSinks {
  // Called as soon as a block is read (before the graph may compute in its buffers) and as
  // soon as it is computed. With lanes, the calls of several blocks come at once, from
  // different threads, in no order: for work whose result does not depend on the order
  // (statistics, core/tensor_stats.h).
  std::function<void(size_t begin, const std::vector<Tensor>& inputs)> inputs_any_order;
  std::function<void(size_t begin, const std::vector<Tensor>& outputs)> outputs_any_order;
  // Called block after block in order, one call at a time (files, comparisons):
  // The inputs; with one lane before the graph may compute in their buffers, with lanes
  // after (their buffers are then never computed in).
  std::function<void(size_t begin, const std::vector<Tensor>& inputs)> inputs;
  // Every node output as it is produced (the Executor's ValueObserver, per block). Given,
  // it keeps the run to one lane.
  std::function<void(size_t begin, const std::string& name, const Tensor& value)> value;
  // The graph outputs, in graph order.
  std::function<void(size_t begin, const std::vector<Tensor>& outputs)> outputs;
};

// Runs exec's graph over `inputs` in blocks of about `block_bytes` (rounded to whole
// elements of the widest type), calling `sinks` for each. Buffers are reused from block
// to block. What a sink or a read throws ends the run and is rethrown here: with lanes
// too, the earliest block's error, as on one lane (the blocks before it still run).
//
// `lanes`, a pool of more than one thread: a lane per thread of it (tasks of one job,
// the caller's among them), each reading, computing and handing to the any-order sinks
// every size()-th block, so that a block's reads, kernels and statistics stay in one
// core's cache and the cores share the work; the in-order sinks take their turns. The graph's
// kernels then split nothing (ThreadPool::in_job). One lane, on the caller, when `lanes` is null, when
// an input cannot be read in any order, when sinks.value is given, or for a single block.
// Returns the lanes it ran. REQUIRES: plan == plan_block_run(exec, <inputs' names and
// types>, shape); `lanes` runs no other job meanwhile.
unsigned run_in_blocks(const Executor& exec, const BlockPlan& plan, const std::vector<BlockInput>& inputs,
                       size_t block_bytes, const BlockSinks& sinks, ThreadPool* lanes = nullptr);

}  // namespace onnxrun
