// The arithmetic of judging float elements (suite/compare_fast.cc), a run of them at a
// time, a vector of them at once where the CPU allows (core/hardware.h): both values
// widened to double, d = |a - e| and the three quotients the verdict and the statistics
// want. Those divisions were most of a comparison whose elements all differ; a vector
// divides eight at once (docs/perf.md, "Judging a vector at a time"). Every path computes
// each element with the same IEEE operations in the same order (no fused multiply-add:
// the build has -ffp-contract=off), so the bits are the same on every path, and the same
// as the reference's (suite/compare_reference.cc); the tests hold each path to the
// portable one.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>

#include "core/hardware.h"

namespace onnxrun {

struct JudgedRun {
  static constexpr size_t kMax = 1024;  // elements of a run: 4 KiB of float
  // Per element, where `finite` (both values finite; elsewhere nothing is computed), with
  // allowed = atol + rtol * |e|:
  double d[kMax];          // |a - e|
  double rel[kMax];        // d == 0 ? 0 : e != 0 ? d / |e| : inf
  double score[kMax];      // d == 0 ? 0 : allowed > 0 ? d / allowed : inf
  double need_atol[kMax];  // d - rtol * |e|
  double need_rtol[kMax];  // d <= atol ? 0 : e != 0 ? (d - atol) / |e| : inf
  bool finite[kMax];
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

// One element, as every path judges it where both values are finite: the portable
// kernel's body, and each vector kernel's tail.
inline void judge_one(double e, double a, double atol, double rtol, JudgedRun& out, size_t k) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  const double d = std::fabs(a - e);
  const double abs_e = std::fabs(e);
  const double allowed = atol + rtol * abs_e;
  out.d[k] = d;
  out.rel[k] = d == 0 ? 0 : e != 0 ? d / abs_e : kInf;
  out.score[k] = d == 0 ? 0 : allowed > 0 ? d / allowed : kInf;
  out.need_atol[k] = d - rtol * abs_e;
  out.need_rtol[k] = d <= atol ? 0 : e != 0 ? (d - atol) / abs_e : kInf;
  out.finite[k] = true;
}

}  // namespace onnxrun
