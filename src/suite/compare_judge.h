// The arithmetic of judging float elements (suite/compare_fast.cc), a run of float32 at a
// time, a vector of them at once where the CPU has AVX-512 (core/hardware.h): both values
// widened to double, d = |a - e| and the three quotients the verdict and the statistics
// want. Those divisions were most of a comparison whose elements all differ; a vector
// divides eight at once (docs/perf.md, "Differing elements judged a vector at a time"). Every path computes
// each element with the same IEEE operations in the same order (no fused multiply-add:
// the build has -ffp-contract=off), so the bits are the same on every path, and the same
// as the reference's (suite/compare_reference.cc); the tests hold the vector path to
// judge_finite.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>

#include "core/hardware.h"

namespace onnxrun {

// An element's relative error, as every path takes it: 0 without an error, infinite
// where only the expected value is 0.
inline double relative_error(double d, double e) {
  return d == 0 ? 0 : e != 0 ? d / std::fabs(e) : std::numeric_limits<double>::infinity();
}

// What judging an element whose expected value e and actual value a are both finite
// computes, with allowed = atol + rtol * |e|:
struct FiniteJudgement {
  double d;          // |a - e|
  double rel;        // d == 0 ? 0 : e != 0 ? d / |e| : inf
  double score;      // d == 0 ? 0 : allowed > 0 ? d / allowed : inf
  double need_atol;  // d - rtol * |e|, raised (raise_atol) until it passes
  double need_rtol;  // d <= atol ? 0 : e != 0 ? (d - atol) / |e| raised (raise_rtol) until it passes : inf
};

// The needed tolerances as computed are rounded, and may fall an ULP short: rerun with
// them, the element would still fail (atol + rtol * |e| < d as the verdict computes it).
// Each is raised an ULP at a time (once or twice at most) until it passes. A need_atol
// of 0 or less needs nothing (atol 0 passes: d <= rtol * |e|).
inline double raise_atol(double t, double d, double p /* rtol * |e| */) {
  if (t > 0)
    while (t + p < d) t = std::nextafter(t, std::numeric_limits<double>::infinity());
  return t;
}
inline double raise_rtol(double r, double d, double atol, double abs_e) {
  while (atol + r * abs_e < d) r = std::nextafter(r, std::numeric_limits<double>::infinity());
  return r;
}

// Two finite float64 values whose difference is beyond the double range (d is inf): the
// verdict is taken on the halves, which are exact there (both values are that large),
// so that inf / inf (NaN) never passes an element (suite/compare_reference.cc does the same).
// The errors stay infinite (abs and rel, as relative_error gives them): not representable.
inline FiniteJudgement judge_overflow(double e, double a, double atol, double rtol) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  const double h = std::fabs(a / 2 - e / 2), half_e = std::fabs(e) / 2;  // half_e > 0: |e| is large
  const double allowed = atol / 2 + rtol * half_e;
  return {kInf, kInf, allowed > 0 ? h / allowed : kInf, kInf,
          h <= atol / 2 ? 0 : raise_rtol((h - atol / 2) / half_e, h, atol / 2, half_e)};
}

// The definition every path follows: the scalar element path (compare_fast.cc), the
// portable kernel and each vector kernel's tail call it; the vector loops do the same
// operations a lane at a time.
inline FiniteJudgement judge_finite(double e, double a, double atol, double rtol) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  const double d = std::fabs(a - e);
  if (d == kInf) [[unlikely]]
    return judge_overflow(e, a, atol, rtol);
  const double abs_e = std::fabs(e);
  const double p = rtol * abs_e;
  const double allowed = atol + p;
  return {d, relative_error(d, e),
          d == 0        ? 0
          : allowed > 0 ? d / allowed
                        : kInf,
          raise_atol(d - p, d, p),
          d <= atol ? 0
          : e != 0  ? raise_rtol((d - atol) / abs_e, d, atol, abs_e)
                    : kInf};
}

