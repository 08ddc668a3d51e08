#include "ops/elementwise.h"

namespace onnxrun {

Tensor reuse_or_allocate(DType dtype, const Shape& shape, std::initializer_list<const Tensor*> donors) {
  const int64_t n = checked_numel(shape);
  for (const Tensor* d : donors)
    if (d && d->valid() && d->can_overwrite() && d->dtype() == dtype && d->numel() == n)
      return Tensor(dtype, shape, d->buffer());
  return Tensor(dtype, shape);
}

}  // namespace onnxrun
