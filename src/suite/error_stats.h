// Statistics of the element errors of one comparison: max, mean and median of the
// absolute and relative errors, and a histogram of the absolute error by decade.
// Fed one element at a time, in order, so a streamed comparison (block by block) and a
// whole one give the same numbers bit for bit.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <vector>

#include "suite/error_decade.h"

namespace onnxrun {

struct ErrorStats {
  int64_t count = 0;  // elements
  // Relative error is abs / |expected|; 0 where abs is 0, infinite where only expected is
  // 0. A NaN or infinity mismatch has an infinite error of both kinds.
  double max_abs = 0, mean_abs = 0, median_abs = 0;
  double max_rel = 0, mean_rel = 0, median_rel = 0;
  // The absolute error histogram: `exact` elements with error 0, `infinite` ones with an
  // infinite error, and the rest by decade: decades[d] counts errors in [10^d, 10^(d+1)).
  int64_t exact = 0, infinite = 0;
  std::map<int, int64_t> decades;
};

class ErrorStatsBuilder {
 public:
  // The next element's errors (abs_err >= 0, rel_err >= 0, either may be infinite).
  void add(double abs_err, double rel_err);
  // `n` elements with no error at all: what n calls of add(0, 0) do (adding 0 to a sum of
  // nonnegative errors and taking the max with 0 change nothing), in O(1).
  void add_exact(int64_t n) {
    s_.count += n;
    s_.exact += n;
  }
  // REQUIRES: called once. The medians are exact (the middle element, or the mean of the
  // two middle ones), found with nth_element over the nonzero errors kept by add().
  ErrorStats finish();

 private:
  ErrorStats s_;
  double sum_abs_ = 0, sum_rel_ = 0;
  // Only nonzero errors are kept: an output that mostly matches keeps almost nothing.
  std::vector<double> abs_, rel_;
  // The histogram by decade, indexed from kMinDecade: a map's lookup per element costs more
  // than the comparison; finish() gives the map.
  std::array<int64_t, kMaxDecade - kMinDecade + 1> decade_counts_{};
};

}  // namespace onnxrun
