// Building small ONNX models and tensor files in tests (and fuzz seeds) through the
// generated onnx_proto messages, so that no model file needs to be committed and each
// bad input is made by one visible edit of a good one.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "onnx/onnx.pb.h"

namespace onnxrun::test {

// A ValueInfoProto declaring a tensor of ONNX element type `elem` with fixed `dims`.
void declare(onnx::ValueInfoProto* v, const std::string& name, int32_t elem, const std::vector<int64_t>& dims);

// IR 8, one default-domain import of `opset`, graph input X and output Y (both `elem`
// with `dims`), one LeakyRelu node X -> Y (alpha unset: the default 0.01).
onnx::ModelProto leaky_relu_model(int64_t opset = 16, int32_t elem = onnx::TensorProto::FLOAT,
                                  const std::vector<int64_t>& dims = {3});

// A float tensor with its values in raw_data.
onnx::TensorProto float_tensor(const std::string& name, const std::vector<int64_t>& dims,
                               const std::vector<float>& values);

// Little-endian bytes of `values`, as raw_data and external data hold them.
std::string float_bytes(const std::vector<float>& values);

// Marks `t` external with the given key/value pairs (and drops its raw_data).
void make_external(onnx::TensorProto* t, const std::vector<std::pair<std::string, std::string>>& keys);

void write_file(const std::string& path, const std::string& bytes);
void write_message(const std::string& path, const google::protobuf::MessageLite& m);
std::string read_file(const std::string& path);

}  // namespace onnxrun::test
