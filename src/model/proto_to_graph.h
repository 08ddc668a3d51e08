// ModelProto -> Model, field by field, with the structural checks that belong to
// reading (known types, well-formed attributes, unique names within each list).
// Graph-level checks (SSA, order, resolution) are validate.h's and resolve.h's.
#pragma once

#include <string>

#include "model/graph.h"

namespace onnx {
class ModelProto;
}

namespace onnxrun {

// `base_dir` is the folder external data is read from (io/external_data.h); empty for a
// model given as bytes without a folder, whose external data is then refused.
Model model_from_proto(const onnx::ModelProto& proto, const std::string& base_dir = "");

}  // namespace onnxrun
