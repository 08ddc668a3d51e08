#include "suite/value_digest.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "core/error.h"
#include "core/fail.h"

namespace onnxrun {

std::string describe(const ValueDigest& d) {
  return fmt::format("{}{}", dtype_name(d.dtype), shape_to_string(d.shape));
}

ValueDigest digest_of(const Tensor& t, const ArrayPrintOptions& print, ThreadPool* pool) {
  ValueDigest d;
  d.dtype = t.dtype();
  d.shape = t.shape();
  d.stats = tensor_stats(t, pool);
  d.print = print;
  d.shown = shown_elements(t, print);  // a Tensor's type is always storable
  return d;
}

DigestBuilder::DigestBuilder(DType dtype, Shape shape, const ArrayPrintOptions& print)
    : stats_(dtype, static_cast<size_t>(checked_numel(shape))) {
  digest_.dtype = dtype;
  digest_.shape = std::move(shape);
  digest_.print = print;
  const Shape compact = shown_shape(digest_.shape, print);
  if (checked_numel(compact) > kMaxShownElements)
    fail(ErrorKind::kInternal, "{} would keep {} shown elements", describe(digest_), checked_numel(compact));
  digest_.shown = Tensor(dtype, compact);
  offsets_ = shown_offsets(digest_.shape, print);
}

void DigestBuilder::add(size_t begin, const Tensor& block, ThreadPool* pool) {
  const size_t n = static_cast<size_t>(block.numel());
  stats_.add(begin, block.raw(), n, pool);
  // The shown elements in this block: each block writes its own, so blocks may come at once.
  const size_t esize = dtype_size(digest_.dtype);
  auto* dst = static_cast<unsigned char*>(digest_.shown.mutable_raw());
  const auto* src = static_cast<const unsigned char*>(block.raw());
  const auto first = std::lower_bound(offsets_.begin(), offsets_.end(), static_cast<int64_t>(begin));
  for (auto it = first; it != offsets_.end() && static_cast<size_t>(*it) < begin + n; ++it)
    std::memcpy(dst + static_cast<size_t>(it - offsets_.begin()) * esize,
                src + (static_cast<size_t>(*it) - begin) * esize, esize);
}

ValueDigest DigestBuilder::finish() {
  digest_.stats = stats_.result();
  return std::move(digest_);
}

}  // namespace onnxrun
