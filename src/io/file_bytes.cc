#include "io/file_bytes.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <new>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"
#include "core/fail.h"
#include "core/memory_limit.h"
#include "io/read_open.h"

namespace onnxrun {

FileBytes FileBytes::read_unguarded(const std::string& path, Limit limit) {
  FileBytes out;
  struct stat st {};
  UniqueFd fd = open_regular_file(path, &st);
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(::fdopen(fd.get(), "rb"), std::fclose);
  if (!f) fail(ErrorKind::kIo, "cannot open {}: {}", path, std::strerror(errno));
  fd.release();  // the stream's now
  // The whole file is held in memory: it counts against the memory limit while it is
  // (memory_limit.h), and is refused before it is read when it does not fit.
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  if (limit == FileBytes::Limit::kProtobuf && size > static_cast<uint64_t>(INT_MAX))
    fail(ErrorKind::kUnsupported, "{}: larger than the 2 GiB a protobuf message can hold", path);
  if (size > 0) {
    out.reservation_ = MemoryReservation(static_cast<size_t>(size), path);
    out.bytes_.reserve(static_cast<size_t>(size));
  }
  // A regular file is read to its size at open: one that grows meanwhile gets no more
  // than was reserved for it.
  char chunk[1 << 16];
  size_t n;
  while (out.bytes_.size() < size &&
         (n = std::fread(chunk, 1, std::min<uint64_t>(sizeof chunk, size - out.bytes_.size()), f.get())) > 0)
    out.bytes_.append(chunk, n);
  if (std::ferror(f.get())) fail(ErrorKind::kIo, "cannot read {}: {}", path, std::strerror(errno));
  return out;
}

FileBytes FileBytes::read(const std::string& path, Limit limit) {
  try {
    return read_unguarded(path, limit);
  } catch (const std::bad_alloc&) {
    // The system said no before the memory limit did: still a refusal naming the file.
    fail(ErrorKind::kSecurity, "{}: out of memory while reading it", path);
  }
}

}  // namespace onnxrun
