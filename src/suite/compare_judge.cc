// The choice of a judging path (suite/compare_judge.h).
#include "suite/compare_judge.h"

namespace onnxrun {

FloatKernels float_kernels_for(const HardwareConfig& config) {
  if (!config.has(IsaLevel::kAvx512)) return {};
  return {judge_floats_avx512(), tally_floats_avx512()};
}

}  // namespace onnxrun
