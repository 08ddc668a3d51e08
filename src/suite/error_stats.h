// Statistics of the element errors of one comparison: max, mean and median of the
// absolute and relative errors, and a histogram of the absolute error by decade.
// Fed one element at a time, in order, so a streamed comparison (block by block) and a
// whole one give the same numbers bit for bit. The medians are exact in bounded memory
// (suite/error_median.h): past a million nonzero errors the builder asks for the same
// elements again (needs_pass), rather than keeping them all.
//
// Consecutive parts of the elements may be counted by builders of their own, on other
// threads, and merged in order (part, merge), with the same result bit for bit: the means'
// sums are taken the same way whoever adds, each run of kSumChunk elements (by index) summed
// in order, then those sums in order.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "suite/error_decade.h"
#include "suite/error_median.h"

namespace onnxrun {

struct ErrorStats {
  int64_t count = 0;  // elements
  // Relative error is abs / |expected|; 0 where abs is 0, infinite where only expected is
  // 0. A NaN or infinity mismatch has an infinite error of both kinds; unequal integers
  // their difference.
  double max_abs = 0, mean_abs = 0, median_abs = 0;
  double max_rel = 0, mean_rel = 0, median_rel = 0;
  // The absolute error histogram: `exact` elements with error 0, `infinite` ones with an
  // infinite error, and the rest by decade: decades[d] counts errors in [10^d, 10^(d+1)).
  int64_t exact = 0, infinite = 0;
  std::map<int, int64_t> decades;
};

class ErrorStatsBuilder {
 public:
  // Nonzero errors kept per statistic before the medians take more passes: 8 MiB each.
  static constexpr size_t kKeptErrors = size_t{1} << 20;
  // `kept_errors` = 0: every nonzero error kept, never another pass (for elements that
  // can pass only once). `count_hint`: the number of elements, when known (ErrorMedian).
  explicit ErrorStatsBuilder(size_t kept_errors = kKeptErrors, int64_t count_hint = 0)
      : abs_median_(kept_errors, count_hint), rel_median_(kept_errors, count_hint) {}
  // Elements per partial sum of the means, and so where parts may begin.
  static constexpr int64_t kSumChunk = int64_t{1} << 16;
  // The sums are of the errors times 2^-16 (exact, for errors from 2^-1006 up), so that
  // no chunk's sum overflows: a mean of errors near the largest double is that, not inf.
  // The mean is then the sum's over the count times 2^16: the bits of the unscaled sum's.
  static constexpr int kSumScaleExp = 16;
  static constexpr double kSumScale = 1.0 / (1 << kSumScaleExp);

  // The errors of the next n elements, in order (each abs_err >= 0, rel_err >= 0, either
  // may be infinite). In a later pass only the medians look at them. Taken a run at a
  // time, so that the counters and sums stay in registers across it: a call per element
  // stored and reloaded them at each (the decade counters may alias them).
  void add_batch(const double* abs_err, const double* rel_err, int64_t n);
  // One element's errors: add_batch of one.
  void add(double abs_err, double rel_err) { add_batch(&abs_err, &rel_err, 1); }
  // `n` elements with no error at all: what add(0, 0) n times does (adding 0 to a sum of
  // nonnegative errors and taking the max with 0 change nothing), in O(1).
  void add_exact(int64_t n) {
    if (pass_ > 0) return;
    abs_median_.add_zeros(n);
    rel_median_.add_zeros(n);
    const int64_t before = s_.count;
    s_.count += n;
    s_.exact += n;
    // The open chunk ends with these or among them; any after it hold zeros alone.
    if (before / kSumChunk != s_.count / kSumChunk) close_chunk();
  }
  // After every element: whether the medians need them all once more, in the same
  // order (then begin_pass and add them again). Called once after each pass.
  bool needs_pass();
  void begin_pass();
  // REQUIRES: called once, when !needs_pass(). The medians are exact: the middle element,
  // or the mean of the two middle ones.
  ErrorStats finish();

  // An empty builder in this one's pass, for the elements right after some multiple of
  // kSumChunk, one of `parts` that share a pass (suite/error_median.h).
  ErrorStatsBuilder part(size_t parts) const;
  // Adds what `later` counted. REQUIRES: later = part() of this builder or of its pass,
  // given the elements right after those this one has (in pass one, a multiple of
  // kSumChunk of them).
  void merge(ErrorStatsBuilder&& later);

 private:
  ErrorStats s_;
  int pass_ = 0;
  // The mean from the chunks' sums (`which` of each pair) and the open chunk's.
  double mean_of(double std::pair<double, double>::*which, double open) const;
  void close_chunk() {
    if (chunk_abs_ != 0 || chunk_rel_ != 0) chunk_sums_.emplace_back(chunk_abs_, chunk_rel_);
    chunk_abs_ = chunk_rel_ = 0;
  }
  // The open chunk's sums (of elements since the last multiple of kSumChunk in s_.count:
  // a part begins at one), and the closed chunks' in order (those of zeros left out, as
  // adding them changes nothing): 16 bytes per 64 Ki elements.
  double chunk_abs_ = 0, chunk_rel_ = 0;
  std::vector<std::pair<double, double>> chunk_sums_;
  // Only nonzero errors go there: an output that mostly matches costs them nothing.
  ErrorMedian abs_median_, rel_median_;
  // The histogram by decade, indexed from kMinDecade: a map's lookup per element costs more
  // than the comparison; finish() gives the map. Four of them, an element's chosen by its
  // index, since errors in a row mostly share a decade, and each increment of one counter
  // would wait for the one before.
  static constexpr int kDecadeLanes = 4;
  std::array<std::array<int64_t, kMaxDecade - kMinDecade + 1>, kDecadeLanes> decade_counts_{};
  const DecadeTables* decade_tables_ = &decade_tables();
};

}  // namespace onnxrun
