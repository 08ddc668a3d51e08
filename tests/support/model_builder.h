// Building small ONNX models and tensor files in tests (and fuzz seeds) with protobuf's
// own API, so a test states the exact model it loads (nodes, functions, opset imports)
// without files in testdata/, and each bad input is one visible edit of a good one.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/tensor.h"
#include "onnx/onnx.pb.h"

namespace onnxrun::test {

// A node; attributes are added with the helpers below.
onnx::NodeProto make_node(const std::string& op_type, std::vector<std::string> inputs, std::vector<std::string> outputs,
                          const std::string& domain = "", const std::string& name = "");
void add_float_attr(onnx::NodeProto& n, const std::string& name, float v);
void add_int_attr(onnx::NodeProto& n, const std::string& name, int64_t v);
void add_tensor_attr(onnx::NodeProto& n, const std::string& name, const onnx::TensorProto& t);
// An attribute that takes its value from the calling node's attribute `ref` (in a function body).
void add_ref_attr(onnx::NodeProto& n, const std::string& name, const std::string& ref,
                  onnx::AttributeProto::AttributeType type);

// A graph input or output of element type `elem` (ONNX code); a dim < 0 is left unknown.
void add_value(google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>* list, const std::string& name, int elem,
               const std::vector<int64_t>& dims);
void add_input(onnx::ModelProto& m, const std::string& name, int elem, const std::vector<int64_t>& dims);
void add_output(onnx::ModelProto& m, const std::string& name, int elem, const std::vector<int64_t>& dims);
// An input whose every dim is the named symbol in `params`.
void add_symbolic_input(onnx::ModelProto& m, const std::string& name, int elem, const std::vector<std::string>& params);

// Appends a node to the model's graph and returns it for attributes.
onnx::NodeProto* add_node(onnx::ModelProto& m, const std::string& op, const std::vector<std::string>& inputs,
                          const std::vector<std::string>& outputs, const std::string& name = "");

// x -> LeakyRelu (node 'leaky') -> y, both `elem` with dims {2,3}.
onnx::ModelProto leaky_relu_model(int64_t opset, int elem = onnx::TensorProto::FLOAT);

// A model of IR 10 importing ai.onnx at `opset` (plus `extra` domains at version 1).
onnx::ModelProto make_model(int64_t opset, const std::vector<std::string>& extra_domains = {});

// A function of `domain`/`name` importing ai.onnx at `opset`.
onnx::FunctionProto make_function(const std::string& domain, const std::string& name, std::vector<std::string> inputs,
                                  std::vector<std::string> outputs, int64_t opset);
// Adds an attribute with a default (FunctionProto.attribute_proto, field 11, IR 9+),
// written as an unknown field: the onnx.proto this build compiles predates it.
void add_function_attr_default_float(onnx::FunctionProto& f, const std::string& name, float v);

std::string serialize(const onnx::ModelProto& m);
std::string save_model(const onnx::ModelProto& m, const std::string& path);  // returns path

// A ValueInfoProto declaring a tensor of ONNX element type `elem` with `dims`, written
// as given (a negative dim stays negative, for tests of bad models).
void declare(onnx::ValueInfoProto* v, const std::string& name, int32_t elem, const std::vector<int64_t>& dims);

// As make_model: one default-domain import of `opset`, graph input X and output Y (both `elem`
// with `dims`), one LeakyRelu node X -> Y (alpha unset: the default 0.01).
onnx::ModelProto leaky_relu_xy_model(int64_t opset = 16, int32_t elem = onnx::TensorProto::FLOAT,
                                     const std::vector<int64_t>& dims = {3});

// A float tensor with its values in raw_data.
onnx::TensorProto float_tensor(const std::string& name, const std::vector<int64_t>& dims,
                               const std::vector<float>& values);

// Little-endian bytes of `values`, as raw_data and external data hold them.
std::string float_bytes(const std::vector<float>& values);

// Marks `t` external with the given key/value pairs (and drops its raw_data).
// `t` as a TensorProto named `name`, its data in raw_data.
void tensor_to_proto(const Tensor& t, const std::string& name, onnx::TensorProto* proto);

void make_external(onnx::TensorProto* t, const std::vector<std::pair<std::string, std::string>>& keys);

void write_file(const std::string& path, const std::string& bytes);
void write_message(const std::string& path, const google::protobuf::MessageLite& m);
std::string read_file(const std::string& path);

}  // namespace onnxrun::test
