#include "support/model_builder.h"

#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

namespace onnxrun::test {

onnx::NodeProto make_node(const std::string& op_type, std::vector<std::string> inputs, std::vector<std::string> outputs,
                          const std::string& domain, const std::string& name) {
  onnx::NodeProto n;
  n.set_op_type(op_type);
  n.set_domain(domain);
  n.set_name(name);
  for (auto& i : inputs) n.add_input(i);
  for (auto& o : outputs) n.add_output(o);
  return n;
}

void add_tensor_attr(onnx::NodeProto& n, const std::string& name, const onnx::TensorProto& t) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::TENSOR);
  *a->mutable_t() = t;
}

void add_float_attr(onnx::NodeProto& n, const std::string& name, float v) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::FLOAT);
  a->set_f(v);
}

void add_int_attr(onnx::NodeProto& n, const std::string& name, int64_t v) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(v);
}

void add_ref_attr(onnx::NodeProto& n, const std::string& name, const std::string& ref,
                  onnx::AttributeProto::AttributeType type) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(type);
  a->set_ref_attr_name(ref);
}

void declare(onnx::ValueInfoProto* v, const std::string& name, int32_t elem, const std::vector<int64_t>& dims) {
  v->set_name(name);
  auto* tt = v->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(elem);
  auto* shape = tt->mutable_shape();
  for (int64_t d : dims) shape->add_dim()->set_dim_value(d);  // negative ones too: bad-input tests need them
}

void add_value(google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>* list, const std::string& name, int elem,
               const std::vector<int64_t>& dims) {
  onnx::ValueInfoProto* v = list->Add();
  declare(v, name, elem, dims);
  for (auto& dim : *v->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim())
    if (dim.dim_value() < 0) dim.clear_dim_value();  // unknown
}

void add_input(onnx::ModelProto& m, const std::string& name, int elem, const std::vector<int64_t>& dims) {
  add_value(m.mutable_graph()->mutable_input(), name, elem, dims);
}

void add_output(onnx::ModelProto& m, const std::string& name, int elem, const std::vector<int64_t>& dims) {
  add_value(m.mutable_graph()->mutable_output(), name, elem, dims);
}

void add_symbolic_input(onnx::ModelProto& m, const std::string& name, int elem,
                        const std::vector<std::string>& params) {
  auto* v = m.mutable_graph()->add_input();
  v->set_name(name);
  auto* tt = v->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(elem);
  for (const std::string& p : params) tt->mutable_shape()->add_dim()->set_dim_param(p);
}

onnx::NodeProto* add_node(onnx::ModelProto& m, const std::string& op, const std::vector<std::string>& inputs,
                          const std::vector<std::string>& outputs, const std::string& name) {
  auto* n = m.mutable_graph()->add_node();
  *n = make_node(op, inputs, outputs, "", name);
  return n;
}

onnx::ModelProto leaky_relu_model(int64_t opset, int elem) {
  onnx::ModelProto m = make_model(opset);
  add_input(m, "x", elem, {2, 3});
  add_output(m, "y", elem, {2, 3});
  add_node(m, "LeakyRelu", {"x"}, {"y"}, "leaky");
  return m;
}

onnx::ModelProto make_model(int64_t opset, const std::vector<std::string>& extra_domains) {
  onnx::ModelProto m;
  m.set_ir_version(10);
  auto* imp = m.add_opset_import();
  imp->set_domain("");
  imp->set_version(opset);
  for (const std::string& d : extra_domains) {
    auto* e = m.add_opset_import();
    e->set_domain(d);
    e->set_version(1);
  }
  m.mutable_graph()->set_name("test");
  return m;
}

onnx::FunctionProto make_function(const std::string& domain, const std::string& name, std::vector<std::string> inputs,
                                  std::vector<std::string> outputs, int64_t opset) {
  onnx::FunctionProto f;
  f.set_domain(domain);
  f.set_name(name);
  for (auto& i : inputs) f.add_input(i);
  for (auto& o : outputs) f.add_output(o);
  auto* imp = f.add_opset_import();
  imp->set_domain("");
  imp->set_version(opset);
  return f;
}

void add_function_attr_default_float(onnx::FunctionProto& f, const std::string& name, float v) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(onnx::AttributeProto::FLOAT);
  a.set_f(v);
  const std::string bytes = a.SerializeAsString();
  std::string field;
  {
    google::protobuf::io::StringOutputStream sos(&field);
    google::protobuf::io::CodedOutputStream out(&sos);
    out.WriteTag((11u << 3) | 2u);  // field 11, length-delimited
    out.WriteVarint32(static_cast<uint32_t>(bytes.size()));
    out.WriteString(bytes);
  }
  f.mutable_unknown_fields()->append(field);
}

std::string serialize(const onnx::ModelProto& m) { return m.SerializeAsString(); }

std::string save_model(const onnx::ModelProto& m, const std::string& path) {
  std::ofstream f(path, std::ios::binary);
  if (!m.SerializeToOstream(&f)) throw std::runtime_error("cannot write " + path);
  return path;
}

onnx::ModelProto leaky_relu_xy_model(int64_t opset, int32_t elem, const std::vector<int64_t>& dims) {
  onnx::ModelProto m = make_model(opset);
  auto* g = m.mutable_graph();
  declare(g->add_input(), "X", elem, dims);
  declare(g->add_output(), "Y", elem, dims);
  auto* n = g->add_node();
  n->set_name("leaky");
  n->set_op_type("LeakyRelu");
  n->add_input("X");
  n->add_output("Y");
  return m;
}

std::string float_bytes(const std::vector<float>& values) {
  std::string out(values.size() * sizeof(float), '\0');
  if (!values.empty()) std::memcpy(out.data(), values.data(), out.size());
  return out;
}

onnx::TensorProto float_tensor(const std::string& name, const std::vector<int64_t>& dims,
                               const std::vector<float>& values) {
  onnx::TensorProto t;
  t.set_name(name);
  t.set_data_type(onnx::TensorProto::FLOAT);
  for (int64_t d : dims) t.add_dims(d);
  t.set_raw_data(float_bytes(values));
  return t;
}

void make_external(onnx::TensorProto* t, const std::vector<std::pair<std::string, std::string>>& keys) {
  t->clear_raw_data();
  t->set_data_location(onnx::TensorProto::EXTERNAL);
  for (const auto& [k, v] : keys) {
    auto* e = t->add_external_data();
    e->set_key(k);
    e->set_value(v);
  }
}

void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!f) throw std::runtime_error("cannot write " + path);
}

void write_message(const std::string& path, const google::protobuf::MessageLite& m) {
  write_file(path, m.SerializeAsString());
}

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

void tensor_to_proto(const Tensor& t, const std::string& name, onnx::TensorProto* proto) {
  proto->Clear();
  proto->set_name(name);
  proto->set_data_type(static_cast<int32_t>(t.dtype()));
  for (int64_t d : t.shape()) proto->add_dims(d);
  proto->set_raw_data(t.raw(), t.nbytes());
}

}  // namespace onnxrun::test
