#include "exec/block_run.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <set>

#include "core/error.h"
#include "core/spin_wait.h"
#include "core/thread_pool.h"
#include "exec/executor.h"
#include "ops/registry.h"

namespace onnxrun {
namespace {

// What the plan knows of a value: its type, and its whole shape.
struct Known {
  DType dtype;
  BlockPlan::Value value;
};

// The values of a node without inputs (a Constant), made once for their types and sizes.
std::vector<Tensor> made_values(const Node& n) {
  const std::unique_ptr<OpKernel> kernel = n.op->make_kernel(*n.op, n.attrs);
  OpContext ctx;
  ctx.outputs.resize(n.outputs.size());
  kernel->compute(ctx);
  return std::move(ctx.outputs);
}

// Node `n`'s outputs, from what is known of its inputs: a pointwise op broadcasts, so an
// output is of the blocks' size when a shaping input (OpDef::shaping_inputs) is, with the
// greatest rank among them (a one-element constant of higher rank adds leading 1s), and
// one element otherwise; its type is the op's rule's. False when the node cannot run so.
bool plan_node(const Node& n, const Shape& shape, std::map<std::string, Known>& known) {
  std::vector<std::optional<DType>> in_types;
  size_t rank = 0;
  bool block_sized = false;
  for (size_t k = 0; k < n.inputs.size(); ++k) {
    if (n.inputs[k].empty()) {  // an absent optional input
      in_types.emplace_back();
      continue;
    }
    const auto it = known.find(n.inputs[k]);
    if (it == known.end()) return false;
    in_types.push_back(it->second.dtype);
    if (k >= n.op->shaping_inputs) continue;
    rank = std::max(rank, it->second.value.shape.size());
    block_sized |= it->second.value.block_sized;
  }
  std::vector<Known> out;
  try {
    if (n.inputs.empty()) {
      for (const Tensor& t : made_values(n)) {
        if (!t.valid() || t.numel() != 1) return false;  // only a scalar broadcasts over every block
        out.push_back({t.dtype(), {t.shape(), false}});
      }
    } else {
      Shape s(rank, 1);
      if (block_sized) std::copy(shape.begin(), shape.end(), s.end() - static_cast<std::ptrdiff_t>(shape.size()));
      for (const std::optional<DType>& t : check_and_infer_types(*n.op, in_types, n.attrs)) {
        if (!t) return false;
        out.push_back({*t, {s, block_sized}});
      }
    }
  } catch (const Error&) {
    return false;  // types the op refuses: the whole run says why
  }
  if (out.size() < n.outputs.size()) return false;
  for (size_t k = 0; k < n.outputs.size(); ++k)
    if (!n.outputs[k].empty()) known[n.outputs[k]] = out[k];
  return true;
}

}  // namespace

bool can_run_in_blocks(const Graph& g) {
  if (g.nodes.empty() || g.outputs.empty()) return false;
  for (const auto& [name, t] : g.initializers)
    if (t.numel() != 1) return false;
  for (const Node& n : g.nodes) {
    if (!n.op) return false;
    if (!n.op->pointwise && !n.inputs.empty()) return false;  // a Constant: plan_block_run checks its size
  }
  return true;
}

std::optional<BlockPlan> plan_block_run(const Executor& exec, const std::vector<std::pair<std::string, DType>>& inputs,
                                        const Shape& shape) {
  const Graph& g = exec.graph();
  if (shape.empty() || !can_run_in_blocks(g)) return std::nullopt;  // a 0-d input is one element anyway
  std::set<std::string> given;
  for (const auto& [name, dtype] : inputs)
    if (!given.insert(name).second) return std::nullopt;
  for (const ValueInfo* v : g.required_inputs())
    if (!given.count(v->name)) return std::nullopt;
  std::map<std::string, Known> known;
  for (const auto& [name, dtype] : inputs) known[name] = {dtype, {shape, true}};
  for (const auto& [name, t] : g.initializers)  // a fed input replaces an initializer of its name
    if (!known.count(name)) known[name] = {t.dtype(), {t.shape(), false}};
  for (const Node& n : g.nodes)
    if (!plan_node(n, shape, known)) return std::nullopt;
  BlockPlan plan;
  plan.input_shape = shape;
  for (const Node& n : g.nodes)
    for (const std::string& name : n.outputs)
      if (!name.empty()) plan.values[name] = known.at(name).value;
  for (const ValueInfo& o : g.outputs) {
    const auto it = known.find(o.name);
    if (it == known.end() || !it->second.value.block_sized) return std::nullopt;  // not of the inputs' size
    plan.output_shapes.push_back(it->second.value.shape);
    plan.output_dtypes.push_back(it->second.dtype);
  }
  return plan;
}

namespace {

// The in-order sinks' turns, for lanes: block b's wait for block b - 1's. A failed block
// ends every later one (their turns would never come) but not the blocks before it, so
// that the error reported is the earliest block's, as on one lane.
class Turns {
 public:
  // Waits for block b's turn: false when a block before b failed instead.
  bool wait(size_t b) {
    auto ready = [&] { return failed_before(b) || turn_.load(std::memory_order_acquire) == b; };
    if (!spin_until(ready)) {
      std::unique_lock<std::mutex> lock(mu_);
      ++sleeping_;
      cv_.wait(lock, ready);
      --sleeping_;
    }
    return !failed_before(b);
  }
  void done(size_t b) {
    set([&] { turn_.store(b + 1, std::memory_order_release); });
  }
  void fail(size_t b, std::exception_ptr e) {
    set([&] {
      if (b < first_failed_.load(std::memory_order_relaxed)) {
        error_ = e;
        first_failed_.store(b, std::memory_order_release);
      }
    });
  }
  bool failed_before(size_t b) const { return first_failed_.load(std::memory_order_acquire) < b; }
  void rethrow() {
    if (error_) std::rethrow_exception(error_);
  }

