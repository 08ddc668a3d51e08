#include "exec/fused_chain.h"

#include <algorithm>

#include "core/thread_pool.h"
#include "ops/registry.h"

namespace onnxrun {
namespace {

// From this size on a fan-out goes in pieces of it, so that each branch's output is
// streamed by its kernel and the piece of x stays in the last-level cache for the next
// branch (ops/leaky_relu_paths.h, kLeakyReluStreamBytes).
constexpr size_t kStreamBytes = size_t{8} << 20;

// A chain over elements [0, n) of src into dst. One kernel (a chain composed by
// OpKernel::then, or a lone node) runs as a node alone does, over the whole range,
// streaming its own large outputs. Several (a chain longer than kMaxComposedNodes) go
// block by block, each block small enough to stay in the cache from the first kernel to
// the last.
void run_chain_range(const std::vector<const OpKernel*>& kernels, DType dtype, const std::byte* src, std::byte* dst,
                     size_t n) {
  const size_t esize = dtype_size(dtype);
  if (kernels.size() == 1) {
    kernels[0]->compute_elements(dtype, src, dst, n);
    return;
  }
  const size_t per_block = std::max<size_t>(kFusedBlockBytes / esize, 1);
  for (size_t i = 0; i < n; i += per_block) {
    const size_t len = std::min(per_block, n - i);
    std::byte* out = dst + i * esize;
    kernels[0]->compute_elements(dtype, src + i * esize, out, len);
    for (size_t k = 1; k < kernels.size(); ++k) kernels[k]->compute_elements(dtype, out, out, len);
  }
}

Tensor run_fused_chain(const std::vector<const OpKernel*>& kernels, Tensor x, ThreadPool* pool) {
  const DType dtype = x.dtype();
  const size_t esize = dtype_size(dtype);
  const size_t n = static_cast<size_t>(x.numel());
  const auto* src = static_cast<const std::byte*>(x.raw());
  Tensor y = overwrite_or_allocate(x);
  auto* dst = static_cast<std::byte*>(y.mutable_raw());
  parallel_for(pool, n, worthwhile_piece(pool, n, esize), 64 / esize, [&](size_t begin, size_t end) {
    run_chain_range(kernels, dtype, src + begin * esize, dst + begin * esize, end - begin);
  });
  return y;
}

std::vector<Tensor> run_fused_fanout(const std::vector<std::vector<const OpKernel*>>& branches, const Tensor& x,
                                     ThreadPool* pool) {
  const DType dtype = x.dtype();
  const size_t esize = dtype_size(dtype);
  const size_t n = static_cast<size_t>(x.numel());
  std::vector<Tensor> ys;
  std::vector<std::byte*> dsts;
  for (size_t b = 0; b < branches.size(); ++b) {
    ys.emplace_back(dtype, x.shape());
    dsts.push_back(static_cast<std::byte*>(ys.back().mutable_raw()));
  }
  const auto* src = static_cast<const std::byte*>(x.raw());
  // Every branch takes a piece of x before the next piece: small tensors go in blocks
  // that stay in L1; large ones in pieces of the streaming size, so that each branch's
  // output is streamed and the piece of x stays in the last-level cache for the next
  // branch (it is read from memory once).
  const size_t piece = std::max<size_t>((n * esize >= kStreamBytes ? kStreamBytes : kFusedBlockBytes) / esize, 1);
  parallel_for(pool, n, worthwhile_piece(pool, n, esize), 64 / esize, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; i += piece)
      for (size_t b = 0; b < branches.size(); ++b)
        run_chain_range(branches[b], dtype, src + i * esize, dsts[b] + i * esize, std::min(piece, end - i));
  });
  return ys;
}

}  // namespace

FusedChainKernel::FusedChainKernel(std::vector<std::unique_ptr<OpKernel>> kernels) : owned_(std::move(kernels)) {
  const OpKernel* current = owned_.front().get();
  size_t composed = 1;  // nodes in `current`
  const size_t nodes = owned_.size();
  for (size_t k = 1; k < nodes; ++k) {
    const OpKernel* next = owned_[k].get();
    std::unique_ptr<OpKernel> both = composed < kMaxComposedNodes ? current->then(*next) : nullptr;
    if (both) {
      // A composition holds what it composed, so it replaces the one made just before it:
      // keeping every one cost memory and time the square of the chain's length (a 1 KB
      // model of nested functions made a chain of 16,384 and took 1.7 GB).
      const bool made_here = owned_.size() > nodes && owned_.back().get() == current;
      if (made_here) owned_.back() = std::move(both);
      else owned_.push_back(std::move(both));
      current = owned_.back().get();
      ++composed;
      continue;
    }
    passes_.push_back(current);
    current = next;
    composed = 1;
  }
  passes_.push_back(current);
}

void FusedChainKernel::compute(OpContext& ctx) const {
  ctx.outputs[0] = run_fused_chain(passes_, std::move(ctx.inputs[0]), ctx.pool);
}

FusedFanOutKernel::FusedFanOutKernel(std::vector<std::unique_ptr<OpKernel>> branches) : branches_(std::move(branches)) {
  for (const std::unique_ptr<OpKernel>& b : branches_) {
    const auto* chain = dynamic_cast<const FusedChainKernel*>(b.get());
    passes_.push_back(chain ? chain->passes() : std::vector<const OpKernel*>{b.get()});
  }
}

void FusedFanOutKernel::compute(OpContext& ctx) const {
  std::vector<Tensor> ys = run_fused_fanout(passes_, ctx.inputs[0], ctx.pool);
  for (size_t b = 0; b < ys.size(); ++b) ctx.outputs[b] = std::move(ys[b]);
}

}  // namespace onnxrun
