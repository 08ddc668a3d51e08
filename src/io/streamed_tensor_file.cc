#include "io/streamed_tensor_file.h"

#include "core/error.h"
#include "core/fail.h"
#include "io/npy.h"
#include "io/tensor_file.h"

namespace onnxrun {

StreamedTensorFile::StreamedTensorFile(const WriteTarget& target, TensorFormat format, DType dtype, const Shape& shape,
                                       const std::string& name)
    : file_(target), dtype_(dtype), shape_(shape), nbytes_(checked_nbytes(dtype, shape)) {
  const std::string header =
      format == TensorFormat::kPb ? tensor_file_header(dtype, shape, name) : npy_header(dtype, shape);
  write_bytes(file_.file(), header.data(), header.size(), target.path);
}

void StreamedTensorFile::append(const void* data, size_t n) {
  if (n > nbytes_ - written_)
    fail(ErrorKind::kInternal, "{}: more data than {}{} holds", path(), dtype_name(dtype_), shape_to_string(shape_));
  write_bytes(file_.file(), data, n, path());
  written_ += n;
}

void StreamedTensorFile::check_complete() const {
  if (written_ != nbytes_)
    fail(ErrorKind::kInternal, "{}: {} bytes of data written, {} expected", path(), written_, nbytes_);
}

void StreamedTensorFile::commit() {
  check_complete();
  file_.commit();
}

}  // namespace onnxrun
