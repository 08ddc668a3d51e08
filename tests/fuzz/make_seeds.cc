// fuzz_seeds OUT_DIR: writes OUT_DIR/model/*.onnx and OUT_DIR/tensor/*.pb, small valid
// inputs that cover what the loaders read (every LeakyRelu version and type, attributes,
// initializers in raw_data, typed fields and external data; the other operators and
// nested model-local functions), for the fuzzers to mutate.
// External references name "data.bin", which the fuzz targets provide beside the input.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/model_builder.h"

using namespace onnxrun::test;
using TP = onnx::TensorProto;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: fuzz_seeds OUT_DIR\n");
    return 2;
  }
  const std::string out = argv[1];
  std::filesystem::create_directories(out + "/model");
  std::filesystem::create_directories(out + "/tensor");
  std::filesystem::create_directories(out + "/cli");
  int count = 0;
  auto model = [&](const std::string& name, const onnx::ModelProto& m) {
    write_message(out + "/model/" + name + ".onnx", m);
    ++count;
  };
  auto tensor = [&](const std::string& name, const TP& t) {
    write_message(out + "/tensor/" + name + ".pb", t);
    ++count;
  };

  const int32_t types[] = {TP::FLOAT, TP::DOUBLE, TP::FLOAT16, TP::BFLOAT16};
  for (int64_t opset : {1, 6, 16})
    for (int32_t t : types) {
      if (t == TP::BFLOAT16 && opset < 16) continue;
      onnx::ModelProto m = leaky_relu_xy_model(opset, t, {2, 3});
      model("leaky_op" + std::to_string(opset) + "_t" + std::to_string(t), m);
      auto* a = m.mutable_graph()->mutable_node(0)->add_attribute();
      a->set_name("alpha");
      a->set_type(onnx::AttributeProto::FLOAT);
      a->set_f(0.1f);
      model("leaky_alpha_op" + std::to_string(opset) + "_t" + std::to_string(t), m);
    }
  {
    // Symbolic dims, and a chain of two nodes.
    onnx::ModelProto m = leaky_relu_xy_model(16);
    auto* dim =
        m.mutable_graph()->mutable_input(0)->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(0);
    dim->set_dim_param("N");
    auto* n = m.mutable_graph()->add_node();
    n->set_op_type("LeakyRelu");
    n->add_input("Y");
    n->add_output("Z");
    m.mutable_graph()->mutable_output(0)->set_name("Z");
    model("leaky_chain_symbolic", m);
  }
  {
    // X as an initializer: inline (raw_data, float_data) and external.
    onnx::ModelProto m = leaky_relu_xy_model(16);
    *m.mutable_graph()->add_initializer() = float_tensor("X", {3}, {-1.f, 0.f, 2.f});
    model("leaky_init_raw", m);
    TP* init = m.mutable_graph()->mutable_initializer(0);
    init->clear_raw_data();
    for (float v : {-1.f, 0.5f, 3.f}) init->add_float_data(v);
    model("leaky_init_typed", m);
    init->clear_float_data();
    make_external(init, {{"location", "data.bin"}, {"offset", "16"}, {"length", "12"}});
    model("leaky_init_external", m);
  }

  {
    // The other operators onnx-run implements, in one graph: Constant, Cast, CastLike,
    // Mul (broadcasting), Less and Where.
    onnx::ModelProto m = make_model(19);
    add_input(m, "A", TP::FLOAT, {2, 3});
    add_input(m, "B", TP::FLOAT, {3});
    add_output(m, "W", TP::FLOAT, {2, 3});
    add_output(m, "I", TP::INT32, {2, 3});
    onnx::NodeProto* c = add_node(m, "Constant", {}, {"C"});
    auto* value = c->add_attribute();
    value->set_name("value");
    value->set_type(onnx::AttributeProto::TENSOR);
    *value->mutable_t() = float_tensor("", {3}, {0.5f, -1.f, 2.f});
    add_node(m, "Mul", {"A", "C"}, {"P"});
    add_node(m, "Less", {"P", "B"}, {"L"});
    add_node(m, "Where", {"L", "A", "P"}, {"W"});
    onnx::NodeProto* cast = add_node(m, "Cast", {"W"}, {"I"});
    add_int_attr(*cast, "to", TP::INT32);
    model("ops_mixed", m);
    add_output(m, "D", TP::DOUBLE, {2, 3});
    add_input(m, "T", TP::DOUBLE, {});
    add_node(m, "CastLike", {"W", "T"}, {"D"});
    model("ops_castlike", m);
  }
  {
    // A node calling a model-local function that calls another.
    onnx::ModelProto m = make_model(16, {"local"});
    add_input(m, "X", TP::FLOAT, {2, 2});
    add_output(m, "Y", TP::FLOAT, {2, 2});
    onnx::NodeProto* call = add_node(m, "Outer", {"X"}, {"Y"});
    call->set_domain("local");
    add_float_attr(*call, "alpha", 0.2f);
    onnx::FunctionProto outer = make_function("local", "Outer", {"x"}, {"y"}, 16);
    outer.add_attribute("alpha");
    auto* local = outer.add_opset_import();
    local->set_domain("local");
    local->set_version(1);
    onnx::NodeProto* inner_call = outer.add_node();
    *inner_call = make_node("Inner", {"x"}, {"t"}, "local");
    add_ref_attr(*inner_call, "alpha", "alpha", onnx::AttributeProto::FLOAT);
    *outer.add_node() = make_node("Mul", {"t", "x"}, {"y"});
    onnx::FunctionProto inner = make_function("local", "Inner", {"x"}, {"y"}, 16);
    inner.add_attribute("alpha");
    onnx::NodeProto* leaky = inner.add_node();
    *leaky = make_node("LeakyRelu", {"x"}, {"y"});
    add_ref_attr(*leaky, "alpha", "alpha", onnx::AttributeProto::FLOAT);
    *m.add_functions() = outer;
    *m.add_functions() = inner;
    model("local_functions_nested", m);
  }

  tensor("float_raw", float_tensor("x", {2, 2}, {1.f, -2.f, 3.f, -4.f}));
  tensor("float_scalar", float_tensor("s", {}, {-0.5f}));
  tensor("float_empty", float_tensor("e", {0, 3}, {}));
  {
    TP t;
    t.set_name("typed");
    t.set_data_type(TP::FLOAT);
    t.add_dims(3);
    for (float v : {1.f, -1.f, 0.f}) t.add_float_data(v);
    tensor("float_typed", t);
  }
  {
    TP t;
    t.set_data_type(TP::DOUBLE);
    t.add_dims(2);
    t.add_double_data(1.5);
    t.add_double_data(-2.5);
    tensor("double_typed", t);
  }
  {
    TP t;
    t.set_data_type(TP::FLOAT16);
    t.add_dims(2);
    t.add_int32_data(0x3c00);
    t.add_int32_data(0xbc00);
    tensor("float16_int32_data", t);
  }
  {
    TP t;
    t.set_data_type(TP::INT64);
    t.add_dims(2);
    t.add_int64_data(-7);
    t.add_int64_data(9);
    tensor("int64_typed", t);
  }
  {
    TP t = float_tensor("ext", {4}, {});
    make_external(&t, {{"location", "data.bin"}, {"offset", "8"}, {"length", "16"}});
    tensor("float_external", t);
  }
  // Command lines for fuzz_cli: the arguments after "onnx-run", separated by NUL.
  const std::vector<std::vector<std::string>> command_lines = {
      {"m.onnx", "-i", "x=[[1,-2],[nan,inf]]", "--shape", "x=2,2", "-o", "out", "--format", "npy", "-q"},
      {"m.onnx", "-d", "test_data_set_0", "--rtol", "1e-3", "--atol", "0", "--json", "--full"},
      {"m.onnx", "--random", "--seed", "7", "--range", "-5,5", "--threads", "2", "--max-memory", "512M", "-vv"},
      {"m.onnx", "--npz", "in.npz", "--dump-intermediates", "dump", "--expand-functions", "--print-graph"},
      {"test", "tree", "-j", "2", "--filter", "leaky(relu)?", "--exclude", "expanded$", "--shard", "2/4", "--list"},
      {"test", "tree", "--json", "r.json", "--junit", "r.xml", "--baseline", "b.json", "--strict", "--timeout", "5"},
      {"bench", "m.onnx", "-i", "x=x.pb", "--warmup", "1", "--repeat", "3", "--json"},
      {"bench", "--memcpy", "4000000", "--threads", "1"},
      {"info", "m.onnx", "--json"},
      {"tset", "--help"},
  };
  for (size_t k = 0; k < command_lines.size(); ++k) {
    std::string bytes;
    for (const std::string& a : command_lines[k]) bytes += (bytes.empty() ? "" : std::string(1, '\0')) + a;
    std::ofstream(out + "/cli/line_" + std::to_string(k) + ".args", std::ios::binary) << bytes;
    ++count;
  }
  std::printf("wrote %d seeds to %s\n", count, out.c_str());
  return 0;
}
