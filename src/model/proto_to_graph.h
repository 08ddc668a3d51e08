// ModelProto -> Model, field by field, with the structural checks that belong to
// reading (known types, well-formed attributes, unique names within each list).
// Graph-level checks (SSA, order, resolution) are validate.h's and resolve.h's.
#pragma once

#include <map>
#include <string>

#include "model/graph.h"

namespace onnx {
class ModelProto;
}

namespace onnxrun {

// `base_dir` is the folder external data is read from (io/external_data.h); empty for a
// model given as bytes without a folder, whose external data is then refused. `unread`:
// the initializers whose raw_data skim_model left out of `proto`, by name, as views.
Model model_from_proto(const onnx::ModelProto& proto, const std::string& base_dir = "",
                       const std::map<std::string, Tensor>* unread = nullptr);

}  // namespace onnxrun
