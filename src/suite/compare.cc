#include "suite/compare.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/element.h"
#include "core/thread_pool.h"
#include "io/tensor_text.h"
#include "suite/compare_judge.h"
#include "suite/ulp.h"

namespace onnxrun {

std::string position_of(const Shape& shape, int64_t k) {
  std::vector<int64_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    idx[d] = shape[d] ? k % shape[d] : 0;
    k = shape[d] ? k / shape[d] : 0;
  }
  return fmt::format("[{}]", fmt::join(idx, ","));
}

namespace {

std::string short_number(double v) { return fmt::format("{:.3g}", v); }

// short_number, rounded up where it would round down: a tolerance said to pass ("atol >=
// 0.0193") must pass when given as printed, and 0.0193 does not where 0.01934 is needed.
std::string short_number_up(double v) {
  const std::string s = short_number(v);
  if (!std::isfinite(v) || std::strtod(s.c_str(), nullptr) >= v) return s;
  // v's three significant digits d.dd and exponent, the last digit one up.
  const std::string e = fmt::format("{:.2e}", v);  // "1.93e-02"
  int mantissa = (e[0] - '0') * 100 + (e[2] - '0') * 10 + (e[3] - '0') + 1;
  int exponent = std::atoi(e.c_str() + 5);
  if (mantissa == 1000) {
    mantissa = 100;
    ++exponent;
  }
  return short_number(std::strtod(fmt::format("{}e{}", mantissa, exponent - 2).c_str(), nullptr));
}

// The statistic `stat` of the absolute and of the relative errors.
std::pair<double, double> stat_errors(const ErrorStats& e, ErrorStat stat) {
  switch (stat) {
    case ErrorStat::kMax: return {e.max_abs, e.max_rel};
    case ErrorStat::kMean: return {e.mean_abs, e.mean_rel};
    case ErrorStat::kMedian: return {e.median_abs, e.median_rel};
    case ErrorStat::kElemwise: break;
  }
  return {0, 0};
}

// What fails under --max-ulp N. Integers and bool fail when unequal whatever N (their
// distance is only reported): "beyond 10 ULPs" over values 1 apart would be false.
std::string ulp_rule(uint64_t bound, bool integers) {
  if (integers) return "unequal (integers and bool must be equal under any --max-ulp)";
  return fmt::format("beyond {} ULP{}", bound, bound == 1 ? "" : "s");
}

}  // namespace

ComparisonBuilder::ComparisonBuilder(const Tensor& expected, DType actual_dtype, const Shape& actual_shape,
                                     const Tolerance& tol, Path path)
    : ComparisonBuilder(expected.dtype(), expected.shape(), actual_dtype, actual_shape, tol, path) {
  whole_expected_ = &expected;
}

ComparisonBuilder::ComparisonBuilder(DType expected_dtype, const Shape& expected_shape, DType actual_dtype,
                                     const Shape& actual_shape, const Tolerance& tol, Path path)
    : dtype_(expected_dtype), shape_(expected_shape), tol_(tol), path_(path) {
  c_.numel = checked_numel(expected_shape);
  errors_ = ErrorStatsBuilder(ErrorStatsBuilder::kKeptErrors, c_.numel);
  c_.rtol = tol.rtol;
  c_.atol = tol.atol;
  c_.stat = tol.stat;
  c_.exact = tol.exact;
  c_.integers = has_integer_ulps(expected_dtype);
  if (!tol.exact) c_.ulp_bound = tol.max_ulp;
  if (expected_dtype != actual_dtype || expected_shape != actual_shape) {
    c_.problem = fmt::format("expected {}{}, got {}{}", dtype_name(expected_dtype), shape_to_string(expected_shape),
                             dtype_name(actual_dtype), shape_to_string(actual_shape));
  } else if (c_.numel > 0) {
    worst_expected_ = Tensor(expected_dtype, {1});
    worst_actual_ = Tensor(expected_dtype, {1});
  }
}

void ComparisonBuilder::add(int64_t begin, const Tensor& block) {
  if (!c_.problem.empty()) return;
  // The expected tensor's elements of this block, as a view.
  const size_t size = dtype_size(dtype_);
  const auto* at = static_cast<const char*>(whole_expected_->raw()) + static_cast<size_t>(begin) * size;
  add(begin,
      Tensor(dtype_, {block.numel()}, Buffer::borrow(at, static_cast<size_t>(block.numel()) * size, nullptr, false)),
      block);
}

