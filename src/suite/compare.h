// Comparing an output with its expected value, as the ONNX backend tests do
// (|actual - expected| <= atol + rtol * |expected|), made strict where they are lax:
// NaN equals NaN only where both are NaN, an infinity must match in sign, and dtype and
// shape must match exactly. Integer and bool tensors must be equal. Beside the verdict,
// the statistics of the errors (suite/error_stats.h); with a Tolerance::stat other than
// elemwise, the verdict is that statistic's (suite/tolerance.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/element.h"
#include "core/tensor.h"
#include "suite/error_stats.h"
#include "suite/tolerance.h"

namespace onnxrun {

struct Comparison {
  bool ok = true;
  std::string problem;     // set when dtype or shape differ: nothing else is compared
  int64_t mismatches = 0;  // elements outside atol + rtol * |expected|
  int64_t numel = 0;
  // The worst element: largest error relative to what the tolerance allows; NaN and
  // infinity mismatches count as worst of all.
  int64_t worst_index = -1;
  std::string worst_position;  // "[1,2,0]"
  double expected = 0, actual = 0;
  // The same as the tensor's type writes them: the shortest decimal that reads back as
  // the element (io/tensor_text.h), "-0.03" where the double would be -0.029999999329447746.
  std::string expected_text, actual_text;
  std::string expected_bits, actual_bits;  // "0x3c00"
  double abs_err = 0, rel_err = 0;
  // Smallest atol (with the given rtol) and smallest rtol (with the given atol) under
  // which every element would pass; infinite when no tolerance can (NaN, inf, integer
  // mismatches).
  double needed_atol = 0, needed_rtol = 0;
  // What was asked: the output's own tolerance and the statistic that decides.
  double rtol = 0, atol = 0;
  ErrorStat stat = ErrorStat::kElemwise;
  // Whether a mismatch no tolerance fixes was seen (NaN, infinity, unequal integers or
  // bytes): fails under every statistic.
  bool hard_mismatch = false;
  ErrorStats errors;

  // "ok (60 elements, exact)", or what differs and the worst element: one line.
  std::string verdict() const;
  // The verdict after "output 'NAME': ".
  std::string summary(const std::string& output_name) const;
  // The error statistics and the histogram, each line indented by `indent` and ending
  // in a newline; empty when there is nothing to tell (a problem, or no error at all).
  std::string error_report(const std::string& indent) const;
};

// One comparison fed the actual tensor in blocks, in order: what a streamed run gives
// (suite/streamed_run.h). compare_tensors is one add() of the whole tensor.
class ComparisonBuilder {
 public:
  // `expected` must stay alive until finish(). A dtype or shape that differs from the
  // expected one is the comparison's problem; add() then reads nothing.
  ComparisonBuilder(const Tensor& expected, DType actual_dtype, const Shape& actual_shape, const Tolerance& tol);
  // Elements [begin, begin + block.numel()) of the actual tensor, `block` in its dtype.
  // REQUIRES: blocks in order, each beginning where the previous one ended.
  void add(int64_t begin, const Tensor& block);
  // REQUIRES: every element added (or a problem). Called once.
  Comparison finish();

 private:
  const Tensor& expected_;
  Tolerance tol_;
  Comparison c_;
  ErrorStatsBuilder errors_;
  double worst_score_ = -1;
  Tensor worst_actual_;  // a copy of the worst element of the actual tensor, for its text
};

Comparison compare_tensors(const Tensor& expected, const Tensor& actual, const Tolerance& tol);

}  // namespace onnxrun
