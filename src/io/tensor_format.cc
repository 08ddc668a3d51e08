#include "io/tensor_format.h"

#include "core/error.h"
#include "core/fail.h"

namespace onnxrun {

TensorFormat parse_tensor_format(const std::string& name) {
  if (name == "pb") return TensorFormat::kPb;
  if (name == "npy") return TensorFormat::kNpy;
  if (name == "npz") return TensorFormat::kNpz;
  fail(ErrorKind::kUsage, "--format {}: expected pb, npy or npz", name);
}

}  // namespace onnxrun
