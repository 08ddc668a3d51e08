#include "ops/elementwise_paths.h"

#include "core/hardware.h"

namespace onnxrun {

const ElementwisePath& elementwise_active_path() {
  // Every level above scalar has AVX2 and F16C.
  const ElementwisePath* avx2 = elementwise_avx2_path();
  return hardware_config().has(IsaLevel::kAvx2) && avx2 ? *avx2 : elementwise_scalar_path();
}

}  // namespace onnxrun
