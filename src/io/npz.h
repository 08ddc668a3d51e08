// numpy's .npz: a zip archive of .npy files, one per named array ("x.npy" holds the
// array numpy.load(f)["x"]), as numpy.savez (stored) and numpy.savez_compressed
// (deflated) write them.
//
// The zip is handled here by hand (about 200 lines, with zlib for inflate and CRC-32):
// reading needs only the central directory, stored and deflated entries, and zip64
// sizes; writing needs only stored entries. That is less than adapting libzip or
// minizip, and keeps the dependency to zlib, which protobuf already brings.
// Read: every entry is checked (CRC-32, sizes, names unique, no encryption), so a
// damaged archive is an error, never a wrong tensor. Write: stored entries with a fixed
// timestamp (1980-01-01), so the same tensors give the same bytes (written by
// io/streamed_tensor_file.h).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/tensor.h"
#include "io/npy.h"

namespace onnxrun {

struct NamedArray {
  std::string name;  // entry name without ".npy"
  Tensor tensor;
};

// Arrays in archive order. `what` names the archive in errors. Throws Error(kInvalid)
// for a damaged archive or an entry that is not a .npy, Error(kUnsupported) for
// encryption or a compression other than stored/deflated.
std::vector<NamedArray> parse_npz(std::string_view bytes, const std::string& what);
// `declared` gives the type each member's value is declared as: uint16 bits come back as
// bfloat16 where it is bfloat16 (numpy has none: io/npy.h).
std::vector<NamedArray> read_npz_file(const std::string& path, const DeclaredType& declared = {});

// The stored archive io/streamed_tensor_file.h writes, laid out from the arrays' names,
// types and shapes before their data exists, so that its data can be written as it comes.
// The file is, for each member k in order, local_header(k) at local_offset(k) followed by
// its data (data_offset(k), data_size(k)), then central_directory(). The CRC-32s go into
// the headers as set_data_crc gives them.
class NpzLayout {
 public:
  // Throws Error(kUnsupported) (4 GiB and more, over 65535 arrays).
  explicit NpzLayout(const std::vector<ValueSpec>& values);
  // The layout of `arrays`' names, types and shapes (their data is not read).
  explicit NpzLayout(const std::vector<NamedArray>& arrays);

  size_t count() const { return members_.size(); }
  const std::string& member_name(size_t k) const { return members_[k].name; }  // "x.npy"

  uint64_t local_offset(size_t k) const { return members_[k].offset; }
  uint64_t data_offset(size_t k) const;
  uint64_t data_size(size_t k) const { return members_[k].data_size; }
  uint64_t central_offset() const { return central_offset_; }

  // Member k's local header, name and .npy header.
  std::string local_header(size_t k) const;
  // The CRC-32 of member k's data bytes (npz_data_crc over them in order, from 0).
  void set_data_crc(size_t k, uint32_t data_crc);
  // The central directory and end record.
  std::string central_directory() const;

  struct Member {
    std::string name;        // "x.npy"
    std::string npy_header;  // npy_header(dtype, shape)
    uint64_t data_size = 0;
    uint64_t size = 0;    // npy header + data
    uint64_t offset = 0;  // of the local header
    uint32_t crc = 0;     // of the member (npy header + data)
  };

 private:
  std::vector<Member> members_;
  uint64_t central_offset_ = 0;
};

// zlib's CRC-32 of `data` continued from `crc` (0 to start).
uint32_t npz_data_crc(uint32_t crc, const void* data, size_t n);

}  // namespace onnxrun
