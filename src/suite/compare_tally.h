// ComparisonBuilder::tally, shared by the reference and the fast comparison
// (suite/compare_reference.cc, suite/compare_fast.cc): what one element adds to the
// verdict, the counts, the statistics and the worst element. Always inline, since the
// fast path calls it for every element that is not bit-identical (a call cost a fifth of
// a comparison whose elements all differ). Include only from those two files.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "suite/compare.h"
#include "suite/compare_judge.h"
#include "suite/ulp.h"

namespace onnxrun {

[[gnu::always_inline]] inline void ComparisonBuilder::tally(int64_t k, bool same_bits, uint64_t ulp, double e, double a,
                                                            double d, double rel, double score, bool untolerant,
                                                            const void* expected_element, const void* actual_element,
                                                            double& abs_err, double& rel_err) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  Comparison& c = c_;
  // A mismatch no tolerance fixes (NaN, infinity, unequal integers or bytes) fails under
  // every statistic. Its error there is infinite, but unequal integers have their
  // difference (d, exact up to the double's rounding): the max abs err of 5 against 6 is 1.
  const bool hard = score == kInf && (untolerant || d == 0);
  const bool no_error_value = hard && d == 0;
  abs_err = no_error_value ? kInf : d;
  rel_err = no_error_value ? kInf : rel;
  if (again_) return;  // a later pass: the first counted everything else
  if (hard) {
    c.hard_mismatch = true;
    c.needed_atol = c.needed_rtol = kInf;
  }
  // Under --exact the bits decide, under --max-ulp the ULP distance; the score keeps
  // "> 1 fails" and ranks the worst element by its ULPs. A hard mismatch fails under a ULP
  // bound too: unequal integers, bools and bytes must be equal under every tolerance, and
  // their ULP distance (the difference) is reported, never allowed.
  const double ulps = ulp == kUlpInfinite ? kInf : static_cast<double>(ulp);
  if (tol_.exact) score = same_bits ? 0 : 2 + ulps;
  else if (tol_.max_ulp)
    score = hard ? kInf : ulp == 0 ? 0 : *tol_.max_ulp == 0 ? 1 + ulps : ulps / static_cast<double>(*tol_.max_ulp);
  c.bit_differences += !same_bits;
  c.max_ulp = std::max(c.max_ulp, ulp);
  if (score > 1) ++c.mismatches;
  // The worst element's errors are the statistics' (infinite for NaN and infinity
  // mismatches, the difference of unequal integers).
  if (ranks_worse({score, abs_err, ulp}, {worst_score_, c.abs_err, c.ulp}))
    set_worst(k, score, ulp, e, a, abs_err, rel_err, expected_element, actual_element);
}

inline void ComparisonBuilder::set_worst(int64_t k, double score, uint64_t ulp, double e, double a, double d,
                                         double rel, const void* expected_element, const void* actual_element) {
  Comparison& c = c_;
  worst_score_ = score;
  c.worst_index = k;
  c.expected = e;
  c.actual = a;
  c.abs_err = d;
  c.rel_err = rel;
  c.ulp = ulp;
  std::memcpy(worst_expected_.mutable_raw(), expected_element, dtype_size(dtype_));
  std::memcpy(worst_actual_.mutable_raw(), actual_element, dtype_size(dtype_));
}

}  // namespace onnxrun
