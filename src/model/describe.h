// What a model is and how onnx-run resolves it, for `onnx-run info`: metadata, opset
// imports, inputs and outputs, initializers with their sizes, each node with the
// operator version serving it (or why none does), and model-local functions.
// Works on models loaded with LoadOptions::keep_unsupported, so a model onnx-run cannot
// run can still be described. The JSON form is info_json (suite/json_documents.h).
#pragma once

#include <string>
#include <vector>

#include "model/graph.h"

namespace onnxrun {

// Human-readable, one fact per line.
std::string describe_model_text(const Model& m);

// The facts the text and the JSON description (suite/json_documents.h, info_json) share.
std::string domain_label(const std::string& domain);  // "" -> "ai.onnx"
// A fault of the model (a required input named '', say), not a gap in onnx-run.
bool node_is_invalid(const Node& n);
// Why no version serves `n`, without the "node 'x' (Op): " that starts every node error.
std::string node_problem_reason(const Node& n);
std::vector<std::string> function_body_ops(const Function& f);         // in order
std::vector<std::string> function_attribute_names(const Function& f);  // with or without a default
size_t initializer_bytes(const Graph& g);
size_t unsupported_node_count(const Graph& g);

}  // namespace onnxrun
