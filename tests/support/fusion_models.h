// Models for the tests of plan-time fusion (exec/executor.h, model/recognise_functions.h):
// LeakyRelu-16 written out as its function body, the exporters' Where(X < 0, X * a, X),
// and chains of LeakyRelus, each over a 1-D input x of `n` elements (n < 0: symbolic "N")
// and output y of ONNX element type `elem`.
#pragma once

#include <cstdint>
#include <vector>

#include "core/tensor.h"
#include "onnx/onnx.pb.h"

namespace onnxrun::test {

// Constant(value_float=alpha), CastLike, Constant(value=0.0f), CastLike, Less, Mul, Where
// (as ONNX's *_expanded tests write it). `scrambled`: the nodes in reverse order (the
// loader sorts them) and Mul's operands swapped.
onnx::ModelProto leaky_body_model(int elem, int64_t n, float alpha, bool scrambled = false);

// Where(Less(x, zero), Mul(x, a), x) with a and zero 0-d initializers of x's type
// (`a` and `zero` given as doubles, converted to the type: exactly, for the tests' values).
onnx::ModelProto leaky_idiom_model(int elem, int64_t n, double a, double zero = 0.0);

// x -> LeakyRelu(alphas[0]) -> ... -> y, opset 16.
onnx::ModelProto leaky_chain_model(int elem, int64_t n, const std::vector<float>& alphas);

// x read by several chains: branch b is x -> LeakyRelu(branches[b][0]) -> ... -> y<b>
// (outputs y0, y1, ... in order), opset 16.
onnx::ModelProto leaky_fanout_model(int elem, int64_t n, const std::vector<std::vector<float>>& branches);

// A 0-d TensorProto of ONNX type `elem` holding `v` (float16/bfloat16 rounded to nearest).
onnx::TensorProto scalar_tensor(const std::string& name, int elem, double v);

// Every 16-bit pattern, in order, as a tensor of `dtype` (float16 or bfloat16).
Tensor all_16_bit_patterns(DType dtype);

// An owned copy of `t` (so that the executor may be handed it to overwrite).
Tensor copy_of(const Tensor& t);

// Whether a and b have the same type, shape and bits; on a difference, says where (INFO).
bool same_bits(const Tensor& a, const Tensor& b);

}  // namespace onnxrun::test
