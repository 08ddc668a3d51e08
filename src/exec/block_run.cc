#include "exec/block_run.h"

#include <algorithm>
#include <map>

#include "core/error.h"
#include "exec/executor.h"
#include "ops/registry.h"

namespace onnxrun {

bool can_run_in_blocks(const Graph& g) {
  const auto inputs = g.required_inputs();
  if (inputs.size() != 1 || g.outputs.size() != 1 || !g.initializers.empty() || g.nodes.empty()) return false;
  std::string value = inputs[0]->name;
  for (const Node& n : g.nodes) {                   // a chain: each node consumes the previous one's output
    if (!n.op || !n.op->elementwise) return false;  // the row says whether blocks are safe
    if (n.inputs.size() != 1 || n.outputs.size() != 1 || n.inputs[0] != value) return false;
    value = n.outputs[0];
  }
  return value == g.outputs[0].name;
}

void run_in_blocks(const Executor& exec, const std::string& input_name, DType dtype, const Shape& shape,
                   const std::function<void(size_t offset, void* dst, size_t n)>& read, size_t block_bytes,
                   const std::function<void(const Tensor& block)>& sink) {
  const size_t esize = dtype_size(dtype);
  const size_t total = static_cast<size_t>(checked_numel(shape));
  const size_t per_block = std::max<size_t>(block_bytes / esize, 1);
  std::shared_ptr<Buffer> buffer = Buffer::allocate(std::max<size_t>(std::min(per_block, total), 1) * esize);
  for (size_t begin = 0; begin < total; begin += per_block) {
    const size_t n = std::min(per_block, total - begin);
    read(begin * esize, buffer->mutable_data(), n * esize);
    // The feed holds the only reference, so the kernel computes in place.
    std::map<std::string, Tensor> feed;
    feed.emplace(input_name, Tensor(dtype, Shape{static_cast<int64_t>(n)}, std::move(buffer)));
    std::vector<Tensor> out = exec.run(std::move(feed));
    sink(out.at(0));
    buffer = out[0].buffer();
    out.clear();
    if (buffer.use_count() != 1 || !buffer->writable())  // a kernel that did not work in place
      buffer = Buffer::allocate(std::min(per_block, total) * esize);
  }
}

}  // namespace onnxrun
