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

// Human-readable, one fact per line. A real model has hundreds of initializers and nodes:
// unless `all`, initializer-backed inputs are only counted, and the initializer and node
// lists are only counted when longer than kShortList (the operator summary stands for them).
std::string describe_model_text(const Model& m, bool all = false);
constexpr size_t kShortList = 20;

// How the graph uses one operator: the quickest answer to "can it run?".
struct OperatorUse {
  std::string domain;  // as domain_label writes it
  std::string op_type;
  size_t nodes = 0;
  size_t unsupported = 0;             // nodes no version serves
  std::vector<std::string> versions;  // the version ranges serving the others, distinct, in node order
  std::string reason;                 // why not, from the first unsupported node
  bool invalid = false;               // that node is a fault of the model, not a gap in onnx-run
};
std::vector<OperatorUse> operator_uses(const Graph& g);  // by domain, then op_type
// Why the model cannot run, one line per operator (of operator_uses) with unsupported
// nodes, then one per problem of the graph itself (Graph::problems); empty when it can.
std::vector<std::string> not_runnable_because(const Graph& g, const std::vector<OperatorUse>& uses);
// Inputs that an initializer of the same name backs: constants, not something to feed.
bool has_initializer(const Graph& g, const ValueInfo& input);

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
