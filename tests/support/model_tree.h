// Small model trees made on the fly for tests of `onnx-run test`: LeakyRelu models in
// the ONNX test layouts, with right or deliberately wrong expected outputs, models
// using an op onnx-run lacks, and files that are not models at all.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace onnxrun::test {

// dir/model.onnx: y = LeakyRelu(x, alpha) over float[n] (opset 16, ir 8); with
// `x_initializer` the input is a constant initializer instead (no graph input).
void write_leaky_model(const std::string& path, float alpha, const std::vector<float>& x_initializer = {});
// y = LeakyRelu(x) at `opset` with x, y of ONNX element type `elem_type` (shape [4]).
void write_leaky_model_typed(const std::string& path, int64_t opset, int elem_type);
// dir/model.onnx with one node of op `op_type` (which onnx-run does not implement).
void write_unknown_op_model(const std::string& path, const std::string& op_type);
// A float[n] tensor file.
void write_float_tensor(const std::string& path, const std::vector<float>& values, const std::string& name = "");
// LeakyRelu(v, alpha) as the definition computes it in float.
std::vector<float> leaky(const std::vector<float>& v, float alpha);

// dir/model.onnx (LeakyRelu, alpha 0.1) and dir/test_data_set_0/{input_0,output_0}.pb;
// `scale` multiplies the expected output (1 = right, anything else = a mismatch).
void write_leaky_test(const std::string& dir, float scale = 1.0f);

void write_text_file(const std::string& path, const std::string& text);

}  // namespace onnxrun::test
