#include "io/raw_tensor_source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

#include "core/error.h"
#include "io/mapped_file.h"
#include "io/tensor_file.h"
#include "io/tensor_wire.h"

namespace onnxrun {

std::optional<RawTensorSource> open_raw_tensor(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;  // pipes cannot be reread
  const std::shared_ptr<const MappedFile> file = MappedFile::open(path, /*prefault=*/false);
  std::optional<RawTensorLayout> raw;
  Tensor tensor;
  try {
    raw = find_raw_tensor(file->data(), file->size());
    if (!raw) return std::nullopt;
    tensor = raw_layout_tensor(file, *raw);
  } catch (const Error& e) {
    throw e.with_context(path);
  }
  if (tensor.buffer()->writable()) return std::nullopt;  // copied (misaligned): read already
  const size_t data_offset = raw->raw_offset;
  const int raw_fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (raw_fd < 0) fail(ErrorKind::kIo, "cannot open {}: {}", path, std::strerror(errno));
  auto fd = std::shared_ptr<int>(new int(raw_fd), [](int* p) {
    ::close(*p);
    delete p;
  });
  RawTensorSource src;
  src.name = raw->name;
  src.tensor = tensor;
  src.read = [fd, path, data_offset](size_t offset, void* dst, size_t n) {
    auto* out = static_cast<char*>(dst);
    while (n > 0) {
      const ssize_t got = ::pread(*fd, out, n, static_cast<off_t>(data_offset + offset));
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) fail(ErrorKind::kIo, "cannot read {}: {}", path, got < 0 ? std::strerror(errno) : "file shrank");
      out += got;
      offset += static_cast<size_t>(got);
      n -= static_cast<size_t>(got);
    }
  };
  return src;
}

}  // namespace onnxrun
