#include "model/load.h"

#include <climits>
#include <filesystem>

#include <google/protobuf/io/coded_stream.h>

#include "core/error.h"
#include "core/fail.h"
#include "core/log.h"
#include "core/memory_limit.h"
#include "io/file_bytes.h"
#include "model/inline_functions.h"
#include "model/proto_to_graph.h"
#include "model/resolve.h"
#include "model/schema_functions.h"
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

Model load_model_from_bytes(const void* data, size_t size, const std::string& base_dir, const LoadOptions& options) {
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
  Model m = model_from_proto(proto, base_dir);
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
  const FileBytes bytes = FileBytes::read(path);
  // Parsing makes a second copy of the file (the message, initializers' data included)
  // while the bytes are held: counted before it is made, so a model that cannot fit is
  // refused at the limit, not after the memory is spent.
  const MemoryReservation parsed(bytes.size(), path + " (parsed)");
  try {
    const std::string dir = std::filesystem::path(path).parent_path().string();
    return load_model_from_bytes(bytes.data(), bytes.size(), dir.empty() ? "." : dir, options);
  } catch (const Error& e) {
    throw e.with_context(path);
  }
}

}  // namespace onnxrun
