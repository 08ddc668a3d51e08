// The one writer of each tensor file format: a .pb TensorProto with raw_data, a .npy,
// or a stored .npz, written as the data comes, block by block, through an AtomicFile
// (io/atomic_file.h), so each appears whole on commit or not at all. Memory is the
// headers; the data goes from the caller's blocks to the file. A whole tensor is one
// block (as the tests write whole tensors: tests/support/shortcuts.h), so every path that
// writes a format writes the same bytes by construction.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/tensor.h"
#include "io/atomic_file.h"
#include "io/npz.h"
#include "io/tensor_format.h"

namespace onnxrun {

// One .pb or .npy file.
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

// One stored .npz, laid out up front (every member's size follows from its type and
// shape): each member's data is written at its offset, in any interleaving of members,
// and commit() patches the CRC-32s into the local headers and writes the central
// directory. The file is written at offsets, so it must be a temporary (not a FIFO or
// device written in place: Error(kIo)).
class StreamedNpzFile {
 public:
  // The archive `layout` lays out (which refuses what an .npz cannot hold before any file
  // exists). Throws Error(kIo) as AtomicFile does.
  StreamedNpzFile(const WriteTarget& target, NpzLayout layout);

  // The next n data bytes of member k. Error(kInternal) past its byte size.
  void append(size_t k, const void* data, size_t n);
  // Error(kInternal) unless every member got its byte size; else the file is complete
  // and committed (AtomicFile::commit).
  void commit();
  const std::string& path() const { return file_->path(); }

 private:
  NpzLayout layout_;
  std::unique_ptr<AtomicFile> file_;
  std::vector<uint64_t> written_;
  std::vector<uint32_t> crcs_;
};

}  // namespace onnxrun
