#include "support/model_builder.h"

#include <fstream>
#include <stdexcept>

namespace onnxrun::test {

onnx::ModelProto make_model(int64_t opset) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.set_producer_name("onnxrun tests");
  auto* imp = m.add_opset_import();
  imp->set_domain("");
  imp->set_version(opset);
  m.mutable_graph()->set_name("g");
  return m;
}

namespace {
void declare(onnx::ValueInfoProto* v, const std::string& name, int elem, const std::vector<int64_t>& dims) {
  v->set_name(name);
  auto* tt = v->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(elem);
  auto* shape = tt->mutable_shape();
  for (int64_t d : dims) {
    auto* dim = shape->add_dim();
    if (d >= 0) dim->set_dim_value(d);
  }
}
}  // namespace

void add_input(onnx::ModelProto& m, const std::string& name, int elem, const std::vector<int64_t>& dims) {
  declare(m.mutable_graph()->add_input(), name, elem, dims);
}

void add_output(onnx::ModelProto& m, const std::string& name, int elem, const std::vector<int64_t>& dims) {
  declare(m.mutable_graph()->add_output(), name, elem, dims);
}

void add_symbolic_input(onnx::ModelProto& m, const std::string& name, int elem, const std::vector<std::string>& params) {
  auto* v = m.mutable_graph()->add_input();
  v->set_name(name);
  auto* tt = v->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(elem);
  for (const std::string& p : params) tt->mutable_shape()->add_dim()->set_dim_param(p);
}

onnx::NodeProto* add_node(onnx::ModelProto& m, const std::string& op, const std::vector<std::string>& inputs,
                          const std::vector<std::string>& outputs, const std::string& name) {
  auto* n = m.mutable_graph()->add_node();
  n->set_op_type(op);
  n->set_name(name);
  for (const auto& i : inputs) n->add_input(i);
  for (const auto& o : outputs) n->add_output(o);
  return n;
}

void set_float_attr(onnx::NodeProto* n, const std::string& name, float v) {
  auto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::FLOAT);
  a->set_f(v);
}

void set_int_attr(onnx::NodeProto* n, const std::string& name, int64_t v) {
  auto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(v);
}

onnx::ModelProto leaky_relu_model(int64_t opset, int elem) {
  onnx::ModelProto m = make_model(opset);
  add_input(m, "x", elem, {2, 3});
  add_output(m, "y", elem, {2, 3});
  add_node(m, "LeakyRelu", {"x"}, {"y"}, "leaky");
  return m;
}

std::string save_model(const onnx::ModelProto& m, const std::string& path) {
  std::ofstream f(path, std::ios::binary);
  if (!m.SerializeToOstream(&f)) throw std::runtime_error("cannot write " + path);
  return path;
}

}  // namespace onnxrun::test
