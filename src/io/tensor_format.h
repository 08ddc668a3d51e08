// The file formats onnx-run writes tensors in (--format): ONNX TensorProto (.pb, the
// default), numpy .npy, or one numpy .npz holding them all. What the files are called is
// io/output_names.h; writing a run's tensors in a format is io/streamed_outputs.h.
#pragma once

#include <string>

namespace onnxrun {

enum class TensorFormat { kPb, kNpy, kNpz };

// "pb", "npy", "npz"; Error(kUsage) otherwise.
TensorFormat parse_tensor_format(const std::string& name);

}  // namespace onnxrun
