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
// timestamp (1980-01-01), so the same tensors give the same bytes; atomically.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/tensor.h"

namespace onnxrun {

struct NamedArray {
  std::string name;  // entry name without ".npy"
  Tensor tensor;
};

// Arrays in archive order. `what` names the archive in errors. Throws Error(kInvalid)
// for a damaged archive or an entry that is not a .npy, Error(kUnsupported) for
// encryption or a compression other than stored/deflated.
std::vector<NamedArray> parse_npz(std::string_view bytes, const std::string& what);
std::vector<NamedArray> read_npz_file(const std::string& path);

// The archive bytes for `arrays` (entries "<name>.npy", in the order given).
std::string npz_bytes(const std::vector<NamedArray>& arrays);
void write_npz_file(const std::string& path, const std::vector<NamedArray>& arrays);

}  // namespace onnxrun
