// Building small ONNX models in tests, through the same generated protobuf classes the
// loader reads. Defaults make a valid one-node LeakyRelu model; tests then break it.
#pragma once

#include <string>
#include <vector>

#include "onnx/onnx.pb.h"

namespace onnxrun::test {

// A model with opset `opset` of the default domain and IR version 8.
onnx::ModelProto make_model(int64_t opset);

// Adds a graph input/output declared with element type `elem` and `dims`
// (a dim < 0 is left unknown; use add_symbolic_* for named dims).
void add_input(onnx::ModelProto& m, const std::string& name, int elem, const std::vector<int64_t>& dims);
void add_output(onnx::ModelProto& m, const std::string& name, int elem, const std::vector<int64_t>& dims);
// Like add_input, with every dim named by the matching entry of `params` ("" = fixed dims[k]).
void add_symbolic_input(onnx::ModelProto& m, const std::string& name, int elem, const std::vector<std::string>& params);

onnx::NodeProto* add_node(onnx::ModelProto& m, const std::string& op, const std::vector<std::string>& inputs,
                          const std::vector<std::string>& outputs, const std::string& name = "");
void set_float_attr(onnx::NodeProto* n, const std::string& name, float v);
void set_int_attr(onnx::NodeProto* n, const std::string& name, int64_t v);

// x -> LeakyRelu -> y, both `elem` with dims {2,3}.
onnx::ModelProto leaky_relu_model(int64_t opset, int elem = onnx::TensorProto::FLOAT);

std::string save_model(const onnx::ModelProto& m, const std::string& path);  // returns path

}  // namespace onnxrun::test
