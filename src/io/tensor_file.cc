#include "io/tensor_file.h"

#include <filesystem>

#include <google/protobuf/io/coded_stream.h>

#include "core/error.h"
#include "io/atomic_file.h"
#include "io/external_data.h"
#include "io/file_bytes.h"
#include "io/tensor_proto.h"
#include "onnx/onnx.pb.h"

namespace onnxrun {
namespace {

// TensorProto without raw_data, then field 9 (raw_data, length-delimited) by hand:
// protobuf readers accept fields in any order, so this is a valid TensorProto.
std::string header_bytes(const Tensor& t, const std::string& name) {
  onnx::TensorProto header;
  header.set_name(name);
  header.set_data_type(static_cast<int32_t>(t.dtype()));
  for (int64_t d : t.shape()) header.add_dims(d);
  std::string out = header.SerializeAsString();
  constexpr uint8_t kRawDataTag = (9 << 3) | 2;
  out.push_back(static_cast<char>(kRawDataTag));
  uint64_t len = t.nbytes();
  do {
    uint8_t byte = len & 0x7f;
    len >>= 7;
    if (len) byte |= 0x80;
    out.push_back(static_cast<char>(byte));
  } while (len);
  return out;
}

}  // namespace

NamedTensor read_tensor_file(const std::string& path) {
  const FileBytes bytes = FileBytes::read(path);
  onnx::TensorProto proto;
  google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(bytes.data()),
                                            static_cast<int>(bytes.size()));
  in.SetTotalBytesLimit(INT32_MAX);
  if (!proto.ParseFromCodedStream(&in) || !in.ConsumedEntireMessage())
    fail(ErrorKind::kInvalid, "{}: not a valid TensorProto file", path);
  try {
    // External data is looked for beside the .pb file, under the same rules as a model's.
    const std::string dir = std::filesystem::path(path).parent_path().string();
    return {proto.name(), tensor_from_proto_in(proto, dir.empty() ? "." : dir)};
  } catch (const Error& e) {
    throw e.with_context(path);
  }
}

std::string serialize_tensor(const Tensor& t, const std::string& name) {
  std::string out = header_bytes(t, name);
  out.append(static_cast<const char*>(t.raw()), t.nbytes());
  return out;
}

void write_tensor_file(const std::string& path, const Tensor& t, const std::string& name) {
  const std::string header = header_bytes(t, name);
  write_file_atomically(path, [&](std::FILE* f) {
    write_bytes(f, header.data(), header.size(), path);
    write_bytes(f, t.raw(), t.nbytes(), path);
  });
}

}  // namespace onnxrun
