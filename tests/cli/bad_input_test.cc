// The table of bad inputs: each row builds a model folder (models and tensor files made
// here through onnx_proto, never copied from elsewhere), runs the onnx-run binary with
// `-o OUT` added, and checks the exit code (3 rejected, 2 usage), that stderr is one
// line holding the row's words, and that OUT holds no file afterwards.
#include <catch2/catch.hpp>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "support/check_exit.h"
#include "support/model_builder.h"
#include "support/paths.h"
#include "support/process.h"

using namespace onnxrun::test;
namespace fs = std::filesystem;
using TP = onnx::TensorProto;

namespace {

// The folder a row works in: ROOT/m holds the model, ROOT holds what is "outside".
struct Folder {
  TempDir root;
  std::string m = root.file("m");
  std::string out = root.file("out");
  Folder() { fs::create_directories(m); }
  std::string model(const onnx::ModelProto& proto) const {
    write_message(m + "/model.onnx", proto);
    return m + "/model.onnx";
  }
  std::string pb(const std::string& name, const TP& t) const {
    write_message(m + "/" + name, t);
    return m + "/" + name;
  }
};

struct Row {
  const char* name;
  int code;
  std::vector<std::string> words;
  // Writes the files; returns the arguments (without -o).
  std::function<std::vector<std::string>(Folder&)> setup;
  bool add_output_flag = true;
};

const std::vector<float> kX = {-1.f, 0.f, 2.f};

// Model and -i for the plain case: LeakyRelu-16 on float[3].
std::vector<std::string> plain(Folder& f, const onnx::ModelProto& m, const TP& x) {
  return {f.model(m), "-i", "X=" + f.pb("x.pb", x)};
}
std::vector<std::string> plain_model(Folder& f, const onnx::ModelProto& m) {
  return plain(f, m, float_tensor("X", {3}, kX));
}
std::vector<std::string> plain_input(Folder& f, const TP& x) { return plain(f, leaky_relu_xy_model(), x); }

onnx::AttributeProto* add_attr(onnx::ModelProto& m, const std::string& name) {
  auto* a = m.mutable_graph()->mutable_node(0)->add_attribute();
  a->set_name(name);
  return a;
}

// A model whose X is an initializer, so that it runs with no -i at all.
onnx::ModelProto with_initializer(const TP& x) {
  onnx::ModelProto m = leaky_relu_xy_model();
  *m.mutable_graph()->add_initializer() = x;
  return m;
}

// Model with X external at `keys`, the real data in m/data.bin (12 bytes), a secret
// file outside the model folder, and `prepare` for links and such.
std::vector<std::string> external(Folder& f, const std::vector<std::pair<std::string, std::string>>& keys,
                                  const std::function<void(Folder&)>& prepare = {}) {
  write_file(f.m + "/data.bin", float_bytes(kX));
  write_file(f.root.file("secret.bin"), float_bytes(kX));
  if (prepare) prepare(f);
  TP x = float_tensor("X", {3}, {});
  make_external(&x, keys);
  return {f.model(with_initializer(x))};
}

TP with_dims(TP t, const std::vector<int64_t>& dims) {
  t.clear_dims();
  for (int64_t d : dims) t.add_dims(d);
  return t;
}

const std::vector<Row>& rows() {
  static const std::vector<Row> table = {
      // Model files that are not models.
      {"garbage model file",
       3,
       {"not a valid ONNX model"},
       [](Folder& f) {
         write_file(f.m + "/model.onnx", "\x08\x07\xff\xff\xff\xff this is not a model");
         return std::vector<std::string>{f.m + "/model.onnx"};
       }},
      {"truncated model file",
       3,
       {"not a valid ONNX model"},
       [](Folder& f) {
         const std::string bytes = leaky_relu_xy_model().SerializeAsString();
         write_file(f.m + "/model.onnx", bytes.substr(0, bytes.size() - 10));
         return std::vector<std::string>{f.m + "/model.onnx"};
       }},
      {"empty model file",
       3,
       {"not a valid ONNX model"},
       [](Folder& f) {
         write_file(f.m + "/model.onnx", "");
         return std::vector<std::string>{f.m + "/model.onnx"};
       }},
      {"missing model file",
       3,
       {"cannot open"},
       [](Folder& f) { return std::vector<std::string>{f.m + "/none.onnx"}; }},
      // Graph structure.
      {"empty graph",
       3,
       {"no outputs"},
       [](Folder& f) {
         onnx::ModelProto m = leaky_relu_xy_model();
         m.mutable_graph()->Clear();
         return std::vector<std::string>{f.model(m)};
       }},
      {"missing opset import",
       3,
       {"does not import domain", "ai.onnx"},
       [](Folder& f) {
         onnx::ModelProto m = leaky_relu_xy_model();
         m.clear_opset_import();
         return plain_model(f, m);
       }},
      {"duplicate opset import",
       3,
       {"opset_import", "twice"},
       [](Folder& f) {
         onnx::ModelProto m = leaky_relu_xy_model();
         auto* imp = m.add_opset_import();
         imp->set_domain("ai.onnx");
         imp->set_version(6);
         return plain_model(f, m);
       }},
      {"cycle",
       3,
       {"cycle"},
       [](Folder& f) {
         onnx::ModelProto m = leaky_relu_xy_model();
         auto* g = m.mutable_graph();
         g->mutable_node(0)->set_input(0, "Z");
         auto* n = g->add_node();
         n->set_op_type("LeakyRelu");
         n->add_input("Y");
         n->add_output("Z");
         return plain_model(f, m);
       }},
      {"dangling input",
       3,
       {"'nowhere'", "not produced"},
       [](Folder& f) {
         onnx::ModelProto m = leaky_relu_xy_model();
         m.mutable_graph()->mutable_node(0)->set_input(0, "nowhere");
         return plain_model(f, m);
       }},
      {"value produced twice",
       3,
       {"'Y'", "produced twice"},
       [](Folder& f) {
         onnx::ModelProto m = leaky_relu_xy_model();
         *m.mutable_graph()->add_node() = m.graph().node(0);
         return plain_model(f, m);
       }},
      {"graph output never produced",
       3,
       {"'Q'", "not produced"},
       [](Folder& f) {
         onnx::ModelProto m = leaky_relu_xy_model();
         m.mutable_graph()->mutable_output(0)->set_name("Q");
         return plain_model(f, m);
       }},
      // Types and attributes against the resolved version.
      {"bfloat16 at opset 6",
       3,
       {"bfloat16", "LeakyRelu"},
       [](Folder& f) { return std::vector<std::string>{f.model(leaky_relu_xy_model(6, TP::BFLOAT16))}; }},
      {"int32 into LeakyRelu",
       3,
       {"int32"},
       [](Folder& f) { return std::vector<std::string>{f.model(leaky_relu_xy_model(16, TP::INT32))}; }},
      {"alpha as an int",
       3,
       {"alpha", "float", "int"},
       [](Folder& f) {
         onnx::ModelProto m = leaky_relu_xy_model();
         auto* a = add_attr(m, "alpha");
         a->set_type(onnx::AttributeProto::INT);
         a->set_i(1);
         return plain_model(f, m);
       }},
      {"alpha as a string",
       3,
       {"alpha", "string"},
       [](Folder& f) {
         onnx::ModelProto m = leaky_relu_xy_model();
         auto* a = add_attr(m, "alpha");
         a->set_type(onnx::AttributeProto::STRING);
         a->set_s("0.1");
         return plain_model(f, m);
       }},
      {"unknown attribute",
       3,
       {"'beta'", "not defined"},
       [](Folder& f) {
         onnx::ModelProto m = leaky_relu_xy_model();
         auto* a = add_attr(m, "beta");
         a->set_type(onnx::AttributeProto::FLOAT);
         a->set_f(1);
         return plain_model(f, m);
       }},
      {"consumed_inputs past version 1",
       3,
       {"consumed_inputs"},
       [](Folder& f) {
         onnx::ModelProto m = leaky_relu_xy_model(6);
         auto* a = add_attr(m, "consumed_inputs");
         a->set_type(onnx::AttributeProto::INTS);
         a->add_ints(0);
         return plain_model(f, m);
       }},
      // Tensor data against dims, in initializers and in -i files.
      {"initializer raw_data shorter than dims",
       3,
       {"initializer 'X'", "raw_data holds 8 bytes", "needs 12"},
       [](Folder& f) {
         return std::vector<std::string>{f.model(with_initializer(float_tensor("X", {3}, {1.f, 2.f})))};
       }},
      {"initializer float_data count disagrees",
       3,
       {"float_data holds 4 values", "needs 3"},
       [](Folder& f) {
         TP x = float_tensor("X", {3}, {});
         x.clear_raw_data();
         for (float v : {1.f, 2.f, 3.f, 4.f}) x.add_float_data(v);
         return std::vector<std::string>{f.model(with_initializer(x))};
       }},
      {"input raw_data longer than dims",
       3,
       {"x.pb", "raw_data holds 16 bytes"},
       [](Folder& f) {
         return plain_input(f, with_dims(float_tensor("X", {4}, {1, 2, 3, 4}), {3}));
       }},
      {"input int32_data for a float tensor",
       3,
       {"float_data", "int32_data"},
       [](Folder& f) {
         TP x = float_tensor("X", {3}, {});
         x.clear_raw_data();
         for (int v : {1, 2, 3}) x.add_int32_data(v);
         return plain_input(f, x);
       }},
      {"initializer dims whose product overflows",
       3,
       {"more elements than 2^63"},
       [](Folder& f) {
         return std::vector<std::string>{
             f.model(with_initializer(with_dims(float_tensor("X", {}, {}), {int64_t{1} << 40, int64_t{1} << 40})))};
       }},
      {"input dims whose product overflows",
       3,
       {"x.pb", "more elements than 2^63"},
       [](Folder& f) {
         return plain_input(f, with_dims(float_tensor("X", {}, {}), {int64_t{1} << 32, int64_t{1} << 32, 4}));
       }},
      {"input bytes that overflow though elements do not",
       3,
       {"x.pb", "2^64 bytes"},
       [](Folder& f) { return plain_input(f, with_dims(float_tensor("X", {}, {}), {int64_t{1} << 62})); }},
      {"initializer with negative dim",
       3,
       {"negative dimension -3"},
       [](Folder& f) {
         return std::vector<std::string>{f.model(with_initializer(with_dims(float_tensor("X", {3}, kX), {-3})))};
       }},
      {"input with negative dim",
       3,
       {"x.pb", "negative dimension"},
       [](Folder& f) {
         return plain_input(f, with_dims(float_tensor("X", {3}, kX), {3, -1}));
       }},
      {"huge dims and no data are refused before allocating",
       3,
       {"x.pb", "holds 0 values", "float[1099511627776]"},
       [](Folder& f) {
         TP x = with_dims(float_tensor("X", {}, {}), {int64_t{1} << 40});
         x.clear_raw_data();
         return plain_input(f, x);
       }},
      {"declared negative dim",
       3,
       {"negative dimension"},
       [](Folder& f) { return std::vector<std::string>{f.model(leaky_relu_xy_model(16, TP::FLOAT, {-2}))}; }},
      // Inputs against the graph's declarations.
      {"input dtype differs from the declaration",
       3,
       {"input 'X'", "double", "declares float"},
       [](Folder& f) {
         TP x;
         x.set_name("X");
         x.set_data_type(TP::DOUBLE);
         x.add_dims(3);
         for (double v : {1.0, 2.0, 3.0}) x.add_double_data(v);
         return plain_input(f, x);
       }},
      {"input rank differs from the declaration",
       3,
       {"input 'X'", "rank 2"},
       [](Folder& f) {
         return plain_input(f, float_tensor("X", {3, 1}, kX));
       }},
      {"input dims differ from the declaration",
       3,
       {"input 'X'", "dim 0 = 4"},
       [](Folder& f) {
         return plain_input(f, float_tensor("X", {4}, {1, 2, 3, 4}));
       }},
      {"missing -i input",
       3,
       {"missing input 'Z'"},
       [](Folder& f) {
         onnx::ModelProto m = leaky_relu_xy_model();
         declare(m.mutable_graph()->add_input(), "Z", TP::FLOAT, {3});
         return plain_model(f, m);
       }},
      {"extra -i input",
       3,
       {"input #1", "no graph input"},
       [](Folder& f) {
         const std::string x = f.pb("x.pb", float_tensor("X", {3}, kX));
         return std::vector<std::string>{f.model(leaky_relu_xy_model()), "-i", x, "-i", x};
       }},
      {"duplicated -i input",
       3,
       {"input 'X' is given twice"},
       [](Folder& f) {
         const std::string x = f.pb("x.pb", float_tensor("X", {3}, kX));
         return std::vector<std::string>{f.model(leaky_relu_xy_model()), "-i", "X=" + x, "-i", "X=" + x};
       }},
      {"-i with an unknown name",
       3,
       {"unknown input 'W'"},
       [](Folder& f) {
         return std::vector<std::string>{f.model(leaky_relu_xy_model()), "-i",
                                         "W=" + f.pb("x.pb", float_tensor("X", {3}, kX))};
       }},
      {"-i file missing",
       3,
       {"cannot open", "none.pb"},
       [](Folder& f) {
         return std::vector<std::string>{f.model(leaky_relu_xy_model()), "-i", "X=" + f.m + "/none.pb"};
       }},
      {"-i file is garbage",
       3,
       {"x.pb", "not a valid TensorProto"},
       [](Folder& f) {
         write_file(f.m + "/x.pb", "\xff\xff\xff garbage");
         return std::vector<std::string>{f.model(leaky_relu_xy_model()), "-i", "X=" + f.m + "/x.pb"};
       }},
      {"-i file is truncated",
       3,
       {"x.pb", "not a valid TensorProto"},
       [](Folder& f) {
         const std::string bytes = float_tensor("X", {3}, kX).SerializeAsString();
         write_file(f.m + "/x.pb", bytes.substr(0, bytes.size() - 5));
         return std::vector<std::string>{f.model(leaky_relu_xy_model()), "-i", "X=" + f.m + "/x.pb"};
       }},
      // Test sets.
      {"test set without output_0.pb",
       3,
       {"0 output files", "1 outputs"},
       [](Folder& f) {
         fs::create_directories(f.m + "/test_data_set_0");
         f.pb("test_data_set_0/input_0.pb", float_tensor("X", {3}, kX));
         return std::vector<std::string>{f.model(leaky_relu_xy_model())};
       }},
      {"test set with output_1.pb but no output_0.pb",
       3,
       {"output_0.pb is missing"},
       [](Folder& f) {
         fs::create_directories(f.m + "/test_data_set_0");
         f.pb("test_data_set_0/input_0.pb", float_tensor("X", {3}, kX));
         f.pb("test_data_set_0/output_1.pb", float_tensor("Y", {3}, kX));
         return std::vector<std::string>{f.model(leaky_relu_xy_model()), "-d", f.m + "/test_data_set_0"};
       }},
      // A K no count reaches is a gap ("internal error: stol" it was), in every door.
      {"test set with input_99999999999999999999.pb",
       3,
       {"test_data_set_0: input_1.pb is missing (found input_99999999999999999999.pb)"},
       [](Folder& f) {
         fs::create_directories(f.m + "/test_data_set_0");
         f.pb("test_data_set_0/input_0.pb", float_tensor("X", {3}, kX));
         f.pb("test_data_set_0/input_99999999999999999999.pb", float_tensor("X", {3}, kX));
         f.pb("test_data_set_0/output_0.pb", float_tensor("Y", {3}, kX));
         return std::vector<std::string>{f.model(leaky_relu_xy_model())};
       }},
      {"-d with output_99999999999999999999.pb",
       3,
       {"test_data_set_0: output_1.pb is missing (found output_99999999999999999999.pb)"},
       [](Folder& f) {
         fs::create_directories(f.m + "/test_data_set_0");
         f.pb("test_data_set_0/input_0.pb", float_tensor("X", {3}, kX));
         f.pb("test_data_set_0/output_0.pb", float_tensor("Y", {3}, kX));
         f.pb("test_data_set_0/output_99999999999999999999.pb", float_tensor("Y", {3}, kX));
         return std::vector<std::string>{f.model(leaky_relu_xy_model()), "-d", f.m + "/test_data_set_0"};
       }},
      // Output folders that cannot be written.
      {"output folder below a regular file",
       3,
       {"cannot create output folder"},
       [](Folder& f) {
         write_file(f.root.file("out"), "a file, not a folder");
         auto args = plain_model(f, leaky_relu_xy_model());
         args.insert(args.end(), {"-o", f.root.file("out/sub")});
         return args;
       },
       false},
      {"second output cannot be written: the first is removed",
       3,
       {"cannot write", "output_1.pb"},
       [](Folder& f) {
         onnx::ModelProto m = leaky_relu_xy_model();
         auto* g = m.mutable_graph();
         auto* n = g->add_node();
         n->set_op_type("LeakyRelu");
         n->add_input("X");
         n->add_output("Y2");
         declare(g->add_output(), "Y2", TP::FLOAT, {3});
         fs::create_directories(f.out + "/output_1.pb");  // a folder where the file should go
         return plain_model(f, m);
       }},
      {"--max-memory below what a tensor needs",
       3,
       {"float[1000] needs", "memory limit"},
       [](Folder& f) {
         write_file(f.m + "/data.bin", std::string(4000, '\0'));
         TP x = float_tensor("X", {1000}, {});
         make_external(&x, {{"location", "data.bin"}});
         onnx::ModelProto m = leaky_relu_xy_model(16, TP::FLOAT, {1000});
         *m.mutable_graph()->add_initializer() = x;
         return std::vector<std::string>{f.model(m), "--max-memory", "2K"};
       }},
      {"--max-memory below the model file",
       3,
       {"model.onnx needs", "memory limit"},
       [](Folder& f) {
         return std::vector<std::string>{f.model(leaky_relu_xy_model()), "--max-memory", "16"};
       }},
      // Usage errors.
      {"--max-memory not a size",
       2,
       {"--max-memory", "lots"},
       [](Folder& f) {
         return std::vector<std::string>{f.model(leaky_relu_xy_model()), "--max-memory", "lots"};
       }},
      // An empty size was taken for no option at all: the default limit, without a word.
      {"--max-memory empty",
       2,
       {"--max-memory '': expected a size"},
       [](Folder& f) {
         return std::vector<std::string>{f.model(leaky_relu_xy_model()), "--max-memory", ""};
       }},
      {"unknown flag",
       2,
       {"--frobnicate"},
       [](Folder& f) {
         return std::vector<std::string>{f.model(leaky_relu_xy_model()), "--frobnicate"};
       }},
      {"-i and -d together",
       2,
       {"not both"},
       [](Folder& f) {
         auto args = plain_model(f, leaky_relu_xy_model());
         args.insert(args.end(), {"-d", f.m});
         return args;
       }},
      // Without inputs or test sets onnx-run makes inputs up (a dim nothing binds as 1),
      // unless an input declares no shape at all.
      {"no data and an input that declares no shape",
       2,
       {"input 'X' declares no shape", "--shape X="},
       [](Folder& f) {
         onnx::ModelProto m = leaky_relu_xy_model();
         m.mutable_graph()->mutable_input(0)->mutable_type()->mutable_tensor_type()->clear_shape();
         return std::vector<std::string>{f.model(m)};
       }},
      {"-i NAME= without a file",
       2,
       {"[NAME=]FILE"},
       [](Folder& f) {
         return std::vector<std::string>{f.model(leaky_relu_xy_model()), "-i", "X="};
       }},
      // External data attacks.
      {"external data: '..' in the location",
       3,
       {"'../secret.bin'", "escapes the model's folder"},
       [](Folder& f) {
         return external(f, {{"location", "../secret.bin"}});
       }},
      {"external data: '..' in the middle",
       3,
       {"escapes the model's folder"},
       [](Folder& f) {
         return external(f, {{"location", "sub/../../secret.bin"}});
       }},
      {"external data: absolute path",
       3,
       {"absolute path"},
       [](Folder& f) {
         return external(f, {{"location", f.root.file("secret.bin")}});
       }},
      {"external data: the file is a symlink out",
       3,
       {"symbolic link"},
       [](Folder& f) {
         return external(f, {{"location", "link.bin"}},
                         [](Folder& g) { fs::create_symlink(g.root.file("secret.bin"), g.m + "/link.bin"); });
       }},
      {"external data: the file is a symlink within",
       3,
       {"symbolic link"},
       [](Folder& f) {
         return external(f, {{"location", "link.bin"}},
                         [](Folder& g) { fs::create_symlink("data.bin", g.m + "/link.bin"); });
       }},
      {"external data: a parent folder is a symlink",
       3,
       {"symbolic link"},
       [](Folder& f) {
         return external(f, {{"location", "weights/secret.bin"}},
                         [](Folder& g) { fs::create_directory_symlink(g.root.path(), g.m + "/weights"); });
       }},
      {"external data: the file is a hard link",
       3,
       {"hard link"},
       [](Folder& f) {
         return external(f, {{"location", "hard.bin"}},
                         [](Folder& g) { fs::create_hard_link(g.root.file("secret.bin"), g.m + "/hard.bin"); });
       }},
      {"external data: a folder",
       3,
       {"not a regular file"},
       [](Folder& f) {
         return external(f, {{"location", "dir"}}, [](Folder& g) { fs::create_directories(g.m + "/dir"); });
       }},
      {"external data: file missing",
       3,
       {"cannot open external data", "none.bin"},
       [](Folder& f) {
         return external(f, {{"location", "none.bin"}});
       }},
      {"external data: NUL in the location",
       3,
       {"NUL"},
       [](Folder& f) {
         return external(f, {{"location", std::string("data.bin\0/../../secret.bin", 27)}});
       }},
      {"external data: no location",
       3,
       {"no location"},
       [](Folder& f) {
         return external(f, {{"offset", "0"}});
       }},
      {"external data: unknown key",
       3,
       {"unknown external data key 'basepath'"},
       [](Folder& f) {
         return external(f, {{"location", "data.bin"}, {"basepath", "/"}});
       }},
      {"external data: key given twice",
       3,
       {"'location' is given twice"},
       [](Folder& f) {
         return external(f, {{"location", "data.bin"}, {"location", "../secret.bin"}});
       }},
      {"external data: negative offset",
       3,
       {"offset '-4'", "non-negative"},
       [](Folder& f) {
         return external(f, {{"location", "data.bin"}, {"offset", "-4"}});
       }},
      {"external data: negative length",
       3,
       {"length '-12'"},
       [](Folder& f) {
         return external(f, {{"location", "data.bin"}, {"length", "-12"}});
       }},
      {"external data: offset not a number",
       3,
       {"offset '12abc'"},
       [](Folder& f) {
         return external(f, {{"location", "data.bin"}, {"offset", "12abc"}});
       }},
      {"external data: offset beyond 2^64",
       3,
       {"offset '99999999999999999999'"},
       [](Folder& f) {
         return external(f, {{"location", "data.bin"}, {"offset", "99999999999999999999"}});
       }},
      {"external data: huge offset",
       3,
       {"offset 4611686018427387904", "past the end"},
       [](Folder& f) {
         return external(f, {{"location", "data.bin"}, {"offset", "4611686018427387904"}});
       }},
      {"external data: petabyte length",
       3,
       {"length 1125899906842624", "past the end"},
       [](Folder& f) {
         return external(f, {{"location", "data.bin"}, {"length", "1125899906842624"}});
       }},
      {"external data: offset + length past the end",
       3,
       {"offset 8 + length 12", "past the end"},
       [](Folder& f) {
         return external(f, {{"location", "data.bin"}, {"offset", "8"}, {"length", "12"}});
       }},
      {"external data: length disagrees with dims",
       3,
       {"length 8", "float[3] needs 12 bytes"},
       [](Folder& f) {
         return external(f, {{"location", "data.bin"}, {"length", "8"}});
       }},
      {"external data: file shorter than dims",
       3,
       {"length 8", "needs 12"},
       [](Folder& f) {
         return external(f, {{"location", "data.bin"}, {"offset", "4"}});
       }},
      {"external data and raw_data both",
       3,
       {"both external"},
       [](Folder& f) {
         write_file(f.m + "/data.bin", float_bytes(kX));
         TP x = float_tensor("X", {3}, {});
         make_external(&x, {{"location", "data.bin"}});
         x.set_raw_data(float_bytes(kX));
         return std::vector<std::string>{f.model(with_initializer(x))};
       }},
      {"external_data keys without data_location EXTERNAL",
       3,
       {"data_location"},
       [](Folder& f) {
         TP x = float_tensor("X", {3}, kX);
         auto* e = x.add_external_data();
         e->set_key("location");
         e->set_value("../secret.bin");
         return std::vector<std::string>{f.model(with_initializer(x))};
       }},
      {"external data in an -i file escaping its folder",
       3,
       {"x.pb", "escapes"},
       [](Folder& f) {
         write_file(f.root.file("secret.bin"), float_bytes(kX));
         TP x = float_tensor("X", {3}, {});
         make_external(&x, {{"location", "../secret.bin"}});
         return plain_input(f, x);
       }},
      {"external data in a test set file through a symlink",
       3,
       {"input_0.pb", "symbolic link"},
       [](Folder& f) {
         write_file(f.root.file("secret.bin"), float_bytes(kX));
         fs::create_directories(f.m + "/test_data_set_0");
         fs::create_symlink(f.root.file("secret.bin"), f.m + "/test_data_set_0/x.bin");
         TP x = float_tensor("X", {3}, {});
         make_external(&x, {{"location", "x.bin"}});
         f.pb("test_data_set_0/input_0.pb", x);
         f.pb("test_data_set_0/output_0.pb", float_tensor("Y", {3}, kX));
         return std::vector<std::string>{f.model(leaky_relu_xy_model())};
       }},
  };
  return table;
}

bool folder_has_files(const std::string& dir) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) return false;
  if (!fs::is_directory(dir, ec)) return false;  // a file placed by the row itself
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (!it->is_directory()) return true;
  return false;
}

}  // namespace

