#include "support/fusion_models.h"

#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstring>
#include <stdexcept>

#include "core/half.h"
#include "support/model_builder.h"

namespace onnxrun::test {
namespace {

void declare_xy(onnx::ModelProto& m, int elem, int64_t n) {
  auto* g = m.mutable_graph();
  if (n >= 0) {
    add_value(g->mutable_input(), "x", elem, {n});
    add_value(g->mutable_output(), "y", elem, {n});
  } else {
    add_symbolic_input(m, "x", elem, {"N"});
    add_value(g->mutable_output(), "y", elem, {-1});
  }
}

}  // namespace

onnx::TensorProto scalar_tensor(const std::string& name, int elem, double v) {
  onnx::TensorProto t;
  t.set_name(name);
  t.set_data_type(elem);
  std::string bytes;
  auto put = [&](const auto& value) { bytes.assign(reinterpret_cast<const char*>(&value), sizeof value); };
  switch (elem) {
    case onnx::TensorProto::FLOAT: put(static_cast<float>(v)); break;
    case onnx::TensorProto::DOUBLE: put(v); break;
    case onnx::TensorProto::FLOAT16: put(double_to_float16(v)); break;
    case onnx::TensorProto::BFLOAT16: put(double_to_bfloat16(v)); break;
    case onnx::TensorProto::INT32: put(static_cast<int32_t>(v)); break;
    default: throw std::logic_error("scalar_tensor: type");
  }
  t.set_raw_data(bytes);
  return t;
}

onnx::ModelProto leaky_body_model(int elem, int64_t n, float alpha, bool scrambled) {
  onnx::ModelProto m = make_model(16);
  std::vector<onnx::NodeProto> nodes;
  onnx::NodeProto a = make_node("Constant", {}, {"Alpha"}, "", "alpha");
  add_float_attr(a, "value_float", alpha);
  nodes.push_back(a);
  nodes.push_back(make_node("CastLike", {"Alpha", "x"}, {"AlphaCast"}, "", "alpha_cast"));
  onnx::NodeProto z = make_node("Constant", {}, {"Zero"}, "", "zero");
  add_tensor_attr(z, "value", scalar_tensor("", onnx::TensorProto::FLOAT, 0.0));
  nodes.push_back(z);
  nodes.push_back(make_node("CastLike", {"Zero", "x"}, {"ZeroCast"}, "", "zero_cast"));
  nodes.push_back(make_node("Less", {"x", "ZeroCast"}, {"XLessThanZero"}, "", "less"));
  nodes.push_back(scrambled ? make_node("Mul", {"x", "AlphaCast"}, {"AlphaMulX"}, "", "mul")
                            : make_node("Mul", {"AlphaCast", "x"}, {"AlphaMulX"}, "", "mul"));
  nodes.push_back(make_node("Where", {"XLessThanZero", "AlphaMulX", "x"}, {"y"}, "", "where"));
  if (scrambled) std::reverse(nodes.begin(), nodes.end());
  for (const auto& node : nodes) *m.mutable_graph()->add_node() = node;
  declare_xy(m, elem, n);
  return m;
}

onnx::ModelProto leaky_idiom_model(int elem, int64_t n, double a, double zero) {
  onnx::ModelProto m = make_model(16);
  auto* g = m.mutable_graph();
  *g->add_initializer() = scalar_tensor("a", elem, a);
  *g->add_initializer() = scalar_tensor("zero", elem, zero);
  *g->add_node() = make_node("Less", {"x", "zero"}, {"negative"}, "", "less");
  *g->add_node() = make_node("Mul", {"x", "a"}, {"scaled"}, "", "mul");
  *g->add_node() = make_node("Where", {"negative", "scaled", "x"}, {"y"}, "", "where");
  declare_xy(m, elem, n);
  return m;
}

onnx::ModelProto leaky_chain_model(int elem, int64_t n, const std::vector<float>& alphas) {
  onnx::ModelProto m = make_model(16);
  std::string in = "x";
  for (size_t k = 0; k < alphas.size(); ++k) {
    const std::string out = k + 1 == alphas.size() ? "y" : "v" + std::to_string(k);
    onnx::NodeProto node = make_node("LeakyRelu", {in}, {out}, "", "leaky" + std::to_string(k));
    add_float_attr(node, "alpha", alphas[k]);
    *m.mutable_graph()->add_node() = node;
    in = out;
  }
  declare_xy(m, elem, n);
  return m;
}

onnx::ModelProto leaky_fanout_model(int elem, int64_t n, const std::vector<std::vector<float>>& branches) {
  onnx::ModelProto m = make_model(16);
  for (size_t b = 0; b < branches.size(); ++b) {
    std::string in = "x";
    for (size_t k = 0; k < branches[b].size(); ++k) {
      const std::string out = k + 1 == branches[b].size() ? "y" + std::to_string(b) : fmt::format("v{}_{}", b, k);
      onnx::NodeProto node = make_node("LeakyRelu", {in}, {out}, "", fmt::format("leaky{}_{}", b, k));
      add_float_attr(node, "alpha", branches[b][k]);
      *m.mutable_graph()->add_node() = node;
      in = out;
    }
  }
  if (n >= 0) add_input(m, "x", elem, {n});
  else add_symbolic_input(m, "x", elem, {"N"});
  for (size_t b = 0; b < branches.size(); ++b) add_output(m, "y" + std::to_string(b), elem, {n >= 0 ? n : -1});
  return m;
}

Tensor all_16_bit_patterns(DType dtype) {
  Tensor x(dtype, {65536});
  for (uint32_t b = 0; b < 65536; ++b) x.mutable_data<uint16_t>()[b] = static_cast<uint16_t>(b);
  return x;
}

Tensor copy_of(const Tensor& t) {
  Tensor c(t.dtype(), t.shape());
  if (t.nbytes()) std::memcpy(c.mutable_raw(), t.raw(), t.nbytes());
  return c;
}

bool same_bits(const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype() || a.shape() != b.shape()) {
    UNSCOPED_INFO("different type or shape: " << a.describe() << " and " << b.describe());
    return false;
  }
  const size_t size = dtype_size(a.dtype());
  const auto* pa = static_cast<const unsigned char*>(a.raw());
  const auto* pb = static_cast<const unsigned char*>(b.raw());
  size_t differing = 0;
  for (int64_t i = 0; i < a.numel(); ++i) {
    if (std::memcmp(pa + i * size, pb + i * size, size) == 0) continue;
    if (differing++ == 0) {
      uint64_t va = 0, vb = 0;
      std::memcpy(&va, pa + i * size, size);
      std::memcpy(&vb, pb + i * size, size);
      UNSCOPED_INFO("first difference at " << i << ": 0x" << std::hex << va << " and 0x" << vb);
    }
  }
  if (differing) UNSCOPED_INFO(differing << " elements differ");
  return differing == 0;
}

}  // namespace onnxrun::test
