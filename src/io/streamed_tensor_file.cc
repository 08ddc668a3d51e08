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
  file_.write(header.data(), header.size());
}

void StreamedTensorFile::append(const void* data, size_t n) {
  if (n > nbytes_ - written_)
    fail(ErrorKind::kInternal, "{}: more data than {}{} holds", path(), dtype_name(dtype_), shape_to_string(shape_));
  file_.write(data, n);
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

StreamedNpzFile::StreamedNpzFile(const WriteTarget& target, NpzLayout layout)
    : layout_(std::move(layout)), file_(std::make_unique<AtomicFile>(target)) {
  if (file_->in_place())
    fail(ErrorKind::kIo, "cannot write {}: an .npz is written at offsets, which a pipe or device cannot take",
         target.path);
  for (size_t k = 0; k < layout_.count(); ++k) {
    const std::string head = layout_.local_header(k);  // its CRC patched at commit()
    write_bytes_at(file_->fd(), head.data(), head.size(), layout_.local_offset(k), path());
  }
  written_.assign(layout_.count(), 0);
  crcs_.assign(layout_.count(), 0);
}

void StreamedNpzFile::append(size_t k, const void* data, size_t n) {
  if (k >= layout_.count() || n > layout_.data_size(k) - written_[k])
    fail(ErrorKind::kInternal, "{}: more data than member {} holds", path(), k);
  write_bytes_at(file_->fd(), data, n, layout_.data_offset(k) + written_[k], path());
  crcs_[k] = npz_data_crc(crcs_[k], data, n);
  written_[k] += n;
}

void StreamedNpzFile::commit() {
  for (size_t k = 0; k < layout_.count(); ++k) {
    if (written_[k] != layout_.data_size(k))
      fail(ErrorKind::kInternal, "{}: {}: {} bytes of data written, {} expected", path(), layout_.member_name(k),
           written_[k], layout_.data_size(k));
    layout_.set_data_crc(k, crcs_[k]);
    const std::string head = layout_.local_header(k);
    write_bytes_at(file_->fd(), head.data(), head.size(), layout_.local_offset(k), path());
  }
  const std::string central = layout_.central_directory();
  write_bytes_at(file_->fd(), central.data(), central.size(), layout_.central_offset(), path());
  file_->commit();
}

}  // namespace onnxrun
