#include "suite/compare.h"

#include <cmath>
#include <cstring>
#include <limits>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/element.h"
#include "io/tensor_text.h"

namespace onnxrun {
namespace {

bool is_float_type(DType t) {
  return t == DType::kFloat || t == DType::kDouble || t == DType::kFloat16 || t == DType::kBFloat16;
}

bool is_integer_type(DType t) {
  switch (t) {
    case DType::kInt8:
    case DType::kUInt8:
    case DType::kBool:
    case DType::kInt16:
    case DType::kUInt16:
    case DType::kInt32:
    case DType::kUInt32:
    case DType::kInt64:
    case DType::kUInt64: return true;
    default: return false;
  }
}

std::string position_of(const Shape& shape, int64_t k) {
  std::vector<int64_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    idx[d] = shape[d] ? k % shape[d] : 0;
    k = shape[d] ? k / shape[d] : 0;
  }
  return fmt::format("[{}]", fmt::join(idx, ","));
}

}  // namespace

Comparison compare_tensors(const Tensor& expected, const Tensor& actual, Tolerance tol) {
  Comparison c;
  c.numel = expected.numel();
  if (expected.dtype() != actual.dtype() || expected.shape() != actual.shape()) {
    c.ok = false;
    c.problem = fmt::format("expected {}, got {}", expected.describe(), actual.describe());
    return c;
  }
  const bool floating = is_float_type(expected.dtype());
  const bool bytes_only = !floating && !is_integer_type(expected.dtype());
  const double inf = std::numeric_limits<double>::infinity();
  double worst_score = -1;
  for (int64_t k = 0; k < c.numel; ++k) {
    double score;  // error / allowed error; > 1 fails; inf for a mismatch no tolerance fixes
    double e, a, d = 0;
    if (bytes_only) {  // types without arithmetic: compare element bytes
      const size_t sz = dtype_size(expected.dtype());
      const bool same = std::memcmp(static_cast<const char*>(expected.raw()) + k * sz,
                                    static_cast<const char*>(actual.raw()) + k * sz, sz) == 0;
      e = a = 0;
      score = same ? 0 : inf;
      if (!same) c.needed_atol = c.needed_rtol = inf;
    } else {
      e = element_as_double(expected, k);
      a = element_as_double(actual, k);
      if (!floating) {
        // Integers must be equal; compare the raw bytes too, since doubles above 2^53 round.
        const size_t sz = dtype_size(expected.dtype());
        const bool same = std::memcmp(static_cast<const char*>(expected.raw()) + k * sz,
                                      static_cast<const char*>(actual.raw()) + k * sz, sz) == 0;
        score = same ? 0 : inf;
        if (!same) c.needed_atol = c.needed_rtol = inf;
        d = std::fabs(a - e);
      } else if (std::isnan(e) || std::isnan(a)) {
        score = (std::isnan(e) && std::isnan(a)) ? 0 : inf;
      } else if (std::isinf(e) || std::isinf(a)) {
        score = (e == a) ? 0 : inf;
      } else {
        d = std::fabs(a - e);
        const double allowed = tol.atol + tol.rtol * std::fabs(e);
        score = d == 0 ? 0 : allowed > 0 ? d / allowed : inf;
        c.needed_atol = std::max(c.needed_atol, d - tol.rtol * std::fabs(e));
        c.needed_rtol = std::max(c.needed_rtol, d <= tol.atol ? 0 : (e != 0 ? (d - tol.atol) / std::fabs(e) : inf));
      }
      if (floating && score == inf) c.needed_atol = c.needed_rtol = inf;
    }
    if (score > 1) ++c.mismatches;
    if (score > worst_score) {
      worst_score = score;
      c.worst_index = k;
      c.expected = e;
      c.actual = a;
      c.abs_err = d;
      c.rel_err = e != 0 ? d / std::fabs(e) : (d == 0 ? 0 : inf);
    }
  }
  c.ok = c.mismatches == 0;
  if (c.worst_index >= 0) {
    c.worst_position = position_of(expected.shape(), c.worst_index);
    c.expected_text = format_element_shortest(expected, c.worst_index);
    c.actual_text = format_element_shortest(actual, c.worst_index);
    c.expected_bits = element_bits(expected, c.worst_index);
    c.actual_bits = element_bits(actual, c.worst_index);
  }
  return c;
}

std::string Comparison::summary(const std::string& name) const {
  return fmt::format("output '{}': {}", name, verdict());
}

std::string Comparison::verdict() const {
  if (!problem.empty()) return problem;
  if (ok) {
    if (worst_index < 0 || abs_err == 0) return fmt::format("ok ({} elements, exact)", numel);
    return fmt::format("ok ({} elements, max abs err {:.3g} at {})", numel, abs_err, worst_position);
  }
  auto bits = [](const std::string& b) { return b.empty() ? std::string() : " (" + b + ")"; };
  auto tol = [](double v) { return std::isinf(v) ? std::string("none") : fmt::format("{:.3g}", v); };
  return fmt::format(
      "{} of {} elements differ; worst at {} (flat {}): expected {}{}, got {}{}, abs err {:.3g}, rel err "
      "{:.3g}; would pass with atol >= {} or rtol >= {}",
      mismatches, numel, worst_position, worst_index,
      expected_text.empty() ? fmt::format("{}", expected) : expected_text, bits(expected_bits),
      actual_text.empty() ? fmt::format("{}", actual) : actual_text, bits(actual_bits), abs_err, rel_err,
      tol(needed_atol), tol(needed_rtol));
}

}  // namespace onnxrun
