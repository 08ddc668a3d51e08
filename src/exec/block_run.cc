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

// A zeroed block of n elements of `dtype`, of `rank` >= 1 dims: [1, ..., 1, n].
Tensor probe_block(DType dtype, size_t rank, int64_t n) {
  Shape s(rank, 1);
  s.back() = n;
  Tensor t(dtype, s);
  std::fill_n(static_cast<unsigned char*>(t.mutable_raw()), t.nbytes(), 0);
  return t;
}

// A value's shape `probe` in a probe run of n > 1 elements, as the plan records it: n
// elements laid out [1, ..., 1, n] are of the blocks' size, with the shape [1, ...] +
// `shape` in the real run; one element is a constant's own. Anything else: nullopt.
std::optional<BlockPlan::Value> planned_value(const Shape& probe, int64_t n, const Shape& shape) {
  const int64_t numel = checked_numel(probe);
  if (numel == 1) return BlockPlan::Value{probe, false};
  if (numel != n || probe.empty() || probe.back() != n || probe.size() < shape.size()) return std::nullopt;
  Shape s = shape;
  s.insert(s.begin(), probe.size() - shape.size(), 1);
  return BlockPlan::Value{s, true};
}

// The outputs' ranks for a probe of n elements, when every output has exactly n elements
// laid out as [1, ..., 1, n]; else nullopt.
std::optional<std::vector<size_t>> probe_ranks(const std::vector<Tensor>& outputs, int64_t n) {
  std::vector<size_t> ranks;
  for (const Tensor& o : outputs) {
    if (o.numel() != n || o.rank() == 0 || o.shape().back() != n) return std::nullopt;
    ranks.push_back(o.rank());
  }
  return ranks;
}

}  // namespace

bool can_run_in_blocks(const Graph& g) {
  if (g.nodes.empty() || g.outputs.empty()) return false;
  for (const auto& [name, t] : g.initializers)
    if (t.numel() != 1) return false;
  for (const Node& n : g.nodes) {
    if (!n.op) return false;
    if (!n.op->pointwise && !n.inputs.empty()) return false;  // a Constant: the probe checks its size
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
  BlockPlan plan;
  plan.input_shape = shape;
  std::optional<std::vector<size_t>> ranks;
  for (int64_t n : {2, 3}) {
    std::map<std::string, Tensor> feed;
    for (const auto& [name, dtype] : inputs) feed.emplace(name, probe_block(dtype, shape.size(), n));
    std::vector<Tensor> out;
    std::map<std::string, Shape> probes;
    try {
      out = exec.run(std::move(feed), [&](const std::string& name, const Tensor& v) { probes[name] = v.shape(); });
    } catch (const Error&) {
      return std::nullopt;  // a constant that does not broadcast as a scalar, say
    }
    for (const auto& [name, probe] : probes) {
      const std::optional<BlockPlan::Value> v = planned_value(probe, n, shape);
      if (!v) return std::nullopt;
      auto [it, fresh] = plan.values.emplace(name, *v);
      if (!fresh && (it->second.shape != v->shape || it->second.block_sized != v->block_sized))
        return std::nullopt;  // not the same kind at n = 2 and 3
    }
    const std::optional<std::vector<size_t>> r = probe_ranks(out, n);
    if (!r || (ranks && *ranks != *r)) return std::nullopt;
    ranks = r;
    plan.output_dtypes.clear();
    for (const Tensor& o : out) plan.output_dtypes.push_back(o.dtype());
  }
  for (size_t rank : *ranks) {
    if (rank < shape.size()) return std::nullopt;
    Shape s = shape;
    s.insert(s.begin(), rank - shape.size(), 1);
    plan.output_shapes.push_back(std::move(s));
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

bool can_run_side_by_side(const std::vector<BlockInput>& inputs, bool observes_values) {
  if (observes_values) return false;
  for (const BlockInput& in : inputs)
    if (!in.any_order) return false;
  return true;
}

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