void ComparisonBuilder::add(int64_t begin, const Tensor& expected, const Tensor& actual) {
  if (!c_.problem.empty()) return;
  if (path_ == Path::kReference) return add_reference(begin, expected, actual, 0, actual.numel());
  add_fast(begin, expected, actual);
}

void ComparisonBuilder::keep_errors(size_t n) { errors_ = ErrorStatsBuilder(n, c_.numel); }

bool ComparisonBuilder::begin_next_pass() {
  if (!c_.problem.empty() || !errors_.needs_pass()) return false;
  again_ = true;
  errors_.begin_pass();
  return true;
}

ComparisonBuilder ComparisonBuilder::part(size_t parts) const {
  ComparisonBuilder p(dtype_, shape_, dtype_, shape_, tol_, path_);
  p.whole_expected_ = whole_expected_;
  p.errors_ = errors_.part(parts);
  p.again_ = again_;
  return p;
}

void ComparisonBuilder::merge(ComparisonBuilder&& later) {
  errors_.merge(std::move(later.errors_));
  if (again_) return;
  Comparison& c = c_;
  const Comparison& l = later.c_;
  c.mismatches += l.mismatches;
  c.bit_differences += l.bit_differences;
  c.max_ulp = std::max(c.max_ulp, l.max_ulp);
  c.hard_mismatch |= l.hard_mismatch;
  c.needed_atol = std::max(c.needed_atol, l.needed_atol);
  c.needed_rtol = std::max(c.needed_rtol, l.needed_rtol);
  if (ranks_worse({later.worst_score_, l.abs_err, l.ulp}, {worst_score_, c.abs_err, c.ulp})) {  // of equals the first
    worst_score_ = later.worst_score_;
    c.worst_index = l.worst_index;
    c.expected = l.expected;
    c.actual = l.actual;
    c.abs_err = l.abs_err;
    c.rel_err = l.rel_err;
    c.ulp = l.ulp;
    worst_expected_ = std::move(later.worst_expected_);
    worst_actual_ = std::move(later.worst_actual_);
  }
}

void ComparisonBuilder::add_in_parts(ThreadPool* pool, const RangeAdder& add_range) {
  const int64_t numel = c_.numel;
  if (!c_.problem.empty() || numel == 0) return;
  const int64_t units = (numel + kPartAlign - 1) / kPartAlign;  // parts begin at multiples of kPartAlign
  const auto most = static_cast<int64_t>(pool ? std::min<size_t>(pool->size(), kMaxParts) : 1);
  const int64_t parts = std::clamp<int64_t>(numel / kMinPartElements, 1, most);
  if (parts == 1) return add_range(*this, 0, numel);
  std::vector<ComparisonBuilder> later;
  for (int64_t k = 1; k < parts; ++k) later.push_back(part(static_cast<size_t>(parts)));
  pool->run(static_cast<size_t>(parts), [&](size_t part_index) {
    const auto k = static_cast<int64_t>(part_index);
    const int64_t first = units * k / parts * kPartAlign;
    const int64_t last = std::min(numel, units * (k + 1) / parts * kPartAlign);
    add_range(k == 0 ? *this : later[part_index - 1], first, last);
  });
  for (ComparisonBuilder& l : later) merge(std::move(l));
}

Comparison ComparisonBuilder::finish_in_passes(const std::function<void(int pass)>& add_all) {
  add_all(1);
  for (int pass = 2; begin_next_pass(); ++pass) add_all(pass);
  return finish();
}

Comparison ComparisonBuilder::finish() {
  Comparison c = std::move(c_);
  if (!c.problem.empty()) {
    c.ok = false;
    return c;
  }
  c.errors = errors_.finish();
  if (c.stat == ErrorStat::kElemwise || c.exact || c.ulp_bound) {
    c.ok = c.mismatches == 0;
  } else {
    const auto [abs_stat, rel_stat] = stat_errors(c.errors, c.stat);
    c.ok = !c.hard_mismatch && !(abs_stat > c.atol && rel_stat > c.rtol);
  }
  if (c.worst_index >= 0) {
    c.worst_position = position_of(shape_, c.worst_index);
    c.expected_text = format_element_shortest(worst_expected_, 0);
    c.actual_text = format_element_shortest(worst_actual_, 0);
    c.expected_bits = element_bits(worst_expected_, 0);
    c.actual_bits = element_bits(worst_actual_, 0);
  }
  return c;
}

