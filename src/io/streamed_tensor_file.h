// One tensor file written as its data comes, block by block: the bytes of
// write_tensor_file (a .pb TensorProto with raw_data) or write_npy_file, through an
// AtomicFile (io/atomic_file.h), so it appears whole on commit or not at all. Memory is
// the header; the data goes from the caller's blocks to the file.
#pragma once

#include <string>

#include "core/tensor.h"
#include "io/atomic_file.h"
#include "io/tensor_format.h"

namespace onnxrun {

class StreamedTensorFile {
 public:
  // Opens `target` and writes the header: kPb a TensorProto named `name`, kNpy (or kNpz,
  // which writes no single-array files) a .npy. Throws Error(kIo) as AtomicFile does.
  StreamedTensorFile(const WriteTarget& target, TensorFormat format, DType dtype, const Shape& shape,
                     const std::string& name);

  // The next n data bytes. Error(kInternal) naming the file when they pass the tensor's
  // byte size (nothing of them is written); Error(kIo) when the write fails.
  void append(const void* data, size_t n);
  // Error(kInternal) naming the file unless every data byte came.
  void check_complete() const;
  // check_complete(), then AtomicFile::commit.
  void commit();
  const std::string& path() const { return file_.path(); }

 private:
  AtomicFile file_;
  DType dtype_;
  Shape shape_;
  size_t nbytes_;
  size_t written_ = 0;
};

}  // namespace onnxrun
