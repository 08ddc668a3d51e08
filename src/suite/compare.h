// Comparing an output with its expected value, as the ONNX backend tests do
// (|actual - expected| <= atol + rtol * |expected|), made strict where they are lax:
// NaN equals NaN only where both are NaN, an infinity must match in sign, and dtype and
// shape must match exactly. Integer and bool tensors must be equal. Beside the verdict,
// the statistics of the errors (suite/error_stats.h); with a Tolerance::stat other than
// elemwise, the verdict is that statistic's (suite/tolerance.h). With Tolerance::exact the
// verdict is the bits alone, with a max_ulp the ULP distance alone (suite/ulp.h). Every
// comparison counts the elements whose bits differ and the largest ULP distance, so
// "exact" is said only of bit-identical tensors.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/element.h"
#include "core/tensor.h"
#include "suite/error_stats.h"
#include "suite/tolerance.h"

namespace onnxrun {

class ThreadPool;
struct JudgedRun;  // suite/compare_judge.h

struct Comparison {
  bool ok = true;
  std::string problem;     // set when dtype or shape differ: nothing else is compared
  int64_t mismatches = 0;  // elements that fail (outside atol + rtol * |expected|, or the ULP or bit rule)
  int64_t numel = 0;
  int64_t bit_differences = 0;  // elements whose bits differ (-0 for +0, another NaN payload, any error)
  uint64_t max_ulp = 0;         // the largest ULP distance of any element (kUlpInfinite: NaN, inf mismatch)
  // Integer or bool elements: every ULP distance is their difference, a number, kUlpInfinite
  // (2^64 - 1, int64's extremes apart) included (suite/ulp.h ulp_text).
  bool integers = false;
  // The worst element: largest error relative to what the tolerance allows (under exact
  // or max_ulp: the largest ULP distance); NaN and infinity mismatches count as worst of all.
  // Of equal ones, the largest absolute error (with nothing tolerated, every error is
  // infinitely over its tolerance), then the first.
  int64_t worst_index = -1;
  std::string worst_position;  // "[1,2,0]"
  double expected = 0, actual = 0;
  // The same as the tensor's type writes them: the shortest decimal that reads back as
  // the element (io/tensor_text.h), "-0.03" where the double would be -0.029999999329447746.
  std::string expected_text, actual_text;
  std::string expected_bits, actual_bits;  // "0x3c00"
  double abs_err = 0, rel_err = 0;
  uint64_t ulp = 0;  // the worst element's ULP distance
  // Smallest atol (with the given rtol) and smallest rtol (with the given atol) under
  // which every element would pass; infinite when no tolerance can (NaN, inf, integer
  // mismatches).
  double needed_atol = 0, needed_rtol = 0;
  // What was asked: the output's own tolerance and the statistic that decides.
  double rtol = 0, atol = 0;
  ErrorStat stat = ErrorStat::kElemwise;
  bool exact = false;                 // --exact: the bits decide
  std::optional<uint64_t> ulp_bound;  // --max-ulp: the ULP distance decides
  // Whether a mismatch no tolerance fixes was seen (NaN, infinity, unequal integers or
  // bytes): fails under every statistic.
  bool hard_mismatch = false;
  ErrorStats errors;

  // No problem and every element bit-identical.
  bool bit_identical() const { return problem.empty() && bit_differences == 0; }
  // The smallest (atol, rtol) that would pass, each with the other as given: under an
  // error statistic, that statistic's errors (the worst element's would loosen it more
  // than needed); else needed_atol and needed_rtol. What the verdict and --json report.
  std::pair<double, double> passing_tolerance() const;
  // "ok (60 elements, exact)" (only when bit-identical), or what differs and the worst
  // element: one line.
  std::string verdict() const;
  // What fails, briefly, for the one line on stderr: "3 of 60 elements beyond tolerance,
  // max abs err 0.5, max ulp 12", or the problem.
  std::string brief() const;
  // The verdict after "output 'NAME': ".
  std::string summary(const std::string& output_name) const;
  // The error statistics and the histogram, each line indented by `indent` and ending
  // in a newline; empty when there is nothing to tell (a problem, or no error at all).
  std::string error_report(const std::string& indent) const;
};

// One comparison fed in blocks, in order: the actual tensor's as a streamed run gives
// them (suite/streamed_run.h), or both tensors' as `compare` reads two files
// (suite/compare_sets.h). compare_tensors is one add() of the whole tensor.
//
// Two paths give the same Comparison bit for bit. kFast (suite/compare_fast.cc) is typed
// per dtype and skips bit-identical runs of elements at memcmp speed, their statistics
// counted in O(1), and judges float32 a vector at a time; kReference
// (suite/compare_reference.cc) reads every element through element_as_double, and is
// what the tests hold kFast to.
//
// Memory is bounded: past a million elements with an error, the exact medians of the
// errors want the same elements once more (finish_in_passes, or begin_next_pass for a
// caller that drives the passes). Not thread safe.
class ComparisonBuilder {
 public:
  enum class Path { kFast, kReference };
  // Against a whole expected tensor, which must stay alive until finish(); it is read
  // through unaligned loads, so it may be a view of a mapped file at any byte offset. A
  // dtype or shape that differs from the expected one is the comparison's problem; add()
  // then reads nothing.
  ComparisonBuilder(const Tensor& expected, DType actual_dtype, const Shape& actual_shape, const Tolerance& tol,
                    Path path = Path::kFast);
  // Against an expected tensor that comes in blocks too (the add() of two blocks).
  ComparisonBuilder(DType expected_dtype, const Shape& expected_shape, DType actual_dtype, const Shape& actual_shape,
                    const Tolerance& tol, Path path = Path::kFast);
  // Elements [begin, begin + block.numel()) of the actual tensor, `block` in its dtype.
  // REQUIRES: built with the whole expected tensor; blocks in order, each beginning where
  // the previous one ended.
  void add(int64_t begin, const Tensor& block);
  // The same elements of both tensors. REQUIRES: built without the expected tensor;
  // expected.numel() == actual.numel(); blocks in order.
  void add(int64_t begin, const Tensor& expected, const Tensor& actual);
  // How many nonzero errors of each kind are kept in memory before the medians want
  // another pass (default ErrorStatsBuilder::kKeptErrors; tests take a few, to make
  // passes of small tensors); 0: all of them, so that one pass is always enough.
  // REQUIRES: before any add().
  void keep_errors(size_t n);
  // REQUIRES: every element added (or a problem). Called once. The medians are those of
  // the errors kept (keep_errors(0): all of them).
  Comparison finish();
  // add_all(pass) adds every element, in order (in any blocks); called again, with pass
  // 2, 3..., for as long as the medians of the errors want the elements once more; then
  // finish(). What a caller whose blocks can be made again calls instead of finish().
  Comparison finish_in_passes(const std::function<void(int pass)>& add_all);
  // After every element has been added: true when the medians of the errors want every
  // element once more (add them all again, in order, then ask again); false when finish()
  // may be called. What finish_in_passes does, for a caller that drives the passes.
  bool begin_next_pass();

