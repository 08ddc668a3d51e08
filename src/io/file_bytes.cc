#include "io/file_bytes.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

#include "core/error.h"

namespace onnxrun {

FileBytes FileBytes::read(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) fail(ErrorKind::kIo, "{}: is a folder, not a file", path);
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), std::fclose);
  if (!f) fail(ErrorKind::kIo, "cannot open {}: {}", path, std::strerror(errno));
  FileBytes out;
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