 private:
  template <class F>
  void set(const F& f) {
    bool wake;
    {
      std::lock_guard<std::mutex> lock(mu_);
      f();
      wake = sleeping_ > 0;
    }
    if (wake) cv_.notify_all();
  }
  std::atomic<size_t> turn_{0};
  std::atomic<size_t> first_failed_{SIZE_MAX};  // written under mu_
  std::mutex mu_;
  std::condition_variable cv_;
  unsigned sleeping_ = 0;     // guarded by mu_
  std::exception_ptr error_;  // guarded by mu_: the error of block first_failed_
};

// Whether blocks can run side by side: every input read in any order, and no sinks.value
// (`observes_values`) to see the nodes' values in order.
bool can_run_side_by_side(const std::vector<BlockInput>& inputs, bool observes_values) {
  if (observes_values) return false;
  for (const BlockInput& in : inputs)
    if (!in.any_order) return false;
  return true;
}

// What every lane shares.
struct BlockRun {
  const Executor& exec;
  const BlockPlan& plan;
  const std::vector<BlockInput>& inputs;
  const BlockSinks& sinks;
  size_t per_block, blocks, total;
  unsigned lanes;
  Turns* turns;  // null for one lane
};

// Blocks lane, lane + lanes, ... of the run, each read into this lane's reused buffers;
// `at` is the block in hand.
void run_lane(const BlockRun& r, unsigned lane, size_t& at) {
  const bool side_by_side = r.turns != nullptr;
  // Buffers a block let go of, by size: an input's buffer comes back when a kernel
  // computed in place into it (the feed held the only reference) or its block is done.
  std::vector<std::shared_ptr<Buffer>> spare;
  auto buffer_for = [&](size_t bytes) {
    for (auto it = spare.begin(); it != spare.end(); ++it)
      if ((*it)->size() >= bytes) {
        std::shared_ptr<Buffer> b = std::move(*it);
        spare.erase(it);
        return b;
      }
    return Buffer::allocate(std::max<size_t>(bytes, 1));
  };
  auto recycle = [&](std::vector<Tensor>& tensors) {
    for (Tensor& t : tensors) {
      std::shared_ptr<Buffer> b = t.buffer();
      t = Tensor();
      if (b && b.use_count() == 1 && b->writable() && spare.size() < r.inputs.size() + r.plan.output_dtypes.size())
        spare.push_back(std::move(b));
    }
    tensors.clear();
  };
  // With lanes, an in-order input sink comes after the graph: its inputs are kept whole.
  const bool keep_inputs = side_by_side && r.sinks.inputs;
  size_t begin = 0;
  ValueObserver observer;
  if (r.sinks.value) observer = [&](const std::string& name, const Tensor& v) { r.sinks.value(begin, name, v); };
  for (size_t b = lane; b < r.blocks; b += r.lanes) {
    if (side_by_side && r.turns->failed_before(b)) return;
    at = b;
    begin = b * r.per_block;
    const size_t n = std::min(r.per_block, r.total - begin);
    std::vector<Tensor> block_inputs;
    for (const BlockInput& in : r.inputs) {
      const size_t esize = dtype_size(in.dtype);
      Tensor t(in.dtype, Shape{static_cast<int64_t>(n)}, buffer_for(n * esize));
      if (n) in.read(begin * esize, t.mutable_raw(), n * esize);
      block_inputs.push_back(std::move(t));
    }
    if (r.sinks.inputs_any_order) r.sinks.inputs_any_order(begin, block_inputs);
    if (!side_by_side && r.sinks.inputs) r.sinks.inputs(begin, block_inputs);
    std::map<std::string, Tensor> feed;
    for (size_t k = 0; k < r.inputs.size(); ++k)
      feed.emplace(r.inputs[k].name, keep_inputs ? block_inputs[k] : std::move(block_inputs[k]));
    if (!keep_inputs) block_inputs.clear();
    std::vector<Tensor> out = r.exec.run(std::move(feed), observer);
    if (r.sinks.outputs_any_order) r.sinks.outputs_any_order(begin, out);
    if (side_by_side && (r.sinks.inputs || r.sinks.outputs)) {
      if (!r.turns->wait(b)) return;
      if (r.sinks.inputs) r.sinks.inputs(begin, block_inputs);
      if (r.sinks.outputs) r.sinks.outputs(begin, out);
      r.turns->done(b);
    } else if (!side_by_side && r.sinks.outputs) {
      r.sinks.outputs(begin, out);
    }
    recycle(out);
    recycle(block_inputs);
  }
}

}  // namespace

unsigned run_in_blocks(const Executor& exec, const BlockPlan& plan, const std::vector<BlockInput>& inputs,
                       size_t block_bytes, const BlockSinks& sinks, ThreadPool* pool) {
  size_t widest = 1;
  for (const BlockInput& in : inputs) widest = std::max(widest, dtype_size(in.dtype));
  for (DType t : plan.output_dtypes) widest = std::max(widest, dtype_size(t));
  const size_t total = static_cast<size_t>(checked_numel(plan.input_shape));
  const size_t per_block = std::max<size_t>(block_bytes / widest, 1);
  const size_t blocks = std::max<size_t>((total + per_block - 1) / per_block, 1);  // an empty tensor: one empty block
  const unsigned lanes = pool && can_run_side_by_side(inputs, static_cast<bool>(sinks.value))
                             ? static_cast<unsigned>(std::min<size_t>(pool->size(), blocks))
                             : 1;
  if (lanes == 1) {
    size_t at = 0;
    run_lane(BlockRun{exec, plan, inputs, sinks, per_block, blocks, total, 1, nullptr}, 0, at);
    return 1;
  }
  Turns turns;
  const BlockRun run{exec, plan, inputs, sinks, per_block, blocks, total, lanes, &turns};
  // One task per lane, the caller's lane 0 among them: lanes <= pool->size(), so every
  // lane has a thread, as the turns of the in-order sinks need.
  pool->run(lanes, [&](size_t k) {
    size_t at = k;
    try {
      run_lane(run, static_cast<unsigned>(k), at);
    } catch (...) {
      turns.fail(at, std::current_exception());
    }
  });
  turns.rethrow();
  return lanes;
}

}  // namespace onnxrun
