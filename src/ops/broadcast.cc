#include "ops/broadcast.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.h"
#include "core/fail.h"

namespace onnxrun {

int64_t broadcast_source_index(const Shape& out, int64_t flat, const Shape& in) {
  if (in.size() > out.size()) return -1;
  int64_t index = 0, stride = 1;
  // Innermost dimension first, as the shapes align on the right.
  for (size_t j = 0; j < in.size(); ++j) {
    const int64_t o = out[out.size() - 1 - j], d = in[in.size() - 1 - j];
    if (d != o && d != 1) return -1;
    if (d != 1) index += (flat % o) * stride;
    flat = o ? flat / o : 0;
    stride *= d;
  }
  return index;
}

Shape broadcast_shapes(const std::vector<Shape>& shapes) {
  size_t rank = 0;
  for (const Shape& s : shapes) rank = std::max(rank, s.size());
  Shape out(rank, 1);
  for (const Shape& s : shapes) {
    for (size_t j = 0; j < s.size(); ++j) {
      int64_t& o = out[rank - 1 - j];
      const int64_t d = s[s.size() - 1 - j];
      if (d == o || d == 1) continue;
      if (o == 1) {
        o = d;
        continue;
      }
      std::vector<std::string> all;
      for (const Shape& x : shapes) all.push_back(shape_to_string(x));
      fail(ErrorKind::kInvalid, "shapes {} cannot be broadcast together (dims {} and {})", fmt::join(all, " and "), o,
           d);
    }
  }
  return out;
}

Shape legacy_b_shape(const Shape& a, const Shape& b, int64_t broadcast, std::optional<int64_t> axis) {
  if (broadcast == 0) {
    if (a != b)
      fail(ErrorKind::kInvalid,
           "shapes {} and {} differ and broadcast is 0 (this version broadcasts only with broadcast=1)",
           shape_to_string(a), shape_to_string(b));
    return b;
  }
  if (broadcast != 1) fail(ErrorKind::kInvalid, "attribute broadcast must be 0 or 1, got {}", broadcast);
  const int64_t ra = static_cast<int64_t>(a.size());
  const int64_t rb = static_cast<int64_t>(b.size());
  if (checked_numel(b) == 1 && rb <= ra) return Shape(a.size(), 1);
  int64_t start = axis.value_or(ra - rb);
  if (start < 0) start += ra;
  if (rb > ra || start < 0 || start + rb > ra)
    fail(ErrorKind::kInvalid, "cannot broadcast B{} onto A{} from axis {}", shape_to_string(b), shape_to_string(a),
         axis ? fmt::format("{}", *axis) : std::string("(suffix)"));
  Shape eff(a.size(), 1);
  for (int64_t j = 0; j < rb; ++j) {
    if (b[j] != a[start + j])
      fail(ErrorKind::kInvalid,
           "cannot broadcast B{} onto A{} from axis {}: B's dims must equal A's there (legacy broadcasting does "
           "not expand dims of size 1)",
           shape_to_string(b), shape_to_string(a), start);
    eff[start + j] = b[j];
  }
  return eff;
}

Shape prepare_binary_broadcast(const Tensor& a, Tensor& b, const std::optional<LegacyBroadcast>& legacy) {
  if (!legacy) return broadcast_shapes({a.shape(), b.shape()});
  Shape eff = legacy_b_shape(a.shape(), b.shape(), legacy->broadcast, legacy->axis);
  if (eff != b.shape()) b = Tensor(b.dtype(), std::move(eff), b.buffer());
  return a.shape();
}

}  // namespace onnxrun