TEST_CASE("bad inputs: exit code, one-line message with its words, nothing written", "[cli][bad-input]") {
  for (const Row& row : rows()) {
    SECTION(row.name) {
      Folder f;
      std::vector<std::string> args = row.setup(f);
      if (row.add_output_flag) args.insert(args.end(), {"-o", f.out});
      const ProcessResult r = run_cli(args);
      INFO("stderr: " << r.err);
      CHECK_EXIT(r, row.code);
      for (const std::string& w : row.words) CHECK_THAT(r.err, Catch::Contains(w));
      CHECK(r.err.rfind("onnx-run: ", 0) == 0);
      CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
      CHECK_FALSE(folder_has_files(f.out));
    }
  }
}

TEST_CASE("external data that plays by the rules runs, mapped or copied, checksum key accepted",
          "[cli][external-data]") {
  for (const char* offset : {"0", "4", "5"}) {
    SECTION(std::string("offset ") + offset) {
      Folder f;
      const int off = std::stoi(offset);
      fs::create_directories(f.m + "/weights");
      write_file(f.m + "/weights/w.bin", std::string(static_cast<size_t>(off), 'z') + float_bytes(kX));
      TP x = float_tensor("X", {3}, {});
      make_external(&x, {{"location", "./weights/w.bin"},
                         {"offset", offset},
                         {"length", "12"},
                         {"checksum", "0123456789abcdef0123456789abcdef01234567"}});
      const ProcessResult r = run_cli({f.model(with_initializer(x)), "-o", f.out});
      INFO("stderr: " << r.err);
      REQUIRE_EXIT(r, 0);
      TP y;
      REQUIRE(y.ParseFromString(read_file(f.out + "/output_0.pb")));
      CHECK(y.name() == "Y");
      CHECK(y.raw_data() == float_bytes({-0.01f, 0.f, 2.f}));
    }
  }
}

TEST_CASE("an -i file with external data beside it runs", "[cli][external-data]") {
  Folder f;
  fs::create_directories(f.m + "/in");
  write_file(f.m + "/in/x.bin", float_bytes(kX));
  TP x = float_tensor("X", {3}, {});
  make_external(&x, {{"location", "x.bin"}});
  const ProcessResult r = run_cli({f.model(leaky_relu_xy_model()), "-i", f.pb("in/x.pb", x), "-o", f.out});
  INFO("stderr: " << r.err);
  REQUIRE_EXIT(r, 0);
  TP y;
  REQUIRE(y.ParseFromString(read_file(f.out + "/output_0.pb")));
  CHECK(y.raw_data() == float_bytes({-0.01f, 0.f, 2.f}));
}