Comparison compare_tensors(const Tensor& expected, const Tensor& actual, const Tolerance& tol, ThreadPool* pool) {
  ComparisonBuilder b(expected, actual.dtype(), actual.shape(), tol);
  const size_t size = dtype_size(actual.dtype());
  return b.finish_in_passes([&](int) {
    b.add_in_parts(pool, [&](ComparisonBuilder& to, int64_t first, int64_t last) {
      if (first == 0 && last == actual.numel()) return to.add(0, actual);
      const auto* at = static_cast<const char*>(actual.raw()) + static_cast<size_t>(first) * size;
      const auto bytes = static_cast<size_t>(last - first) * size;
      to.add(first, Tensor(actual.dtype(), {last - first}, Buffer::borrow(at, bytes, nullptr, false)));
    });
  });
}

std::string Comparison::summary(const std::string& name) const {
  return fmt::format("output '{}': {}", name, verdict());
}

std::pair<double, double> Comparison::passing_tolerance() const {
  const bool by_stat = stat != ErrorStat::kElemwise && !exact && !ulp_bound && !hard_mismatch;
  return by_stat ? stat_errors(errors, stat) : std::pair{needed_atol, needed_rtol};
}

std::string Comparison::verdict() const {
  if (!problem.empty()) return problem;
  // The bits beside the value, unless they are the value's text (a type without arithmetic).
  auto bits = [](const std::string& text, const std::string& b) {
    return b.empty() || b == text ? std::string() : " (" + b + ")";
  };
  const std::string count = fmt::format("{} element{}", numel, numel == 1 ? "" : "s");
  // Bits that differ where the numbers are equal (-0 for +0, NaN payloads) are said, so
  // that "exact" can only mean bit-identical.
  const std::string not_identical =
      bit_differences == 0 ? std::string() : fmt::format("{} of {} not bit-identical, ", bit_differences, numel);
  const std::string ulps = fmt::format("max ulp {}", ulp_text(max_ulp, integers));
  // What decides, and so what "worst" means: the tolerance, the ULP bound or the bits.
  std::string rule, worst_means;
  if (exact) {
    rule = "not bit-identical (--exact)";
    worst_means = "most ULPs apart";
  } else if (ulp_bound) {
    rule = ulp_rule(*ulp_bound, integers);
    worst_means = "most ULPs apart";
  } else {
    rule = "differ";
    worst_means = "largest error for its tolerance";
  }
  const auto [pass_atol, pass_rtol] = passing_tolerance();
  std::string remedy;
  // A hard mismatch first: no ULP bound passes unequal integers either (their distance is
  // only reported).
  if (hard_mismatch) {
    remedy = "no tolerance passes it (NaN, infinities, integers and bytes must match exactly)";
  } else if ((exact || ulp_bound) && max_ulp != kUlpInfinite) {
    remedy = fmt::format("would pass with --max-ulp {}", max_ulp);
  } else if (std::isinf(pass_rtol)) {
    remedy = fmt::format("would pass with atol >= {} (no rtol would: an expected value there is 0)",
                         short_number_up(pass_atol));
  } else if (std::isinf(pass_atol)) {  // float64 values whose difference is beyond the double range
    remedy = fmt::format("would pass with rtol >= {} (no atol would: the error is beyond the double range)",
                         short_number_up(pass_rtol));
  } else {
    remedy =
        fmt::format("would pass with atol >= {} or rtol >= {}", short_number_up(pass_atol), short_number_up(pass_rtol));
  }
  const std::string differ = fmt::format(
      "{} of {} elements {}; worst ({}) at {} (flat {}): expected {}{}, got {}{}, abs err {:.3g}, rel err {:.3g}, ulp "
      "{}; {}{}; {}",
      mismatches, numel, rule, worst_means, worst_position, worst_index,
      expected_text.empty() ? fmt::format("{}", expected) : expected_text, bits(expected_text, expected_bits),
      actual_text.empty() ? fmt::format("{}", actual) : actual_text, bits(actual_text, actual_bits), abs_err, rel_err,
      ulp_text(ulp, integers), not_identical, ulps, remedy);
  if (stat == ErrorStat::kElemwise || exact || ulp_bound) {
    if (!ok) return differ;
    if (bit_identical()) return fmt::format("ok ({}, exact)", count);
    return fmt::format("ok ({}, {}max abs err {:.3g}, {})", count, not_identical, errors.max_abs, ulps);
  }
  const char* name = error_stat_name(stat);
  const auto [abs_stat, rel_stat] = stat_errors(errors, stat);
  if (ok)
    return fmt::format(
        "ok by {} error: abs {:.3g} {} atol {:.3g}, rel {:.3g} {} rtol {:.3g} ({} of {} elements beyond atol + rtol * "
        "|expected|, {})",
        name, abs_stat, abs_stat <= atol ? "<=" : ">", atol, rel_stat, rel_stat <= rtol ? "<=" : ">", rtol, mismatches,
        numel, ulps);
  if (hard_mismatch) return fmt::format("a mismatch no tolerance fixes (any error statistic fails): {}", differ);
  return fmt::format("{} error too large: abs {:.3g} > atol {:.3g} and rel {:.3g} > rtol {:.3g}; {}", name, abs_stat,
                     atol, rel_stat, rtol, differ);
}

