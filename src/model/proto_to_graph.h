// ModelProto -> Model, field by field, with the structural checks that belong to
// reading (known types, well-formed attributes, unique names within each list).
// Graph-level checks (SSA, order, resolution) are validate.h's and resolve.h's.
#pragma once

#include "model/graph.h"

namespace onnx {
class ModelProto;
}

namespace onnxrun {

Model model_from_proto(const onnx::ModelProto& proto);

}  // namespace onnxrun
