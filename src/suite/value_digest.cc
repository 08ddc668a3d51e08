#include "suite/value_digest.h"

#include <cstring>

#include <fmt/format.h>

#include "core/error.h"

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

DigestBuilder::DigestBuilder(DType dtype, Shape shape, const ArrayPrintOptions& print) : stats_(dtype) {
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
  stats_.add(block.raw(), n, pool);
  const size_t esize = dtype_size(digest_.dtype);
  auto* dst = static_cast<unsigned char*>(digest_.shown.mutable_raw());
  const auto* src = static_cast<const unsigned char*>(block.raw());
  for (; next_ < offsets_.size() && static_cast<size_t>(offsets_[next_]) < begin + n; ++next_)
    std::memcpy(dst + next_ * esize, src + (static_cast<size_t>(offsets_[next_]) - begin) * esize, esize);
}

ValueDigest DigestBuilder::finish() {
  if (next_ != offsets_.size()) fail(ErrorKind::kInternal, "{}: blocks ended early", describe(digest_));
  digest_.stats = stats_.result();
  return std::move(digest_);
}

}  // namespace onnxrun
