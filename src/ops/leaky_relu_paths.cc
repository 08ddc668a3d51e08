#include "ops/leaky_relu_paths.h"

#include "ops/leaky_relu_kernels.h"

namespace onnxrun {

const std::vector<LeakyReluPath>& leaky_relu_all_paths() {
  static const std::vector<LeakyReluPath> paths = {
      {"scalar", IsaLevel::kScalar, leaky_relu_float, leaky_relu_double, leaky_relu_float16, leaky_relu_bfloat16,
       leaky_relu_chain_float, leaky_relu_chain_double},
      {"avx2", IsaLevel::kAvx2, leaky_relu_avx2::f32, leaky_relu_avx2::f64, leaky_relu_avx2::f16, leaky_relu_avx2::bf16,
       leaky_relu_avx2::chain_f32, leaky_relu_avx2::chain_f64},
      // Chains are memory-bound with AVX2 already: the wider paths share its loops.
      {"avx512", IsaLevel::kAvx512, leaky_relu_avx512::f32, leaky_relu_avx512::f64, leaky_relu_avx512::f16,
       leaky_relu_avx512::bf16, leaky_relu_avx2::chain_f32, leaky_relu_avx2::chain_f64},
      {"avx512bf16", IsaLevel::kAvx512Bf16, leaky_relu_avx512::f32, leaky_relu_avx512::f64, leaky_relu_avx512::f16,
       leaky_relu_avx512::bf16_native, leaky_relu_avx2::chain_f32, leaky_relu_avx2::chain_f64},
  };
  return paths;
}

const LeakyReluPath& leaky_relu_active_path() {
  const IsaLevel level = hardware_config().level;
  for (const LeakyReluPath& p : leaky_relu_all_paths())
    if (p.level == level) return p;
  return leaky_relu_all_paths().front();
}

}  // namespace onnxrun
