#include "model/schema_functions.h"

#include "model/unique_names.h"
#include "ops/registry.h"

namespace onnxrun {
namespace {

constexpr float kLeakyReluDefaultAlpha = 0.01f;

Attribute scalar_float_tensor_attr(float v) {
  Tensor t(DType::kFloat, {});
  *t.mutable_data<float>() = v;
  return tensor_attr(std::move(t));
}

// LeakyRelu-16's body, as ONNX's schema defines it (spec/README.md).
void leaky_relu_16_body(const Node& n, NameScope& names, std::vector<Node>& out) {
  const std::string& x = n.inputs[0];
  const std::string& y = n.outputs[0];
  float alpha = kLeakyReluDefaultAlpha;
  if (auto a = attr_float(n.attrs, "alpha")) alpha = *a;
  const std::string p = n.name + "/";
  auto node = [&](const char* name, const char* op, std::vector<std::string> ins, std::string output) -> Node& {
    Node b;
    b.name = p + name;
    b.op_type = op;
    b.domain = "";
    b.inputs = std::move(ins);
    b.outputs = {std::move(output)};
    b.opset = n.opset;
    out.push_back(std::move(b));
    return out.back();
  };
  const std::string alpha_v = names.fresh(p + "Alpha");
  const std::string alpha_cast = names.fresh(p + "AlphaCast");
  const std::string zero = names.fresh(p + "Zero");
  const std::string zero_cast = names.fresh(p + "ZeroCast");
  const std::string less = names.fresh(p + "XLessThanZero");
  const std::string mul = names.fresh(p + "AlphaMulX");
  node("Alpha", "Constant", {}, alpha_v).attrs["value_float"] = float_attr(alpha);
  node("AlphaCast", "CastLike", {alpha_v, x}, alpha_cast);
  node("Zero", "Constant", {}, zero).attrs["value"] = scalar_float_tensor_attr(0.0f);
  node("ZeroCast", "CastLike", {zero, x}, zero_cast);
  node("XLessThanZero", "Less", {x, zero_cast}, less);
  node("AlphaMulX", "Mul", {alpha_cast, x}, mul);
  node("Y", "Where", {less, mul, x}, y);
}

}  // namespace

size_t expand_schema_functions(Graph& g) {
  NameScope names(g);
  std::vector<Node> out;
  size_t expanded = 0;
  for (Node& n : g.nodes) {
    const bool leaky16 = n.op && n.op->domain.empty() && n.op->op_type == "LeakyRelu" && n.op->since == 16 &&
                         !n.inputs.empty() && !n.inputs[0].empty() && !n.outputs.empty() && !n.outputs[0].empty();
    if (!leaky16) {
      out.push_back(std::move(n));
      continue;
    }
    leaky_relu_16_body(n, names, out);
    ++expanded;
  }
  g.nodes = std::move(out);
  return expanded;
}

}  // namespace onnxrun
