// The members of a numpy .npz (a zip archive), found from its central directory and
// checked as io/npz.h promises before any member's data is read: the whole-file reader
// (parse_npz) and the block-by-block one (open_npz_streams, io/tensor_stream.h) walk the
// same code, so they refuse the same archives with the same messages.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace onnxrun {

class ReadAtFile;

// The archive's bytes: a whole image in memory, or a file read at offsets (only the
// directory's bytes are read: its tail, the central directory, the local headers).
class ZipBytes {
 public:
  ZipBytes(std::string_view whole, const std::string& what);
  ZipBytes(std::shared_ptr<const ReadAtFile> file, const std::string& what);

  // Error(kInvalid) "<what>: not a valid .npz (zip) file: <why>".
  [[noreturn]] void bad(std::string_view why) const;
  // The n-byte little-endian number at `at` ("truncated" past the end).
  uint64_t le(uint64_t at, int n) const;
  // Bytes [at, at + n) ("an entry lies beyond the end of the file" past it). The view
  // is valid until the next call when reading a file.
  std::string_view slice(uint64_t at, uint64_t n) const;
  // slice()'s check alone, reading nothing.
  void check_range(uint64_t at, uint64_t n) const;
  uint64_t size() const { return size_; }
  const std::string& what() const { return what_; }

 private:
  std::string_view fetch(uint64_t at, uint64_t n) const;
  std::string_view whole_;
  std::shared_ptr<const ReadAtFile> file_;
  uint64_t size_ = 0;
  std::string what_;
  mutable std::string cache_;  // file bytes [cache_at_, cache_at_ + cache_.size())
  mutable uint64_t cache_at_ = 0;
};

struct ZipMember {
  std::string key;      // the array's name: the entry name without ".npy"
  std::string label;    // "<what>: <entry name>", naming the member in messages
  uint64_t method = 0;  // 0 stored, 8 deflated
  uint32_t crc = 0;
  uint64_t csize = 0, usize = 0;  // compressed and uncompressed sizes
  uint64_t data_at = 0;           // where its (compressed) data starts; checked to lie in the file
};

// Calls on_member for each member in archive order, after checking it: a readable
// central directory and local header, no encryption, a ".npy" name, names unique, data
// within the file, a stored member's sizes equal, method stored or deflated.
void for_each_npz_member(const ZipBytes& bytes, const std::function<void(const ZipMember&)>& on_member);

}  // namespace onnxrun
