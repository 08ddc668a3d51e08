#include "model/load.h"

#include <climits>
#include <filesystem>

#include <google/protobuf/io/coded_stream.h>
#include <spdlog/spdlog.h>

#include "core/error.h"
#include "io/file_bytes.h"
#include "model/inline_functions.h"
#include "model/proto_to_graph.h"
#include "model/resolve.h"
#include "model/schema_functions.h"
#include "model/validate.h"
#include "onnx/onnx.pb.h"
#include "ops/registry.h"

namespace onnxrun {

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
  if (size == 0 || !proto.ParseFromCodedStream(&in) || !in.ConsumedEntireMessage())
    fail(ErrorKind::kInvalid, "not a valid ONNX model (protobuf parse failed)");
  if (proto.ir_version() <= 0) fail(ErrorKind::kInvalid, "not a valid ONNX model (no ir_version)");
  if (proto.ir_version() > kNewestKnownIrVersion)
    spdlog::warn("IR version {} is newer than the newest onnx-run knows ({})", proto.ir_version(),
                 kNewestKnownIrVersion);
  Model m = model_from_proto(proto, base_dir);
  if (options.keep_unsupported) {
    // Describing, not running: a function that cannot be inlined leaves its calls in
    // the graph, where resolution records them as unsupported.
    try {
      inline_functions(m);
    } catch (const Error& e) {
      spdlog::warn("local functions not inlined: {}", e.what());
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
  const uintmax_t size = std::filesystem::is_regular_file(path, ec) ? std::filesystem::file_size(path, ec) : 0;
  try {
    if (!ec) check_model_size(static_cast<size_t>(size));  // before reading 2 GiB for nothing
  } catch (const Error& e) {
    throw e.with_context(path);
  }
  const FileBytes bytes = FileBytes::read(path, /*regular_only=*/true);
  try {
    const std::string dir = std::filesystem::path(path).parent_path().string();
    return load_model_from_bytes(bytes.data(), bytes.size(), dir.empty() ? "." : dir, options);
  } catch (const Error& e) {
    throw e.with_context(path);
  }
}

}  // namespace onnxrun
