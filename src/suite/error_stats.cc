#include "suite/error_stats.h"

#include <algorithm>
#include <cmath>

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

ErrorStats ErrorStatsBuilder::finish() {
  if (s_.count > 0) {
    s_.mean_abs = sum_abs_ / static_cast<double>(s_.count);
    s_.mean_rel = sum_rel_ / static_cast<double>(s_.count);
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
