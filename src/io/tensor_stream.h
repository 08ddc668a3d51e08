// Tensor files read block by block: the data of a .pb TensorProto (raw_data), a .npy, or
// each array of an .npz copied into the caller's buffer a range at a time, so a run over
// a large input holds one block of it, never the whole (DESIGN.md, "Streaming is the
// rule"). Stored bytes are read with pread at their offset; nothing is mapped or copied
// whole. Deflated .npz members go through zlib's inflate, each with its own z_stream.
//
// A stream only moves bytes: the type, shape, size and integrity checks are those of the
// whole-file readers (read_tensor_file, read_npy_file, read_npz_file), with their
// messages. What a stream cannot do (a pipe, byte swapping, a Fortran-order array, a
// typed-field TensorProto, a malformed header) it leaves to those readers: the opener
// returns nullopt and the caller reads the file whole, which reports what is wrong.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/tensor.h"
#include "io/npy.h"

namespace onnxrun {

struct TensorStream {
  std::string name;  // the TensorProto's name, or the .npz member name without ".npy"; "" for a .npy file
  DType dtype = DType::kFloat;
  Shape shape;
  std::string what;  // names it in messages: "x.npy", "in.npz: x.npy"
  // Copies data bytes [offset, offset + n) into dst. Calls come in order, each starting
  // where the last ended, unless any_order (a deflated member can only be read so).
  // Throws Error(kIo/kInvalid) naming the file. The call that completes the data checks
  // what only the end can (an .npz entry's CRC-32, a deflated entry's end), so a damaged
  // file fails before the run's outputs are committed. A
  // .npy bool array's elements are checked as they pass (0 or 1, as read_npy_file does).
  // Several streams (the members of one .npz) may be read interleaved; a stream that
  // is not any_order (below) is not to be read from two threads at once.
  std::function<void(size_t offset, void* dst, size_t n)> read;
  // read() takes any range in any order, each once, from several threads at once: a .pb
  // or .npy file, or a stored .npz member (its CRC-32 joined from the pieces' at the end);
  // not a deflated member, which inflates in order.
  bool any_order = false;

  size_t nbytes() const { return checked_nbytes(dtype, shape); }
};

// The whole of a stream's data, in a tensor of its type and shape (the tensor's
// allocation counts against the memory limit).
Tensor read_whole(TensorStream& s);

// A tensor file read block by block: a .pb TensorProto keeping its data in raw_data, or
// (by the ".npy" extension, as read_input_file decides) a .npy of version 1, 2 or 3,
// little-endian or byte-order free, C order (bfloat16 arrive as '<u2': uint16). The
// header is parsed from the file's start; the data is read at its offset by pread.
// nullopt when the file cannot be streamed this way: not a regular file (a pipe), a .npz
// or .npy by name or magic where a .pb is expected, a TensorProto with typed fields or
// external data or that the raw_data scan cannot read, a big-endian or Fortran-order
// array, a .npy header read_npy_file would refuse. The caller then reads it whole, which
// reports what is wrong. Throws only for a file of the streamable kind whose type or size
// is wrong, with read_tensor_file's or read_npy_file's message (a .npy whose data is not
// the size its header promises is refused here, before any of it is read).
// `declared`: as for read_input_file, a .npy's uint16 is bfloat16 where that is declared.
std::optional<TensorStream> open_tensor_stream(const std::string& path, std::optional<DType> declared = std::nullopt);

// Every array of an .npz in archive order: stored members read by pread at their offset,
// deflated ones through inflate with their own z_stream, so all of them can be read
// block by block, interleaved. nullopt when the file is not a regular file or a member
// cannot be streamed (a big-endian array, a header read_npy_file would refuse). The same
// checks as read_npz_file with the same messages: names unique, sizes, no encryption,
// methods stored or deflated here; each member's CRC-32 (and a deflated member's length)
// by the read of its last byte, or here for a member with no data bytes.
// `declared`: as for read_npz_file, a member's uint16 is bfloat16 where that is declared.
std::optional<std::vector<TensorStream>> open_npz_streams(const std::string& path, const DeclaredType& declared = {});

}  // namespace onnxrun
