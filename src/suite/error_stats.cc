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

ErrorStatsBuilder ErrorStatsBuilder::part(size_t parts) const {
  ErrorStatsBuilder p;
  p.pass_ = pass_;
  p.abs_median_ = abs_median_.part(parts);
  p.rel_median_ = rel_median_.part(parts);
  return p;
}

void ErrorStatsBuilder::merge(ErrorStatsBuilder&& other) {
  abs_median_.merge(std::move(other.abs_median_));
  rel_median_.merge(std::move(other.rel_median_));
  if (pass_ > 0) return;
  s_.count += other.s_.count;
  s_.exact += other.s_.exact;
  s_.infinite += other.s_.infinite;
  s_.max_abs = std::max(s_.max_abs, other.s_.max_abs);
  s_.max_rel = std::max(s_.max_rel, other.s_.max_rel);
  if (other.next_ > 0) other.close_chunk(other.next_ - 1);
  chunk_sums_.insert(chunk_sums_.end(), other.chunk_sums_.begin(), other.chunk_sums_.end());
  for (size_t lane = 0; lane < decade_counts_.size(); ++lane)
    for (size_t k = 0; k < decade_counts_[lane].size(); ++k) decade_counts_[lane][k] += other.decade_counts_[lane][k];
}

ErrorStats ErrorStatsBuilder::finish() {
  if (s_.count > 0) {
    if (next_ > 0) close_chunk(next_ - 1);
    std::sort(chunk_sums_.begin(), chunk_sums_.end(),
              [](const ChunkSums& x, const ChunkSums& y) { return x.chunk < y.chunk; });
    double sum_abs = 0, sum_rel = 0;
    for (size_t k = 0; k < chunk_sums_.size(); ++k) {
      if (k > 0 && chunk_sums_[k].chunk == chunk_sums_[k - 1].chunk)  // two builders' pieces of one run
        fail(ErrorKind::kInternal, "error statistics: elements {} on were counted apart",
             chunk_sums_[k].chunk << kSumShift);
      sum_abs += chunk_sums_[k].abs;
      sum_rel += chunk_sums_[k].rel;
    }
    s_.mean_abs = sum_abs / static_cast<double>(s_.count);
    s_.mean_rel = sum_rel / static_cast<double>(s_.count);
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
