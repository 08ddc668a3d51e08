// The choice of a judging path (suite/compare_judge.h).
#include "suite/compare_judge.h"

namespace onnxrun {

JudgeFloats judge_floats_for(const HardwareConfig& config) {
  return config.has(IsaLevel::kAvx512) ? judge_floats_avx512() : nullptr;
}

TallyFloats tally_floats_for(const HardwareConfig& config) {
  return config.has(IsaLevel::kAvx512) ? tally_floats_avx512() : nullptr;
}

}  // namespace onnxrun
