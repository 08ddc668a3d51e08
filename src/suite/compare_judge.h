// The arithmetic of judging float elements (suite/compare_fast.cc), a run of them at a
// time, a vector of them at once where the CPU allows (core/hardware.h): both values
// widened to double, d = |a - e| and the three quotients the verdict and the statistics
// want. Those divisions were most of a comparison whose elements all differ; a vector
// divides eight at once (docs/perf.md, "Differing elements judged a vector at a time"). Every path computes
// each element with the same IEEE operations in the same order (no fused multiply-add:
// the build has -ffp-contract=off), so the bits are the same on every path, and the same
// as the reference's (suite/compare_reference.cc); the tests hold each path to the
// portable one.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>

#include "core/hardware.h"

namespace onnxrun {

// What judging an element whose expected value e and actual value a are both finite
// computes, with allowed = atol + rtol * |e|:
struct FiniteJudgement {
  double d;          // |a - e|
  double rel;        // d == 0 ? 0 : e != 0 ? d / |e| : inf
  double score;      // d == 0 ? 0 : allowed > 0 ? d / allowed : inf
  double need_atol;  // d - rtol * |e|
  double need_rtol;  // d <= atol ? 0 : e != 0 ? (d - atol) / |e| : inf
};

// The definition every path follows: the scalar element path (compare_fast.cc), the
// portable kernel and each vector kernel's tail call it; the vector loops do the same
// operations a lane at a time.
inline FiniteJudgement judge_finite(double e, double a, double atol, double rtol) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  const double d = std::fabs(a - e);
  const double abs_e = std::fabs(e);
  const double allowed = atol + rtol * abs_e;
  return {d,
          d == 0   ? 0
          : e != 0 ? d / abs_e
                   : kInf,
          d == 0        ? 0
          : allowed > 0 ? d / allowed
                        : kInf,
          d - rtol * abs_e,
          d <= atol ? 0
          : e != 0  ? (d - atol) / abs_e
                    : kInf};
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

// One implementation of the judging of a run. `expected` and `actual` hold n <= kMax
// elements, at any alignment.
struct JudgeKernels {
  const char* name;
  IsaLevel level;  // what the CPU must have
  void (*f32)(const char* expected, const char* actual, size_t n, double atol, double rtol, JudgedRun& out);
  void (*f64)(const char* expected, const char* actual, size_t n, double atol, double rtol, JudgedRun& out);

  bool supported() const { return cpu_hardware().has(level); }
};

// Every path compiled in, for the tests, which compare them where the CPU has their level.
const JudgeKernels& judge_portable_kernels();
const JudgeKernels& judge_avx512_kernels();
// The widest path `config` allows; judge_active_kernels(): that of hardware_config().
const JudgeKernels& judge_kernels_for(const HardwareConfig& config);
const JudgeKernels& judge_active_kernels();

// Elements [from, n) of a run of T (float or double), one at a time: the portable kernel,
// and each vector kernel's tail.
template <class T>
void judge_elements(const char* expected, const char* actual, size_t from, size_t n, double atol, double rtol,
                    JudgedRun& out) {
  for (size_t k = from; k < n; ++k) {
    T e, a;
    std::memcpy(&e, expected + k * sizeof(T), sizeof e);
    std::memcpy(&a, actual + k * sizeof(T), sizeof a);
    out.finite[k] = false;
    if (std::isfinite(e) && std::isfinite(a)) out.set(k, judge_finite(e, a, atol, rtol));
  }
}

}  // namespace onnxrun
