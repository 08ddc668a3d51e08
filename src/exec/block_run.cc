#include "exec/block_run.h"

#include <algorithm>
#include <map>
#include <set>

#include "core/error.h"
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

void run_in_blocks(const Executor& exec, const BlockPlan& plan, const std::vector<BlockInput>& inputs,
                   size_t block_bytes, const BlockSinks& sinks) {
  size_t widest = 1;
  for (const BlockInput& in : inputs) widest = std::max(widest, dtype_size(in.dtype));
  for (DType t : plan.output_dtypes) widest = std::max(widest, dtype_size(t));
  const size_t total = static_cast<size_t>(checked_numel(plan.input_shape));
  const size_t per_block = std::max<size_t>(block_bytes / widest, 1);
  // Buffers the last block let go of, by size: an input's buffer comes back when a kernel
  // computed in place into it (the feed held the only reference) or its output is done.
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
  ValueObserver observer;
  size_t begin = 0;
  if (sinks.value) observer = [&](const std::string& name, const Tensor& v) { sinks.value(begin, name, v); };
  for (; begin < total || (begin == 0 && total == 0); begin += per_block) {
    const size_t n = std::min(per_block, total - begin);
    std::vector<Tensor> block_inputs;
    for (const BlockInput& in : inputs) {
      const size_t esize = dtype_size(in.dtype);
      Tensor t(in.dtype, Shape{static_cast<int64_t>(n)}, buffer_for(n * esize));
      if (n) in.read(begin * esize, t.mutable_raw(), n * esize);
      block_inputs.push_back(std::move(t));
    }
    if (sinks.inputs) sinks.inputs(begin, block_inputs);
    std::map<std::string, Tensor> feed;
    for (size_t k = 0; k < inputs.size(); ++k) feed.emplace(inputs[k].name, std::move(block_inputs[k]));
    block_inputs.clear();
    std::vector<Tensor> out = exec.run(std::move(feed), observer);
    if (sinks.outputs) sinks.outputs(begin, out);
    for (Tensor& o : out) {
      std::shared_ptr<Buffer> b = o.buffer();
      o = Tensor();
      if (b && b.use_count() == 1 && b->writable() && spare.size() < inputs.size() + plan.output_dtypes.size())
        spare.push_back(std::move(b));
    }
    if (total == 0) break;
  }
}

}  // namespace onnxrun
