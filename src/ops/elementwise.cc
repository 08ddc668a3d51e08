#include "ops/elementwise.h"

#include <algorithm>

#include "core/error.h"

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

Tensor reuse_or_allocate(DType dtype, const Shape& shape, std::initializer_list<const Tensor*> donors) {
  const int64_t n = checked_numel(shape);
  for (const Tensor* d : donors)
    if (d && d->valid() && d->can_overwrite() && d->dtype() == dtype && d->numel() == n)
      return Tensor(dtype, shape, d->buffer());
  return Tensor(dtype, shape);
}

}  // namespace onnxrun
