#include "io/tensor_file.h"

#include <algorithm>
#include <cstring>
#include <filesystem>

#include <google/protobuf/io/coded_stream.h>

#include "core/error.h"
#include "core/fail.h"
#include "io/external_data.h"
#include "io/mapped_file.h"
#include "io/tensor_proto.h"
#include "io/tensor_wire.h"
#include "onnx/onnx.pb.h"

namespace onnxrun {
namespace {

// TensorProto without raw_data, then field 9 (raw_data, length-delimited) by hand:
// protobuf readers accept fields in any order, so this is a valid TensorProto.
std::string header_bytes(DType dtype, const Shape& shape, size_t nbytes, const std::string& name) {
  onnx::TensorProto header;
  header.set_name(name);
  header.set_data_type(static_cast<int32_t>(dtype));
  for (int64_t d : shape) header.add_dims(d);
  std::string out = header.SerializeAsString();
  constexpr uint8_t kRawDataTag = (9 << 3) | 2;
  out.push_back(static_cast<char>(kRawDataTag));
  uint64_t len = nbytes;
  do {
    uint8_t byte = len & 0x7f;
    len >>= 7;
    if (len) byte |= 0x80;
    out.push_back(static_cast<char>(byte));
  } while (len);
  return out;
}

}  // namespace

std::string tensor_file_header(DType dtype, const Shape& shape, const std::string& name) {
  return header_bytes(dtype, shape, checked_nbytes(dtype, shape), name);
}

std::pair<DType, Shape> raw_layout_type(const RawTensorLayout& raw) {
  const auto t = dtype_from_onnx(raw.data_type);
  if (!t) fail(ErrorKind::kInvalid, "unknown data_type {}", raw.data_type);
  if (!dtype_is_storable(*t))
    fail_unsupported(Cause{Cause::Kind::kType, "", "", 0, std::string(dtype_name(*t)), ""},
                     "tensors of type {} are not supported", dtype_name(*t));
  Shape shape(raw.dims.begin(), raw.dims.end());
  const size_t nbytes = checked_nbytes(*t, shape);
  if (raw.raw_size != nbytes)
    fail(ErrorKind::kInvalid, "raw_data holds {} bytes but {}{} needs {}", raw.raw_size, dtype_name(*t),
         shape_to_string(shape), nbytes);
  return {*t, std::move(shape)};
}

// Straight from the mapping when the bytes are aligned for the element type (the mapping
// is page aligned, so that is the offset in the file), else one copy.
Tensor raw_layout_tensor(const std::shared_ptr<const MappedFile>& file, const RawTensorLayout& raw) {
  std::pair<DType, Shape> type = raw_layout_type(raw);
  const DType t = type.first;
  const size_t nbytes = raw.raw_size;
  const char* data = file->data() + raw.raw_offset;
  if (t == DType::kBool) check_bools(data, nbytes, 0, "");
  const size_t align = std::min<size_t>(dtype_size(t), 8);
  if (nbytes > 0 && reinterpret_cast<uintptr_t>(data) % align == 0)
    return Tensor(t, std::move(type.second), Buffer::borrow(data, nbytes, file, false));
  Tensor out(t, std::move(type.second));
  if (nbytes) std::memcpy(out.mutable_raw(), data, nbytes);
  return out;
}

namespace {

// A tensor file that is not raw_data alone (typed data fields, segments, external data),
// parsed by protobuf (up to 2 GiB).
onnx::TensorProto parse_tensor_file(const MappedFile& file, const std::string& path) {
  if (file.size() > static_cast<size_t>(INT32_MAX))
    fail(ErrorKind::kUnsupported,
         "{}: larger than the 2 GiB a protobuf message can hold (only raw_data tensors can be)", path);
  onnx::TensorProto proto;
  google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(file.data()),
                                            static_cast<int>(file.size()));
  in.SetTotalBytesLimit(INT32_MAX);
  if (!proto.ParseFromCodedStream(&in) || !in.ConsumedEntireMessage())
    fail(ErrorKind::kInvalid, "{}: not a valid TensorProto file", path);
  // Protobuf accepts many byte strings as a message; a tensor file must at least say its type.
  if (proto.data_type() == 0) fail(ErrorKind::kInvalid, "{}: not a valid TensorProto file (no data_type)", path);
  return proto;
}

// External data is looked for beside the .pb file, under the same rules as a model's.
std::string folder_of(const std::string& path) {
  const std::string dir = std::filesystem::path(path).parent_path().string();
  return dir.empty() ? "." : dir;
}

}  // namespace

NamedTensor read_tensor_file(const std::string& path) {
  const std::shared_ptr<const MappedFile> file = MappedFile::open(path);
  try {
    if (auto raw = find_raw_tensor(file->data(), file->size())) return {raw->name, raw_layout_tensor(file, *raw)};
  } catch (const Error& e) {
    throw e.with_context(path);
  }
  const onnx::TensorProto proto = parse_tensor_file(*file, path);
  try {
    return {proto.name(), tensor_from_proto_in(proto, folder_of(path))};
  } catch (const Error& e) {
    throw e.with_context(path);
  }
}

std::string tensor_file_data_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return "";  // a FIFO or stdin is read once, by the run
  try {
    const std::shared_ptr<const MappedFile> file = MappedFile::open(path);
    if (find_raw_tensor(file->data(), file->size())) return "";
    return external_data_file(parse_tensor_file(*file, path), folder_of(path));
  } catch (const Error&) {
    return "";  // reading it for the run reports what is wrong
  }
}

}  // namespace onnxrun
