#include "io/raw_tensor_source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <memory>
#include <string_view>

#include "core/error.h"
#include "io/mapped_file.h"
#include "io/tensor_file.h"
#include "io/tensor_wire.h"

namespace onnxrun {
namespace {

bool has_extension(const std::string& path, std::string_view ext) {
  if (path.size() < ext.size()) return false;
  for (size_t k = 0; k < ext.size(); ++k)
    if (std::tolower(static_cast<unsigned char>(path[path.size() - ext.size() + k])) != ext[k]) return false;
  return true;
}

bool starts_with(const MappedFile& file, std::string_view magic) {
  return file.size() >= magic.size() && std::memcmp(file.data(), magic.data(), magic.size()) == 0;
}

}  // namespace

std::optional<RawTensorSource> open_raw_tensor(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;  // pipes cannot be reread
  // Only raw_data TensorProto files are streamed; any other format (.npy, .npz, text) is
  // left to the ordinary reader, which knows it, rather than judged as a malformed .pb.
  if (has_extension(path, ".npy") || has_extension(path, ".npz")) return std::nullopt;
  const std::shared_ptr<const MappedFile> file = MappedFile::open(path, /*prefault=*/false);
  if (starts_with(*file, "\x93NUMPY") || starts_with(*file, "PK")) return std::nullopt;
  std::optional<RawTensorLayout> raw;
  try {
    raw = find_raw_tensor(file->data(), file->size());
  } catch (const Error&) {
    return std::nullopt;  // not a TensorProto this scan reads: the full reader reports what it is
  }
  if (!raw) return std::nullopt;
  Tensor tensor;
  try {
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
