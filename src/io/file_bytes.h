// The whole contents of a regular file (io/read_open.h), read once, its size reserved
// against the memory limit before it is read. A file for protobuf larger than it can parse
// in one message (2 GiB) is refused here with a clear message rather than failing in the
// parser.
#pragma once

#include <string>

#include "core/memory_limit.h"

namespace onnxrun {

class FileBytes {
 public:
  // What the bytes are for: protobuf (a model: at most 2 GiB) or anything else (.npz).
  enum class Limit { kProtobuf, kMemoryOnly };
  // Throws Error(kIo) naming the path when the file cannot be opened or read, or is not
  // a regular file (never blocking on a FIFO), Error(kUnsupported) past protobuf's 2 GiB
  // (Limit::kProtobuf), and Error(kSecurity) when it does not fit the memory limit
  // (memory_limit.h).
  static FileBytes read(const std::string& path, Limit limit = Limit::kProtobuf);

  const char* data() const { return bytes_.data(); }
  size_t size() const { return bytes_.size(); }

 private:
  static FileBytes read_unguarded(const std::string& path, Limit limit);  // read() but for bad_alloc
  std::string bytes_;
  MemoryReservation reservation_;  // the file's size, counted while it is held
};

}  // namespace onnxrun
