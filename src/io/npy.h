// numpy's .npy array format (numpy.lib.format), read and written without numpy.
//
// Read: format versions 1.0, 2.0 and 3.0; little-endian ('<'), big-endian ('>'),
// native ('=', this machine is little-endian) and byte-order-free ('|') descriptors;
// C order. Fortran order is refused (for rank >= 2, where it changes the layout).
// Write: exactly the bytes numpy.save writes (numpy >= 1.23): version 1.0 unless the
// header needs 2.0, the header dict in numpy's key order and spacing, padded with
// spaces for growth and to a 64-byte boundary, then the C-order little-endian data.
//
// Types: float16 '<f2', float32 '<f4', float64 '<f8', int8..int64 '|i1' '<i2' '<i4'
// '<i8', uint8..uint64 '|u1' '<u2' '<u4' '<u8', bool '|b1', complex64 '<c8',
// complex128 '<c16'. numpy has no bfloat16: onnx-run writes a bfloat16 tensor as its
// raw bits, '<u2', and reads a '<u2' array fed to a bfloat16 value as those bits
// (bfloat16_from_bits below), so a round trip is exact. That retyping happens once, at
// the io edge: the readers of numpy files take the type the value is declared as
// (read_input_file, read_npz_file, open_tensor_stream, open_npz_streams,
// ResultTensor::as_declared) and nothing above io retypes. In numpy:
//   bits = np.load("y.npy")                                   # uint16
//   f32 = (bits.astype(np.uint32) << 16).view(np.float32)     # exact widening
//   bits = (f32.view(np.uint32) >> 16).astype(np.uint16)      # truncation (no rounding)
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "core/tensor.h"

namespace onnxrun {

// Parses a whole .npy image. `what` names it in errors ("x.npy", "in.npz: x.npy").
// Throws Error(kInvalid) for a malformed file, Error(kUnsupported) for a type or layout
// onnx-run cannot hold, Error(kSecurity) for sizes that overflow.
Tensor parse_npy(std::string_view bytes, const std::string& what);

// Reads a .npy file (Error(kIo) when it cannot be read): its stream (io/tensor_stream.h,
// where it is defined), read whole, the one reader of .npy files.
Tensor read_npy_file(const std::string& path);

// A .npy header, for readers that take the data a block at a time (io/tensor_stream.h).
struct NpyHeader {
  DType dtype = DType::kUndefined;
  Shape shape;
  bool byteswap = false;   // big-endian elements of more than one byte (npy_to_native)
  size_t data_offset = 0;  // where the data starts, from the start of the file
  size_t nbytes = 0;       // the data's size
};
// Throws Error(kInvalid) "WHAT: holds HAVE bytes of data, the header promises PROMISED".
[[noreturn]] void fail_npy_data_size(const std::string& what, uint64_t have, uint64_t promised);
// How many bytes the header takes (magic through the final '\n'), from the file's first
// 12 bytes (fewer when the file is shorter). Throws as parse_npy does.
size_t npy_header_size(std::string_view start, const std::string& what);
// The header at the start of `bytes`, which holds at least npy_header_size() bytes (the
// data need not follow). Throws as parse_npy does for the header.
NpyHeader parse_npy_header(std::string_view bytes, const std::string& what);

// Big-endian data of `dtype` to this machine's order, in place: the bytes of each element
// reversed (of each of a complex number's two floats). REQUIRES: whole elements.
void npy_to_native(void* data, size_t nbytes, DType dtype);

// The header numpy.save writes for a tensor of `dtype` and `shape` (magic through the final '\n').
// Throws Error(kUnsupported) for a type numpy cannot hold (string, sub-byte types).
std::string npy_header(DType dtype, const Shape& shape);

// numpy has no bfloat16: a uint16 array given for a bfloat16 value carries its raw bits.
// Returns `t` retyped to bfloat16 (same buffer) when `declared` is bfloat16 and `t` is
// uint16; otherwise `t` unchanged.
Tensor bfloat16_from_bits(const Tensor& t, std::optional<DType> declared);
// The rule itself, on types: bfloat16 when `read` is uint16 and `declared` bfloat16, else `read`.
DType numpy_type_as_declared(DType read, std::optional<DType> declared);

// The type a value read from a numpy file is declared as, by its name (an .npz member's);
// nullopt when unknown. An empty function: none is declared.
using DeclaredType = std::function<std::optional<DType>(const std::string& name)>;

}  // namespace onnxrun
