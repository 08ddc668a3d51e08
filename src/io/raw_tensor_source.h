// A raw_data tensor file read block by block: the tensor as a view of an unprefaulted
// mapping (for type and shape checks; its data pages are touched only if read) and a
// pread of any byte range of its data into the caller's memory. Reading through pread
// into a reused buffer maps no new memory, which on this project's machines costs more
// than the copy (see exec/block_run.h).
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "core/tensor.h"

namespace onnxrun {

struct RawTensorSource {
  std::string name;  // the TensorProto's name
  Tensor tensor;
  // Copies data bytes [offset, offset + n) into dst. Throws Error(kIo) naming the file.
  std::function<void(size_t offset, void* dst, size_t n)> read;
};

// nullopt when the file is not a regular file, is not a TensorProto (a .npy or .npz by
// extension or magic, or anything the raw_data scan cannot read), keeps its data other
// than in raw_data, or is misaligned: the caller then reads it the ordinary way, which
// reports what is wrong with it. Throws only for a raw_data TensorProto whose type or
// size is wrong, as read_tensor_file does.
std::optional<RawTensorSource> open_raw_tensor(const std::string& path);

}  // namespace onnxrun
