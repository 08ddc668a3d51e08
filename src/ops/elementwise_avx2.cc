// The loops of elementwise_loops.h compiled for AVX2 by the target pragma below, used
// only when cpuid reports AVX2 (elementwise_paths.cc). Same source, same bits: the
// pragma only lets the compiler use wider vectors.
#include "ops/elementwise_paths.h"

#pragma GCC push_options
#pragma GCC target("avx2")
#if defined(__clang__)  // clang ignores GCC's target pragma (the fuzz build is clang's)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#endif

#include "ops/elementwise_loops.h"

#pragma GCC pop_options
#if defined(__clang__)
#pragma clang attribute pop
#endif

namespace onnxrun {

const ElementwisePath* elementwise_avx2_path() {
  static constexpr ElementwisePath kAvx2 = ONNXRUN_ELEMENTWISE_PATH("avx2");
  // __builtin_cpu_supports checks XCR0 too, so the OS saves the AVX state.
  return __builtin_cpu_supports("avx2") ? &kAvx2 : nullptr;
}

}  // namespace onnxrun
