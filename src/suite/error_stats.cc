#include "suite/error_stats.h"

#include <algorithm>
#include <cmath>

#include "core/fail.h"
#include "suite/error_decade.h"

namespace onnxrun {

bool ErrorStatsBuilder::needs_pass() {
  // Both asked: each reads what the pass counted.
  const bool abs = abs_median_.needs_pass(s_.count);
  const bool rel = rel_median_.needs_pass(s_.count);
  return abs || rel;
}

void ErrorStatsBuilder::begin_pass() {
  ++pass_;
  abs_median_.begin_pass();
  rel_median_.begin_pass();
}

void ErrorStatsBuilder::add_batch(const double* abs_err, const double* rel_err, int64_t n) {
  abs_median_.add_nonzero(abs_err, n);
  rel_median_.add_nonzero(rel_err, n);
  if (pass_ > 0) return;
  int64_t count = s_.count, exact = s_.exact, infinite = s_.infinite;
  double sum_abs = chunk_abs_, sum_rel = chunk_rel_, max_abs = s_.max_abs, max_rel = s_.max_rel;
  const DecadeTables& tables = *decade_tables_;
  for (int64_t k = 0; k < n; ++k) {
    const double a = abs_err[k], r = rel_err[k];
    ++count;
    sum_abs += a * kSumScale;  // off the adds' chain: free
    sum_rel += r * kSumScale;
    if (count % kSumChunk == 0) {
      chunk_abs_ = sum_abs;
      chunk_rel_ = sum_rel;
      close_chunk();
      sum_abs = sum_rel = 0;
    }
    max_abs = std::max(max_abs, a);
    max_rel = std::max(max_rel, r);
    if (a == 0) ++exact;
    else if (std::isinf(a)) ++infinite;
    else ++decade_counts_[count % kDecadeLanes][decade_of(a, tables) - kMinDecade];
  }
  s_.count = count;
  s_.exact = exact;
  s_.infinite = infinite;
  s_.max_abs = max_abs;
  s_.max_rel = max_rel;
  chunk_abs_ = sum_abs;
  chunk_rel_ = sum_rel;
}

ErrorStatsBuilder ErrorStatsBuilder::part(size_t parts) const {
  ErrorStatsBuilder p;
  p.pass_ = pass_;
  p.abs_median_ = abs_median_.part(parts);
  p.rel_median_ = rel_median_.part(parts);
  return p;
}

void ErrorStatsBuilder::merge(ErrorStatsBuilder&& later) {
  abs_median_.merge(std::move(later.abs_median_));
  rel_median_.merge(std::move(later.rel_median_));
  if (pass_ > 0) return;
  if (s_.count % kSumChunk != 0)  // the sums would be grouped otherwise than by one builder
    fail(ErrorKind::kInternal, "error statistics merged after {} elements, not a multiple of {}", s_.count, kSumChunk);
  s_.count += later.s_.count;
  s_.exact += later.s_.exact;
  s_.infinite += later.s_.infinite;
  s_.max_abs = std::max(s_.max_abs, later.s_.max_abs);
  s_.max_rel = std::max(s_.max_rel, later.s_.max_rel);
  chunk_sums_.insert(chunk_sums_.end(), later.chunk_sums_.begin(), later.chunk_sums_.end());
  chunk_abs_ = later.chunk_abs_;
  chunk_rel_ = later.chunk_rel_;
  for (size_t lane = 0; lane < decade_counts_.size(); ++lane)
    for (size_t k = 0; k < decade_counts_[lane].size(); ++k) decade_counts_[lane][k] += later.decade_counts_[lane][k];
}

double ErrorStatsBuilder::mean_of(double std::pair<double, double>::*which, double open) const {
  const double n = static_cast<double>(s_.count);
  double total = 0;
  for (const auto& sums : chunk_sums_) total += sums.*which;
  total += open;
  if (std::isfinite(total)) return std::ldexp(total / n, kSumScaleExp);
  // The chunks' sums add up past the largest double (errors near it, in more than one
  // chunk): added 2^48 times smaller again. An infinite error stays infinite here.
  double small = 0;
  for (const auto& sums : chunk_sums_) small += std::ldexp(sums.*which, -48);
  small += std::ldexp(open, -48);
  return std::ldexp(small / n, kSumScaleExp + 48);
}

ErrorStats ErrorStatsBuilder::finish() {
  if (s_.count > 0) {
    s_.mean_abs = mean_of(&std::pair<double, double>::first, chunk_abs_);
    s_.mean_rel = mean_of(&std::pair<double, double>::second, chunk_rel_);
  }
  if (s_.count > s_.exact + s_.infinite)  // some finite nonzero error: the histogram has rows
    for (int k = 0; k < kMaxDecade - kMinDecade + 1; ++k) {
      int64_t n = 0;
      for (const auto& lane : decade_counts_) n += lane[k];
      if (n) s_.decades[k + kMinDecade] = n;
    }
  s_.median_abs = abs_median_.finish(s_.count);
  s_.median_rel = rel_median_.finish(s_.count);
  return s_;
}

}  // namespace onnxrun