  // Consecutive parts of the elements counted on other threads: part() gives an empty
  // builder in this one's pass, one of `parts` that share it, for the elements from a
  // multiple of kPartAlign on; merge() adds what such a part counted, the parts in
  // element order, each right after the elements this builder has. The Comparison is the
  // same bit for bit as one builder's given every element. REQUIRES: no problem.
  static constexpr int64_t kPartAlign = ErrorStatsBuilder::kSumChunk;
  ComparisonBuilder part(size_t parts) const;
  void merge(ComparisonBuilder&& later);
  // Every element once (one pass), in consecutive ranges counted side by side on `pool`
  // and merged in order: add_range(builder, first, last) adds elements [first, last) to
  // `builder`, from any thread. At most kMaxParts ranges, each of kMinPartElements or more:
  // each part costs its share of the kept errors and, in later passes, its histograms.
  // Without a pool (or for a small tensor) one range, on the calling thread.
  static constexpr size_t kMaxParts = 4;
  static constexpr int64_t kMinPartElements = 4 * kPartAlign;
  using RangeAdder = std::function<void(ComparisonBuilder& builder, int64_t first, int64_t last)>;
  void add_in_parts(ThreadPool* pool, const RangeAdder& add_range);

 private:
  friend struct FastComparison;  // suite/compare_fast.cc
  // Elements [from, to) of `block` and `expected` (which start at element `begin`), one
  // at a time.
  void add_reference(int64_t begin, const Tensor& expected, const Tensor& block, int64_t from, int64_t to);
  void add_fast(int64_t begin, const Tensor& expected, const Tensor& block);
  // One element's outcome, in index order (suite/compare_tally.h): k its index, `ulp` its
  // ULP distance, e and a its values, d the absolute error, `rel` the relative one
  // (relative_error), `score` the error over the allowed error; `untolerant`: a type no
  // tolerance applies to (integers, bytes). Its
  // errors for the statistics (infinite for a mismatch no tolerance fixes) come back in
  // abs_err and rel_err, for the caller to add (ErrorStatsBuilder::add or add_batch), in
  // index order. In a later pass, only those errors count.
  void tally(int64_t k, bool same_bits, uint64_t ulp, double e, double a, double d, double rel, double score,
             bool untolerant, const void* expected_element, const void* actual_element, double& abs_err,
             double& rel_err);

  // The worst element so far is element k, with these values (tally()).
  void set_worst(int64_t k, double score, uint64_t ulp, double e, double a, double d, double rel,
                 const void* expected_element, const void* actual_element);

  const Tensor* whole_expected_ = nullptr;
  DType dtype_;
  Shape shape_;
  Tolerance tol_;
  Path path_;
  Comparison c_;
  ErrorStatsBuilder errors_;
  bool again_ = false;  // a later pass: only the errors' medians are sought
  double worst_score_ = -1;
  // Copies of the worst element of each tensor, for their text.
  Tensor worst_expected_, worst_actual_;
  // The judging kernels' arrays (41 KiB), made at the first run of elements that differ
  // and kept for the builder's life: one allocation per comparison, not one per block.
  std::shared_ptr<JudgedRun> judged_;
};

// A large pair is split across up to kMaxParts threads of `pool`, with the same result.
Comparison compare_tensors(const Tensor& expected, const Tensor& actual, const Tolerance& tol,
                           ThreadPool* pool = nullptr);

// Element `k` of a tensor of `shape` as a report writes its index: "[1,2,0]".
std::string position_of(const Shape& shape, int64_t k);

}  // namespace onnxrun
