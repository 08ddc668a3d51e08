#include "support/model_builder.h"

#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace onnxrun::test {

void declare(onnx::ValueInfoProto* v, const std::string& name, int32_t elem, const std::vector<int64_t>& dims) {
  v->set_name(name);
  auto* tt = v->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(elem);
  auto* shape = tt->mutable_shape();
  for (int64_t d : dims) shape->add_dim()->set_dim_value(d);
}

onnx::ModelProto leaky_relu_model(int64_t opset, int32_t elem, const std::vector<int64_t>& dims) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.set_producer_name("onnxrun-tests");
  auto* imp = m.add_opset_import();
  imp->set_domain("");
  imp->set_version(opset);
  auto* g = m.mutable_graph();
  g->set_name("leaky");
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

}  // namespace onnxrun::test
