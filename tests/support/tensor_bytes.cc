#include "support/tensor_bytes.h"

#include "io/npy.h"

namespace onnxrun {

std::string npy_header(const Tensor& t) { return npy_header(t.dtype(), t.shape()); }

std::string npy_bytes(const Tensor& t) {
  std::string out = npy_header(t);
  out.append(static_cast<const char*>(t.raw()), t.nbytes());
  return out;
}

std::string npz_bytes(const std::vector<NamedArray>& arrays) {
  NpzLayout layout(arrays);
  std::string out;
  for (size_t k = 0; k < arrays.size(); ++k) {
    layout.set_data_crc(k, npz_data_crc(0, arrays[k].tensor.raw(), arrays[k].tensor.nbytes()));
    out += layout.local_header(k);
    out.append(static_cast<const char*>(arrays[k].tensor.raw()), arrays[k].tensor.nbytes());
  }
  return out + layout.central_directory();
}

}  // namespace onnxrun
