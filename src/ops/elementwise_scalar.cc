// The loops of elementwise_loops.h for baseline x86-64.
#include "ops/elementwise_loops.h"
#include "ops/elementwise_paths.h"

namespace onnxrun {

const ElementwisePath& elementwise_scalar_path() {
  using namespace elementwise_loops;
  static constexpr ElementwisePath path =
      ONNXRUN_ELEMENTWISE_PATH("scalar", less_half<F16>, less_half<BF16>, mul_half<F16>, mul_half<BF16>);
  return path;
}

}  // namespace onnxrun