std::string Comparison::brief() const {
  if (!problem.empty()) return problem;
  const std::string ulps = fmt::format("max ulp {}", ulp_text(max_ulp, integers));
  if (exact) return fmt::format("{} of {} elements not bit-identical, {}", mismatches, numel, ulps);
  if (ulp_bound)
    return fmt::format("{} of {} elements {}, {}", mismatches, numel, ulp_rule(*ulp_bound, integers), ulps);
  const std::string beyond = fmt::format("{} of {} elements beyond tolerance, max abs err {}, {}", mismatches, numel,
                                         short_number(errors.max_abs), ulps);
  if (stat == ErrorStat::kElemwise || hard_mismatch) return beyond;
  return fmt::format("{} error too large; {}", error_stat_name(stat), beyond);
}

std::string Comparison::error_report(const std::string& indent) const {
  if (!problem.empty() || errors.count == errors.exact) return {};
  std::string out = fmt::format(
      "{}abs err: max {}, mean {}, median {}; rel err: max {}, mean {}, median {}; {} of {} beyond tolerance\n", indent,
      short_number(errors.max_abs), short_number(errors.mean_abs), short_number(errors.median_abs),
      short_number(errors.max_rel), short_number(errors.mean_rel), short_number(errors.median_rel), mismatches, numel);
  // The histogram: one row per decade from the smallest error's to the largest's.
  std::vector<std::pair<std::string, int64_t>> rows;
  if (errors.exact) rows.emplace_back("0", errors.exact);
  if (!errors.decades.empty())
    for (int d = errors.decades.begin()->first; d <= errors.decades.rbegin()->first; ++d) {
      const auto it = errors.decades.find(d);
      rows.emplace_back(fmt::format("[1e{}, 1e{})", d, d + 1), it == errors.decades.end() ? 0 : it->second);
    }
  if (errors.infinite) rows.emplace_back("inf (NaN, inf)", errors.infinite);
  size_t label_width = 0;
  int64_t most = 0, count_width = 1;
  for (const auto& [label, n] : rows) {
    label_width = std::max(label_width, label.size());
    most = std::max(most, n);
  }
  count_width = static_cast<int64_t>(fmt::format("{}", most).size());
  constexpr int64_t kBarWidth = 40;
  out += fmt::format("{}abs err histogram:\n", indent);
  for (const auto& [label, n] : rows) {
    const int64_t bar = n == 0 ? 0 : std::max<int64_t>(1, n * kBarWidth / most);
    out += fmt::format("{}  {:>{}} {:>{}}{}{}\n", indent, label, label_width, n, count_width, bar ? " " : "",
                       std::string(bar, '#'));
  }
  return out;
}

}  // namespace onnxrun
