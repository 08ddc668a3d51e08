// Tensor files as sources: a tensor's type and shape, then its data copied into the
// caller's buffer a range at a time, so a run over a large input holds one block of it,
// never the whole (DESIGN.md, "Streaming is the rule"). Every reader of a tensor file
// (the run's inputs and expected outputs, test sets, `compare`, `verify`) opens it here.
// A .pb TensorProto keeping its data in raw_data, a .npy and each array of an .npz are
// read by pread at their offset, nothing mapped or copied whole; deflated .npz members go
// through zlib's inflate, each with its own z_stream.
//
// What cannot be read a range at a time (byte swapping, a typed-field TensorProto) is
// read whole by the whole-file readers (read_input_file, read_npz_file) and served from
// memory: the stream then holds the tensor (`held`). The type, shape, size and integrity
// checks are those readers', with their messages, whichever way a file is read.
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
  // The tensor itself, when the file was read whole (see above): read() copies from it,
  // in any order, as often as asked, and read_whole hands it out without a copy.
  std::optional<Tensor> held;

  size_t nbytes() const { return checked_nbytes(dtype, shape); }
};

// The whole of a stream's data, in a tensor of its type and shape (the tensor's
// allocation counts against the memory limit); `held` itself when the stream has it.
Tensor read_whole(const TensorStream& s);

// A stream over a tensor in memory (any_order, `held`).
TensorStream memory_stream(std::string name, Tensor t, std::string what);

// A tensor file given for a value, as read_input_file reads it (a .npy by its extension,
// else a TensorProto): a raw_data TensorProto or a .npy of version 1, 2 or 3,
// little-endian or byte-order free, C order, read a range at a time (its header parsed
// from the file's start, its data read at its offset by pread); anything else read whole
// (held). Throws what read_input_file throws for the file, with its message (a .npy whose
// data is not the size its header promises is refused here, before any of it is read).
// `declared`: as for read_input_file, a .npy's uint16 is bfloat16 where that is declared.
TensorStream open_tensor_stream(const std::string& path, std::optional<DType> declared = std::nullopt);

// Every array of an .npz in archive order: stored members read by pread at their offset,
// deflated ones through inflate with their own z_stream, so all of them can be read
// block by block, interleaved; an archive that cannot be read so (not a regular file, a
// big-endian member) read whole by read_npz_file (held). The same checks as
// read_npz_file with the same messages: names unique, sizes, no encryption, methods
// stored or deflated here; each member's CRC-32 (and a deflated member's length) by the
// read of its last byte, or here for a member with no data bytes.
// `declared`: as for read_npz_file, a member's uint16 is bfloat16 where that is declared.
std::vector<TensorStream> open_npz_streams(const std::string& path, const DeclaredType& declared = {});

// open_npz_streams, with a way to open member j again from its start: a stream keeps
// state as it is read (a deflated member's z_stream, a stored one's CRC-32 of the pieces
// read), so a second reader needs one of its own. reopen(j) reads no directory again (a
// verify over an .npz of 800 values spent 6 s doing so once per value): the archive
// stays open while `reopen` is kept. Throws Error(kIo) where the member is no longer what
// it was.
struct NpzStreams {
  std::vector<TensorStream> members;
  std::function<TensorStream(size_t j)> reopen;
};
NpzStreams open_npz(const std::string& path, const DeclaredType& declared = {});

}  // namespace onnxrun
