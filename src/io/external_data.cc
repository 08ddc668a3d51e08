#include "io/external_data.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <memory>
#include <set>

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"
#include "core/fail.h"
#include "io/safe_open.h"
#include "io/tensor_proto.h"
#include "onnx/onnx.pb.h"

namespace onnxrun {
namespace {

uint64_t parse_size(const std::string& key, const std::string& value) {
  // Digits only: no sign, no spaces, no hex; and small enough to be an off_t.
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
  const bool digits = !value.empty() && value.find_first_not_of("0123456789") == std::string::npos;
  if (!digits || ec != std::errc() || end != value.data() + value.size() || v > static_cast<uint64_t>(INT64_MAX))
    fail(ErrorKind::kSecurity, "external data {} '{}' is not a non-negative integer below 2^63", key, value);
  return v;
}

// A read-only mapping of part of a file, unmapped when the last tensor using it dies.
class Mapping {
 public:
  Mapping(void* base, size_t size) : base_(base), size_(size) {}
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;
  ~Mapping() { ::munmap(base_, size_); }

 private:
  void* base_;
  size_t size_;
};

}  // namespace

bool has_external_data(const onnx::TensorProto& proto) { return proto.data_location() == onnx::TensorProto::EXTERNAL; }

ExternalDataRef parse_external_data(const onnx::TensorProto& proto) {
  ExternalDataRef ref;
  bool have_location = false;
  std::set<std::string> seen;
  for (const auto& entry : proto.external_data()) {
    const std::string& key = entry.key();
    if (!seen.insert(key).second) fail(ErrorKind::kSecurity, "external data key '{}' is given twice", key);
    if (key == "location") {
      ref.location = entry.value();
      have_location = true;
    } else if (key == "offset") {
      ref.offset = parse_size(key, entry.value());
    } else if (key == "length") {
      ref.length = parse_size(key, entry.value());
    } else if (key == "checksum") {
      // Tolerated as ONNX defines it; a checksum protects against accidents, and
      // the range checks below already keep a wrong file from doing harm.
    } else {
      fail(ErrorKind::kSecurity, "unknown external data key '{}' (allowed: location, offset, length, checksum)", key);
    }
  }
  if (!have_location || ref.location.empty()) fail(ErrorKind::kSecurity, "external data has no location");
  return ref;
}

std::string external_data_file(const onnx::TensorProto& proto, const std::string& base_dir) {
  if (!has_external_data(proto)) return "";
  try {
    return (std::filesystem::path(base_dir) / parse_external_data(proto).location).string();
  } catch (const Error&) {
    return "";
  }
}

Tensor load_external_tensor(const onnx::TensorProto& proto, const std::string& base_dir) {
  const DType t = proto_dtype(proto);
  const Shape shape = proto_shape(proto);
  const size_t need = checked_nbytes(t, shape);
  if (proto.has_raw_data() || proto.float_data_size() || proto.double_data_size() || proto.int32_data_size() ||
      proto.int64_data_size() || proto.uint64_data_size() || proto.string_data_size())
    fail(ErrorKind::kInvalid, "tensor data is both external and in the file");
  const ExternalDataRef ref = parse_external_data(proto);
  if (base_dir.empty())
    fail(ErrorKind::kSecurity, "external data '{}' needs the model's folder, but the model was given as bytes",
         ref.location);

  const UniqueFd fd = open_beneath(base_dir, ref.location);
  struct stat st;
  if (::fstat(fd.get(), &st) != 0)
    fail(ErrorKind::kIo, "cannot read external data '{}': {}", ref.location, std::strerror(errno));
  const uint64_t file_size = static_cast<uint64_t>(st.st_size);
  if (ref.offset > file_size)
    fail(ErrorKind::kSecurity, "external data '{}': offset {} is past the end of the file ({} bytes)", ref.location,
         ref.offset, file_size);
  const uint64_t length = ref.length.value_or(file_size - ref.offset);
  if (length > file_size - ref.offset)
    fail(ErrorKind::kSecurity, "external data '{}': offset {} + length {} is past the end of the file ({} bytes)",
         ref.location, ref.offset, length, file_size);
  if (length != need)
    fail(ErrorKind::kInvalid, "external data '{}': length {} but {}{} needs {} bytes", ref.location, length,
         dtype_name(t), shape_to_string(shape), need);

  if (need == 0) return Tensor(t, shape);
  const size_t elem = dtype_size(t);
  if (ref.offset % elem != 0) {
    // A view would be misaligned for the element type: copy (pread, in pieces).
    Tensor out(t, shape);
    auto* dst = static_cast<char*>(out.mutable_raw());
    size_t done = 0;
    while (done < need) {
      const ssize_t n = ::pread(fd.get(), dst + done, need - done, static_cast<off_t>(ref.offset + done));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0)
        fail(ErrorKind::kIo, "cannot read external data '{}': {}", ref.location,
             n < 0 ? std::strerror(errno) : "file shrank");
      done += static_cast<size_t>(n);
    }
    return out;
  }
  // mmap wants a page-aligned offset: map from the page that holds the first byte.
  const uint64_t page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  const uint64_t start = ref.offset / page * page;
  const size_t map_size = static_cast<size_t>(ref.offset - start + need);
  void* base = ::mmap(nullptr, map_size, PROT_READ, MAP_PRIVATE, fd.get(), static_cast<off_t>(start));
  if (base == MAP_FAILED) fail(ErrorKind::kIo, "cannot map external data '{}': {}", ref.location, std::strerror(errno));
  auto mapping = std::make_shared<Mapping>(base, map_size);
  const auto* data = static_cast<const std::byte*>(base) + (ref.offset - start);
  // Bools are bytes (always aligned, so always here), and must be 0 or 1 as raw_data's are.
  if (t == DType::kBool) check_bools(data, need, 0, "external data '" + ref.location + "'");
  return Tensor(t, shape, Buffer::borrow(data, need, std::move(mapping), /*writable=*/false));
}

Tensor tensor_from_proto_in(const onnx::TensorProto& proto, const std::string& base_dir) {
  if (has_external_data(proto)) return load_external_tensor(proto, base_dir);
  if (proto.external_data_size() > 0)
    fail(ErrorKind::kInvalid, "tensor has external_data entries but data_location is not EXTERNAL");
  return tensor_from_proto(proto);
}

}  // namespace onnxrun
