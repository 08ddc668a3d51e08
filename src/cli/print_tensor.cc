#include "cli/print_tensor.h"

#include <fmt/format.h>

#include "core/element.h"

namespace onnxrun::cli {

std::string format_tensor_short(const Tensor& t, size_t max_values) {
  std::string out = t.describe() + " [";
  const int64_t n = t.numel();
  const int64_t shown = std::min<int64_t>(n, static_cast<int64_t>(max_values));
  for (int64_t k = 0; k < shown; ++k) {
    if (k) out += ", ";
    out += fmt::format("{:.6g}", element_as_double(t, k));
  }
  if (shown < n) out += ", ...";
  out += "]";
  if (shown < n) out += fmt::format(" ({} values)", n);
  return out;
}

}  // namespace onnxrun::cli
