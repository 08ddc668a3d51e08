#include "exec/fused_chain.h"

#include <algorithm>

#include "core/stream_copy.h"
#include "core/thread_pool.h"
#include "ops/registry.h"

namespace onnxrun {
namespace {

// As the kernels split work (ops/leaky_relu.cc): pieces of at least 4 MiB, so tensors
// under 8 MiB stay on one thread (docs/perf.md, "Threads").
constexpr size_t kMinPieceBytes = size_t{4} << 20;
// Out-of-place outputs from this size on go out through streaming stores, as a single
// kernel's do (ops/leaky_relu_paths.h, kLeakyReluStreamBytes).
constexpr size_t kStreamBytes = size_t{8} << 20;

}  // namespace

Tensor run_fused_chain(const std::vector<const OpKernel*>& kernels, Tensor x, ThreadPool* pool) {
  const DType dtype = x.dtype();
  const size_t esize = dtype_size(dtype);
  const size_t n = static_cast<size_t>(x.numel());
  Tensor y = x.can_overwrite() ? x : Tensor(dtype, x.shape());
  const auto* src = static_cast<const std::byte*>(x.raw());
  auto* dst = static_cast<std::byte*>(y.mutable_raw());
  // Out of place and large: each block is computed in a scratch block that stays in the
  // cache, then streamed out, so the output is written without being read first.
  if (kernels.size() == 1) {
    // The chain composed into one kernel (OpKernel::then): it runs as a node alone does,
    // over whole pieces, streaming its own large outputs; a scratch block would only add
    // a copy.
    parallel_for(pool, n, kMinPieceBytes / esize, 64 / esize, [&](size_t begin, size_t end) {
      kernels[0]->compute_elements(dtype, src + begin * esize, dst + begin * esize, end - begin);
    });
    return y;
  }
  const bool stream = src != dst && n * esize >= kStreamBytes;
  const size_t per_block = std::max<size_t>(kFusedBlockBytes / esize, 1);
  parallel_for(pool, n, kMinPieceBytes / esize, 64 / esize, [&](size_t begin, size_t end) {
    std::shared_ptr<Buffer> scratch;
    if (stream) scratch = Buffer::allocate(std::min(per_block, end - begin) * esize, "a fused block");
    for (size_t i = begin; i < end; i += per_block) {
      const size_t len = std::min(per_block, end - i);
      std::byte* out = stream ? scratch->mutable_data() : dst + i * esize;
      kernels[0]->compute_elements(dtype, src + i * esize, out, len);
      for (size_t k = 1; k < kernels.size(); ++k) kernels[k]->compute_elements(dtype, out, out, len);
      if (stream) copy_streaming(dst + i * esize, out, len * esize);
    }
  });
  return y;
}

}  // namespace onnxrun
