#include "io/file_bytes.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

#include <sys/stat.h>

#include "core/error.h"
#include "core/memory_limit.h"

namespace onnxrun {

FileBytes FileBytes::read(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) fail(ErrorKind::kIo, "{}: is a folder, not a file", path);
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), std::fclose);
  if (!f) fail(ErrorKind::kIo, "cannot open {}: {}", path, std::strerror(errno));
  // The whole file is held in memory: it counts against the memory limit while it is
  // (memory_limit.h), and is refused before it is read when it does not fit.
  FileBytes out;
  struct stat st;
  if (::fstat(::fileno(f.get()), &st) == 0 && st.st_size > 0) {
    if (static_cast<uint64_t>(st.st_size) > static_cast<uint64_t>(INT_MAX))
      fail(ErrorKind::kUnsupported, "{}: larger than the 2 GiB a protobuf message can hold", path);
    out.reservation_ = MemoryReservation(static_cast<size_t>(st.st_size), path);
    out.bytes_.reserve(static_cast<size_t>(st.st_size));
  }
  char chunk[1 << 16];
  size_t n;
  while ((n = std::fread(chunk, 1, sizeof chunk, f.get())) > 0) {
    if (out.bytes_.size() + n > static_cast<size_t>(INT_MAX))
      fail(ErrorKind::kUnsupported, "{}: larger than the 2 GiB a protobuf message can hold", path);
    out.bytes_.append(chunk, n);
  }
  if (std::ferror(f.get())) fail(ErrorKind::kIo, "cannot read {}: {}", path, std::strerror(errno));
  return out;
}

}  // namespace onnxrun
