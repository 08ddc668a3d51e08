// The whole contents of a file, read once. A file larger than protobuf can parse in one
// message (2 GiB) is refused here with a clear message rather than failing in the parser.
#pragma once

#include <string>

#include "core/memory_limit.h"

namespace onnxrun {

class FileBytes {
 public:
  // Throws Error(kIo) naming the path when the file cannot be opened or read, and
  // Error(kSecurity) when it does not fit the memory limit (memory_limit.h).
  // `regular_only` (models): a FIFO, socket or device, or a link to one, is refused with
  // Error(kIo) without being opened for reading, so that the refusal never blocks.
  static FileBytes read(const std::string& path, bool regular_only = false);

  const char* data() const { return bytes_.data(); }
  size_t size() const { return bytes_.size(); }

 private:
  std::string bytes_;
  MemoryReservation reservation_;  // the file's size, counted while it is held
};

}  // namespace onnxrun
