// The portable judging kernel, and the choice of a path (suite/compare_judge.h).
#include "suite/compare_judge.h"

namespace onnxrun {
namespace {

template <class T>
void portable(const char* expected, const char* actual, size_t n, double atol, double rtol, JudgedRun& out) {
  judge_elements<T>(expected, actual, 0, n, atol, rtol, out);
}

}  // namespace

const JudgeKernels& judge_portable_kernels() {
  static const JudgeKernels k{"portable", IsaLevel::kScalar, portable<float>, portable<double>};
  return k;
}

const JudgeKernels& judge_kernels_for(const HardwareConfig& config) {
  return config.has(IsaLevel::kAvx512) ? judge_avx512_kernels() : judge_portable_kernels();
}

const JudgeKernels& judge_active_kernels() { return judge_kernels_for(hardware_config()); }

}  // namespace onnxrun
