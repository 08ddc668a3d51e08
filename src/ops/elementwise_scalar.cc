// The loops of elementwise_loops.h for baseline x86-64.
#include "ops/elementwise_loops.h"
#include "ops/elementwise_paths.h"

namespace onnxrun {

const ElementwisePath& elementwise_scalar_path() {
  static constexpr ElementwisePath path = ONNXRUN_ELEMENTWISE_PATH("scalar");
  return path;
}

}  // namespace onnxrun
