// Loading a model: ModelProto bytes -> a validated, sorted, resolved Graph.
// Every failure is an Error whose message starts with what was being loaded.
#pragma once

#include <cstddef>
#include <string>

#include "model/graph.h"
#include "model/known_versions.h"

namespace onnxrun {

class OpRegistry;

struct LoadOptions {
  const OpRegistry* registry = nullptr;  // null: OpRegistry::builtin()
  // Run operators that ONNX defines by a function body (LeakyRelu-16) through that
  // body instead of their fused kernel (schema_functions.h).
  bool expand_schema_functions = false;
  // For describing a model rather than running it (`onnx-run info`): a node no version
  // serves, and model-local functions, are recorded (Node::unsupported) instead of
  // refused. A graph loaded so must not be given to an Executor.
  bool keep_unsupported = false;
  // For describing too: initializers that keep kUnreadTensorBytes or more in raw_data
  // are not read but mapped, their pages never touched (skim_model.h), so describing a
  // large model costs memory for its structure alone. Their views need not be aligned for
  // their element type: only a graph loaded with keep_unsupported may be loaded so.
  bool leave_tensor_data_unread = false;
};

inline constexpr size_t kUnreadTensorBytes = size_t{64} << 10;

Model load_model(const std::string& path, const LoadOptions& options = {});

// protobuf reads one message of at most INT_MAX bytes (its sizes are int). Throws
// Error(kUnsupported) for a model of more `bytes` than that, before any cast to int.
void check_model_size(size_t bytes);

// `base_dir` is where external data would be looked for.
Model load_model_from_bytes(const void* data, size_t size, const std::string& base_dir,
                            const LoadOptions& options = {});

}  // namespace onnxrun
