// Tensor files as bytes in memory, for tests that damage them or write them where the
// writers (io/streamed_tensor_file.h) would not: the same layouts, from the same headers.
#pragma once

#include <string>
#include <vector>

#include "core/tensor.h"
#include "io/npz.h"

namespace onnxrun {

// The header numpy.save writes for `t`: npy_header(t.dtype(), t.shape()).
std::string npy_header(const Tensor& t);
// The whole .npy image: npy_header(t) followed by the data.
std::string npy_bytes(const Tensor& t);
// The stored archive of `arrays` (entries "<name>.npy", in the order given).
std::string npz_bytes(const std::vector<NamedArray>& arrays);

}  // namespace onnxrun
