#include "ops/elementwise.h"

#include <algorithm>

#include "core/error.h"
#include "core/fail.h"
#include "core/thread_pool.h"

namespace onnxrun {

std::optional<LegacyBroadcast> binary_broadcast_rule(const OpDef& def, const AttributeMap& attrs) {
  if (std::none_of(def.attrs.begin(), def.attrs.end(), [](const AttrSpec& a) { return a.name == "broadcast"; }))
    return std::nullopt;
  LegacyBroadcast l;
  l.broadcast = attr_int(attrs, "broadcast").value_or(0);
  l.axis = attr_int(attrs, "axis");
  if (l.broadcast != 0 && l.broadcast != 1)
    fail(ErrorKind::kInvalid, "attribute broadcast must be 0 or 1, got {}", l.broadcast);
  return l;
}

std::optional<Repeat> contiguous_repeat(const Tensor& a, const Tensor& b, const Tensor& out) {
  const int64_t n = out.numel(), na = a.numel(), nb = b.numel();
  if (na == n && nb == n) return Repeat::kNone;
  if (nb == 1 && na == n) return Repeat::kB;
  if (na == 1 && nb == n) return Repeat::kA;
  return std::nullopt;
}

void split_elements(ThreadPool* pool, size_t n, size_t elem_bytes, const std::function<void(size_t, size_t)>& fn) {
  // Pieces worth a thread here, as the kernels split (core/thread_pool.h).
  parallel_for(pool, n, worthwhile_piece(pool, n, elem_bytes), std::max<size_t>(64 / elem_bytes, 1), fn);
}

Tensor reuse_or_allocate(DType dtype, const Shape& shape, std::initializer_list<const Tensor*> donors) {
  const int64_t n = checked_numel(shape);
  for (const Tensor* d : donors)
    if (d && d->valid() && d->can_overwrite() && d->dtype() == dtype && d->numel() == n)
      return Tensor(dtype, shape, d->buffer());
  return Tensor(dtype, shape);
}

}  // namespace onnxrun
