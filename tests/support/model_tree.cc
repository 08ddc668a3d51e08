#include "support/model_tree.h"
#include "io/streamed_tensor_file.h"

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "core/tensor.h"
#include "io/tensor_file.h"
#include "io/tensor_proto.h"
#include "onnx/onnx.pb.h"
#include "support/model_builder.h"
#include "support/shortcuts.h"
#include "support/tensors.h"

namespace onnxrun::test {
namespace {

void set_float_value_info(onnx::ValueInfoProto* v, const std::string& name, int64_t n) {
  declare(v, name, onnx::TensorProto::FLOAT, {n});
}

void save(const onnx::ModelProto& m, const std::string& path) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  save_model(m, path);
}

onnx::ModelProto base_model(int64_t opset) { return make_model(opset); }

}  // namespace

void write_leaky_model(const std::string& path, float alpha, const std::vector<float>& x_initializer) {
  onnx::ModelProto m = base_model(16);
  auto* g = m.mutable_graph();
  auto* node = g->add_node();
  node->set_op_type("LeakyRelu");
  node->set_name("leaky");
  node->add_input("x");
  node->add_output("y");
  auto* a = node->add_attribute();
  a->set_name("alpha");
  a->set_type(onnx::AttributeProto::FLOAT);
  a->set_f(alpha);
  const int64_t n = x_initializer.empty() ? 4 : static_cast<int64_t>(x_initializer.size());
  if (x_initializer.empty()) set_float_value_info(g->add_input(), "x", n);
  else tensor_to_proto(float_tensor(x_initializer), "x", g->add_initializer());
  set_float_value_info(g->add_output(), "y", n);
  save(m, path);
}

void write_leaky_model_typed(const std::string& path, int64_t opset, int elem_type) {
  onnx::ModelProto m = base_model(opset);
  auto* g = m.mutable_graph();
  auto* node = g->add_node();
  node->set_op_type("LeakyRelu");
  node->add_input("x");
  node->add_output("y");
  set_float_value_info(g->add_input(), "x", 4);
  set_float_value_info(g->add_output(), "y", 4);
  g->mutable_input(0)->mutable_type()->mutable_tensor_type()->set_elem_type(elem_type);
  g->mutable_output(0)->mutable_type()->mutable_tensor_type()->set_elem_type(elem_type);
  save(m, path);
}

void write_unknown_op_model(const std::string& path, const std::string& op_type) {
  onnx::ModelProto m = base_model(13);
  auto* g = m.mutable_graph();
  auto* node = g->add_node();
  node->set_op_type(op_type);
  node->add_input("x");
  node->add_output("y");
  set_float_value_info(g->add_input(), "x", 4);
  set_float_value_info(g->add_output(), "y", 4);
  save(m, path);
}

void write_float_tensor(const std::string& path, const std::vector<float>& values, const std::string& name) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  write_tensor_file(path, float_tensor(values), name);
}

std::vector<float> leaky(const std::vector<float>& v, float alpha) {
  std::vector<float> out;
  for (float x : v) out.push_back(x < 0 ? alpha * x : x);
  return out;
}

void write_leaky_test(const std::string& dir, float scale) {
  const std::vector<float> x{-2.0f, -0.5f, 0.0f, 3.0f};
  std::vector<float> y = leaky(x, 0.1f);
  for (float& v : y) v *= scale;
  write_leaky_model(dir + "/model.onnx", 0.1f);
  write_float_tensor(dir + "/test_data_set_0/input_0.pb", x, "x");
  write_float_tensor(dir + "/test_data_set_0/output_0.pb", y, "y");
}

void write_text_file(const std::string& path, const std::string& text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

}  // namespace onnxrun::test
