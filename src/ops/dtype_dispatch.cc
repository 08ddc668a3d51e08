#include "ops/dtype_dispatch.h"

namespace onnxrun {

bool dtype_out_of_scope(DType t) {
  switch (t) {
    case DType::kString:
    case DType::kComplex64:
    case DType::kComplex128:
    case DType::kFloat8E4M3FN:
    case DType::kFloat8E4M3FNUZ:
    case DType::kFloat8E5M2:
    case DType::kFloat8E5M2FNUZ:
    case DType::kUInt4:
    case DType::kInt4:
    case DType::kFloat4E2M1:
    case DType::kFloat8E8M0:
    case DType::kUInt2:
    case DType::kInt2: return true;
    default: return false;
  }
}

}  // namespace onnxrun