// How an element ranks for "worst": its score (its error over what the tolerance allows),
// then its absolute error, then its ULP distance (for integers their exact difference,
// which doubles may round to one: 2^60 and 2^60 + 1). Scores tie mostly where nothing is
// tolerated (atol and rtol 0, NaN, unequal integers): every error's score is infinite
// there, and the largest error is the worst, not the first. Of elements equal in all
// three, the first stays the worst.
struct WorstRank {
  double score, d;
  uint64_t ulp;
};
inline bool ranks_worse(const WorstRank& a, const WorstRank& b) {
  return a.score > b.score || (a.score == b.score && (a.d > b.d || (a.d == b.d && a.ulp > b.ulp)));
}

// A run's judgements, an array per field (what a vector stores at once).
struct JudgedRun {
  static constexpr size_t kMax = 1024;  // elements of a run: 4 KiB of float
  // Per element, where `finite` (both values finite; elsewhere nothing is computed):
  double d[kMax], rel[kMax], score[kMax], need_atol[kMax], need_rtol[kMax];
  bool finite[kMax];

  void set(size_t k, const FiniteJudgement& j) {
    d[k] = j.d;
    rel[k] = j.rel;
    score[k] = j.score;
    need_atol[k] = j.need_atol;
    need_rtol[k] = j.need_rtol;
    finite[k] = true;
  }
};

// What a run of judged floats, every one finite on both sides, adds to the verdict under
// atol >= 0 and rtol >= 0 alone (no --exact, no --max-ulp), once an element has been
// tallied: ComparisonBuilder::tally's counts for the whole run at once. Elements whose
// bits are the same change nothing but the element counts there (compare_fast.cc:
// skips_identical), and are left out here too.
struct RunTally {
  int64_t differing = 0;  // elements whose bits differ
  int64_t failing = 0;    // elements whose score is over 1
  // The greatest need_atol and need_rtol of the elements that differ, NaN left out as
  // std::max(so_far, x) leaves it out; -inf when none.
  double need_atol = -std::numeric_limits<double>::infinity();
  double need_rtol = -std::numeric_limits<double>::infinity();
  uint64_t max_ulp = 0;     // of the elements that differ
  double worst_score = -1;  // the worst element's score (ranks_worse), and where it is
  size_t worst = 0;
};

// The AVX-512 judging of a run of n <= kMax floats (any alignment). judge_floats is the
// definition it is held to, and what it runs for a run's tail.
using JudgeFloats = void (*)(const char* expected, const char* actual, size_t n, double atol, double rtol,
                             JudgedRun& out);
// The AVX-512 tally of a run of n <= kMax floats that the judging kernel has judged.
// compare_fast_test holds the comparison it feeds to the reference.
using TallyFloats = void (*)(const char* expected, const char* actual, const JudgedRun& run, size_t n, RunTally& out);

// The float kernels `config` runs: both, where it has AVX-512, or neither (below it, and
// for every other type, compare_fast.cc judges element by element: no other kernel
// measured faster than that).
struct FloatKernels {
  JudgeFloats judge = nullptr;
  TallyFloats tally = nullptr;
};
FloatKernels float_kernels_for(const HardwareConfig& config);
JudgeFloats judge_floats_avx512();  // for the tests, where the CPU has AVX-512
TallyFloats tally_floats_avx512();

// Floats [from, n) of a run, one at a time.
inline void judge_floats(const char* expected, const char* actual, size_t from, size_t n, double atol, double rtol,
                         JudgedRun& out) {
  for (size_t k = from; k < n; ++k) {
    float e, a;
    std::memcpy(&e, expected + k * sizeof e, sizeof e);
    std::memcpy(&a, actual + k * sizeof a, sizeof a);
    out.finite[k] = false;
    if (std::isfinite(e) && std::isfinite(a)) out.set(k, judge_finite(e, a, atol, rtol));
  }
}

}  // namespace onnxrun
