#include "model/load.h"

#include <climits>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <utility>

#include <google/protobuf/io/coded_stream.h>

#include "core/error.h"
#include "core/fail.h"
#include "core/log.h"
#include "core/memory_limit.h"
#include "core/tensor.h"
#include "io/file_bytes.h"
#include "io/mapped_file.h"
#include "io/tensor_file.h"
#include "model/inline_functions.h"
#include "model/proto_to_graph.h"
#include "model/resolve.h"
#include "model/schema_functions.h"
#include "model/skim_model.h"
#include "model/validate.h"
#include "onnx/onnx.pb.h"
#include "ops/registry.h"

namespace onnxrun {

// A TensorProto given where a model goes: its dims (field 1) read as a ModelProto's
// ir_version, so it "parses" into a model with a huge IR version and no graph.
bool is_tensor_file(const void* data, size_t size) {
  onnx::TensorProto t;
  if (!t.ParseFromArray(data, static_cast<int>(size))) return false;
  return t.data_type() > 0 && (t.has_raw_data() || t.float_data_size() || t.int64_data_size() || t.int32_data_size() ||
                               t.double_data_size() || t.dims_size());
}

void check_model_size(size_t bytes) {
  if (bytes > static_cast<size_t>(INT_MAX))
    fail(ErrorKind::kUnsupported,
         "model file is {} bytes; protobuf cannot parse a ModelProto over 2 GiB ({} bytes): keep large tensors in "
         "external data",
         bytes, INT_MAX);
}

namespace {

// load_model_from_bytes, with the initializers that skim_model lifted out of the bytes
// given as views (`unread`, null when none were).
Model load_from_bytes(const void* data, size_t size, const std::string& base_dir, const LoadOptions& options,
                      const std::map<std::string, Tensor>* unread) {
  check_model_size(size);
  onnx::ModelProto proto;
  google::protobuf::io::CodedInputStream in(static_cast<const uint8_t*>(data), static_cast<int>(size));
  in.SetTotalBytesLimit(INT_MAX);
  const bool parsed = size > 0 && proto.ParseFromCodedStream(&in) && in.ConsumedEntireMessage();
  if ((!parsed || !proto.has_graph()) && is_tensor_file(data, size))
    fail(ErrorKind::kInvalid, "a tensor (TensorProto) file, not a model: give it to a model as an input with -i");
  if (!parsed) fail(ErrorKind::kInvalid, "not a valid ONNX model (protobuf parse failed)");
  if (proto.ir_version() <= 0) fail(ErrorKind::kInvalid, "not a valid ONNX model (no ir_version)");
  if (proto.ir_version() > kNewestKnownIrVersion)
    log::warn("IR version {} is newer than the newest onnx-run knows ({})", proto.ir_version(), kNewestKnownIrVersion);
  Model m = model_from_proto(proto, base_dir, unread);
  if (options.keep_unsupported) {
    // Describing, not running: a function that cannot be inlined leaves its calls in
    // the graph, where resolution records them as unsupported.
    try {
      inline_functions(m);
    } catch (const Error& e) {
      log::warn("local functions not inlined: {}", e.what());
    }
  } else {
    inline_functions(m);
  }
  validate_and_sort(m.graph);
  const OpRegistry& registry = options.registry ? *options.registry : OpRegistry::builtin();
  resolve_graph(m.graph, registry, options.keep_unsupported);
  if (options.expand_schema_functions && expand_schema_functions(m.graph) > 0)
    resolve_graph(m.graph, registry, options.keep_unsupported);
  return m;
}

// The model at `path` without reading the data of its large initializers
// (LoadOptions::leave_tensor_data_unread): the file mapped, not read; its ModelProto
// skimmed of that data, which stays in the mapping as the initializers' views. None when
// the file is not wire format along the way: reading and parsing it whole refuses it
// with the usual words.
std::optional<Model> load_leaving_data_unread(const std::string& path, const std::string& dir,
                                              const LoadOptions& options) {
  const std::shared_ptr<const MappedFile> file = MappedFile::open(path, /*prefault=*/false);
  SkimmedModel skimmed;
  std::map<std::string, Tensor> unread;
  try {
    skimmed = skim_model(file->data(), file->size(), kUnreadTensorBytes);
    for (const auto& [name, raw] : skimmed.lifted) {
      std::pair<DType, Shape> type;
      try {
        type = raw_layout_type(raw);
      } catch (const Error& e) {
        throw e.with_context(fmt::format("initializer '{}'", name));
      }
      unread.emplace(name, Tensor(type.first, std::move(type.second),
                                  Buffer::borrow(file->data() + raw.raw_offset, raw.raw_size, file, false)));
    }
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::kInvalid && unread.empty()) return std::nullopt;
    throw e.with_context(path);
  }
  const MemoryReservation parsed(skimmed.bytes.size(), path + " (parsed)");
  try {
    return load_from_bytes(skimmed.bytes.data(), skimmed.bytes.size(), dir, options, &unread);
  } catch (const Error& e) {
    throw e.with_context(path);
  }
}

}  // namespace

Model load_model_from_bytes(const void* data, size_t size, const std::string& base_dir, const LoadOptions& options) {
  return load_from_bytes(data, size, base_dir, options, nullptr);
}

Model load_model(const std::string& path, const LoadOptions& options) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    // The common mistake: the model's folder for the model.
    const std::string inside = (std::filesystem::path(path) / "model.onnx").string();
    if (std::filesystem::is_regular_file(inside, ec))
      fail(ErrorKind::kIo, "{} is a folder; its model is {}", path, inside);
    fail(ErrorKind::kIo,
         "{} is a folder, not a model: `onnx-run test {}` runs the model tests under it, `onnx-run MODEL -d {}` one "
         "test set",
         path, path, path);
  }
  const uintmax_t size = std::filesystem::is_regular_file(path, ec) ? std::filesystem::file_size(path, ec) : 0;
  try {
    if (!ec) check_model_size(static_cast<size_t>(size));  // before reading 2 GiB for nothing
  } catch (const Error& e) {
    throw e.with_context(path);
  }
  const std::string dir = std::filesystem::path(path).parent_path().string();
  if (options.leave_tensor_data_unread && options.keep_unsupported)
    if (std::optional<Model> m = load_leaving_data_unread(path, dir.empty() ? "." : dir, options)) return std::move(*m);
  const FileBytes bytes = FileBytes::read(path);
  // Parsing makes a second copy of the file (the message, initializers' data included)
  // while the bytes are held: counted before it is made, so a model that cannot fit is
  // refused at the limit, not after the memory is spent.
  const MemoryReservation parsed(bytes.size(), path + " (parsed)");
  try {
    return load_model_from_bytes(bytes.data(), bytes.size(), dir.empty() ? "." : dir, options);
  } catch (const Error& e) {
    throw e.with_context(path);
  }
}

}  // namespace onnxrun
