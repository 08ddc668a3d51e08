// What a model is and how onnx-run resolves it, for `onnx-run info`: metadata, opset
// imports, inputs and outputs, initializers with their sizes, each node with the
// operator version serving it (or why none does), and model-local functions.
// Works on models loaded with LoadOptions::keep_unsupported, so a model onnx-run cannot
// run can still be described.
#pragma once

#include <string>

#include "model/graph.h"

namespace onnxrun {

// Human-readable, one fact per line.
std::string describe_model_text(const Model& m);

// One JSON object, indented by 2, keys in this order:
// {"ir_version", "producer_name", "producer_version", "domain", "model_version",
//  "opset_imports": {domain: version}, "inputs"/"outputs": [{"name","type","shape"}],
//  "initializers": [{"name","type","shape","bytes"}], "initializer_bytes",
//  "nodes": [{"name","op_type","domain","opset","supported",
//             "resolved_version","version_range"|"reason", "inputs","outputs"}],
//  "functions": [{"domain","name","inputs","outputs","attributes","body_ops"}],
//  "runnable"}. A shape is a list whose items are numbers (fixed), strings (symbolic)
//  or null (unknown); null for an unknown rank. "type" is null when not declared.
//  Bytes of the model's strings that are not valid UTF-8 are written as U+FFFD.
std::string describe_model_json(const Model& m);

}  // namespace onnxrun
