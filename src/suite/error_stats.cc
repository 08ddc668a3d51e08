#include "suite/error_stats.h"

#include <algorithm>
#include <cmath>

#include "suite/error_decade.h"

namespace onnxrun {
namespace {

// The median of `count` values of which all but `nonzero` are 0, those given in `v`.
double median_of(std::vector<double>& v, int64_t count) {
  if (count == 0) return 0;
  const int64_t zeros = count - static_cast<int64_t>(v.size());
  // The k-th smallest of all the values (zeros first, then v ascending).
  auto kth = [&](int64_t k) -> double {
    if (k < zeros) return 0;
    auto at = v.begin() + (k - zeros);
    std::nth_element(v.begin(), at, v.end());
    return *at;
  };
  if (count % 2 == 1) return kth(count / 2);
  const double lo = kth(count / 2 - 1), hi = kth(count / 2);
  return lo == hi ? lo : lo / 2 + hi / 2;
}

}  // namespace

void ErrorStatsBuilder::add(double abs_err, double rel_err) {
  ++s_.count;
  sum_abs_ += abs_err;
  sum_rel_ += rel_err;
  s_.max_abs = std::max(s_.max_abs, abs_err);
  s_.max_rel = std::max(s_.max_rel, rel_err);
  if (abs_err != 0) abs_.push_back(abs_err);
  if (rel_err != 0) rel_.push_back(rel_err);
  if (abs_err == 0) ++s_.exact;
  else if (std::isinf(abs_err)) ++s_.infinite;
  else ++decade_counts_[decade_of(abs_err) - kMinDecade];
}

ErrorStats ErrorStatsBuilder::finish() {
  if (s_.count > 0) {
    s_.mean_abs = sum_abs_ / static_cast<double>(s_.count);
    s_.mean_rel = sum_rel_ / static_cast<double>(s_.count);
  }
  if (s_.count > s_.exact + s_.infinite)  // some finite nonzero error: the histogram has rows
    for (int k = 0; k < static_cast<int>(decade_counts_.size()); ++k)
      if (decade_counts_[k]) s_.decades[k + kMinDecade] = decade_counts_[k];
  s_.median_abs = median_of(abs_, s_.count);
  s_.median_rel = median_of(rel_, s_.count);
  abs_ = {};
  rel_ = {};
  return s_;
}

}  // namespace onnxrun
