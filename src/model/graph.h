// The model as onnx-run holds it after loading: plain C++ values, no protobuf.
// A Graph is validated (SSA names, every input produced, acyclic), its nodes are in
// topological order, and every node is resolved to the operator version that runs it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/attribute.h"
#include "core/dtype.h"
#include "core/error.h"
#include "core/tensor.h"

namespace onnxrun {

struct OpDef;

// One dimension of a declared shape: fixed (value >= 0), symbolic (param), or unknown.
struct Dim {
  int64_t value = -1;
  std::string param;
  bool fixed() const { return value >= 0; }
};

struct ValueInfo {
  std::string name;
  std::optional<DType> dtype;             // nullopt: not declared
  std::optional<std::vector<Dim>> shape;  // nullopt: rank unknown
};

// "float[N,3,?]"
std::string describe(const ValueInfo& v);
// Whether `s` is a shape `v` declares: true when no shape is declared; else the rank and
// every fixed dim as declared (a symbolic or unknown dim takes any size).
bool shape_fits(const ValueInfo& v, const Shape& s);

struct Node {
  std::string name;  // may be empty in the file; the loader names it "#k" then
  std::string op_type;
  std::string domain;               // canonical: "" for ai.onnx
  std::vector<std::string> inputs;  // "" = absent optional input
  std::vector<std::string> outputs;
  AttributeMap attrs;
  std::string overload;  // IR 10+: picks one of several model functions of one name
  // (canonical domain, op_type) of every node inside its GRAPH and GRAPHS attributes (an
  // If's branches, a Loop's body), nested ones too: nothing runs them, and verify says
  // which of them it leaves unchecked.
  std::vector<std::pair<std::string, std::string>> subgraph_ops;

  // Set by resolution (or, for nodes inlined from a function, opset by the inliner).
  const OpDef* op = nullptr;
  int64_t opset = 0;  // the import for this node's domain: the model's, or its function's
  // Why the node cannot run (no version serves it, it is invalid, or it has an attribute
  // of a type onnx-run reads nowhere); then `op` is null and the graph cannot run. Kept
  // only when loaded with LoadOptions::keep_unsupported (otherwise the load throws the
  // first node's). An unsupported problem carries its Cause (core/error.h).
  std::optional<Error> problem;

  // "node 'y' (LeakyRelu)", the context every node error starts with.
  std::string label() const;
};

struct Graph {
  std::string name;
  std::vector<ValueInfo> inputs;  // as declared, including those backed by initializers
  std::vector<ValueInfo> outputs;
  // What the file declares of values inside the graph (ONNX's value_info), where it can be
  // read: verify takes a value's element type from it where no operator here gives one.
  // Running ignores it.
  std::vector<ValueInfo> value_info;
  std::map<std::string, Tensor> initializers;
  std::vector<Node> nodes;                       // topological order
  std::map<std::string, int64_t> opset_imports;  // canonical domain -> version
  // Loaded with LoadOptions::keep_unsupported: what makes the model invalid beyond its
  // nodes' own problems ("graph output 'y' is declared double but computed as float"),
  // which a load without it throws.
  std::vector<std::string> problems;

  // Inputs a caller must feed: declared inputs with no initializer, in order.
  std::vector<const ValueInfo*> required_inputs() const;
  const ValueInfo* find_input(const std::string& value) const;
  // The outputs' names, in order.
  std::vector<std::string> output_names() const;
};

struct ModelMeta {
  int64_t ir_version = 0;
  std::string producer_name;
  std::string producer_version;
  std::string domain;
  int64_t model_version = 0;
  std::string doc;
};

// A model-local function (ModelProto.functions) as read from the file. Calls to it are
// inlined at load (inline_functions.h); its nodes keep ref_attr_name attributes.
struct Function {
  std::string domain;  // canonical
  std::string name;
  std::string overload;
  std::vector<std::string> inputs;  // formal names, bound by position
  std::vector<std::string> outputs;
  std::vector<std::string> attributes;  // declared without a default
  AttributeMap attribute_defaults;      // IR 9+: declared with a default
  std::vector<Node> nodes;
  std::map<std::string, int64_t> opset_imports;  // canonical domain -> version

  // "function 'Name' (domain d)"
  std::string label() const;
};

struct Model {
  ModelMeta meta;
  Graph graph;
  std::vector<Function> functions;
  // The files its initializers' external data was read from, once each: files the run
  // reads, which its output files must not replace.
  std::vector<std::string> data_files;
};

}  // namespace onnxrun
