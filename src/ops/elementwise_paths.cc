#include "ops/elementwise_paths.h"

#include <string_view>

#include "ops/leaky_relu_paths.h"

namespace onnxrun {

const ElementwisePath& elementwise_active_path() {
  // One ISA decision per process, LeakyRelu's (XNNPACK's hardware config, in small).
  static const ElementwisePath& chosen = [&]() -> const ElementwisePath& {
    const ElementwisePath* avx2 = elementwise_avx2_path();
    if (std::string_view(leaky_relu_active_path().name) == "scalar" || !avx2) return elementwise_scalar_path();
    return *avx2;
  }();
  return chosen;
}

}  // namespace onnxrun
