// How close an output must be to its expected value: the global rtol and atol, the
// ones given per output (--atol NAME:V, a data.json's "atol": {"NAME": V}), and which
// error statistic decides (Polygraphy's --check-error-stat); or, instead of atol and
// rtol, bits: --exact (every element bit-identical) or --max-ulp N (every element within
// N units in the last place of the tensor's own type; suite/ulp.h says how NaN, infinity
// and zeros count).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace onnxrun {

// elemwise: every element within atol + rtol * |expected| (the ONNX backend tests' rule).
// max / mean / median: that statistic of the absolute errors within atol, or that of the
// relative errors within rtol (Polygraphy: an output fails only when it exceeds both).
// NaN and infinity mismatches, and unequal integers, fail under every statistic.
enum class ErrorStat { kElemwise, kMax, kMean, kMedian };

// "elemwise", "max", "mean", "median"; nullopt for anything else.
std::optional<ErrorStat> parse_error_stat(const std::string& name);
const char* error_stat_name(ErrorStat stat);

struct Tolerance {
  double rtol = 1e-3;
  double atol = 1e-7;
  ErrorStat stat = ErrorStat::kElemwise;
  // Per output name; an output not named here uses rtol and atol.
  std::map<std::string, double> output_rtol, output_atol;
  // Every element bit-identical (sign of zero and NaN payload included): atol, rtol and
  // max_ulp do not apply.
  bool exact = false;
  // Every element within this many ULPs; atol and rtol do not apply. Per output likewise
  // (an output named here uses its own bound even without a global one).
  std::optional<uint64_t> max_ulp;
  std::map<std::string, uint64_t> output_max_ulp;

  // The tolerance output `name` is compared with (its own rtol, atol and max_ulp where
  // given; its own atol or rtol takes it out of a global max_ulp).
  Tolerance for_output(const std::string& name) const;
};

// Throws Error(kUsage) when --rtol, --atol or --max-ulp NAME:V names none of `names` (a typo would
// leave that value compared with the default tolerance, silently); `among` says what the
// names are ("the model's outputs").
void check_tolerance_names(const Tolerance& tol, const std::vector<std::string>& names, std::string_view among);

}  // namespace onnxrun
