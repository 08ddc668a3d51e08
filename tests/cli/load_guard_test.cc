// Regression tests for the fuzzing campaign of issue 12: models and tensor files that
// crashed onnx-run or were judged by the wrong reader. Each is refused at the door it
// comes through (one `onnx-run: ` line, exit 3, nothing written) or, where the input was
// valid, now runs.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/error.h"
#include "core/tensor.h"
#include "exec/executor.h"
#include "io/npy.h"
#include "io/streamed_tensor_file.h"
#include "io/tensor_file.h"
#include "model/load.h"
#include "suite/case_runner.h"
#include "suite/discovery.h"
#include "suite/outcome.h"
#include "support/check_exit.h"
#include "support/model_builder.h"
#include "support/paths.h"
#include "support/process.h"
#include "support/shortcuts.h"

using namespace onnxrun;
using namespace onnxrun::test;
namespace fs = std::filesystem;
using TP = onnx::TensorProto;

namespace {

constexpr int kFloat = TP::FLOAT;

struct Folder {
  TempDir root;
  std::string m = root.file("m");
  std::string out = root.file("out");
  Folder() { fs::create_directories(m); }
  std::string model(const onnx::ModelProto& proto) const { return save_model(proto, m + "/model.onnx"); }
};

// A graph input or output of element type float whose rank is not declared.
void add_unranked(google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>* list, const std::string& name) {
  auto* v = list->Add();
  v->set_name(name);
  v->mutable_type()->mutable_tensor_type()->set_elem_type(kFloat);
}

// X float[3] -> op(inputs) named 'n' -> Y (`out_elem`[3]).
onnx::ModelProto one_node(const std::string& op, const std::vector<std::string>& inputs, int64_t opset = 16,
                          int out_elem = kFloat) {
  onnx::ModelProto m = make_model(opset);
  add_input(m, "X", kFloat, {3});
  add_output(m, "Y", out_elem, {3});
  add_node(m, op, inputs, {"Y"}, "n");
  return m;
}

// LeakyRelu X -> Y with neither rank declared.
onnx::ModelProto unranked_leaky_relu() {
  onnx::ModelProto m = make_model(16);
  add_unranked(m.mutable_graph()->mutable_input(), "X");
  add_unranked(m.mutable_graph()->mutable_output(), "Y");
  add_node(m, "LeakyRelu", {"X"}, {"Y"}, "n");
  return m;
}

std::vector<int64_t> ones(size_t rank) { return std::vector<int64_t>(rank, 1); }

std::string ones_list(size_t rank) {
  std::string s;
  for (size_t k = 0; k < rank; ++k) s += k ? ",1" : "1";
  return s;
}

// A .npy (version 1.0) of one float 1.0 with shape (1, 1, ..., 1) of `rank`.
std::string npy_of_rank(size_t rank) {
  std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (";
  for (size_t k = 0; k < rank; ++k) dict += "1, ";
  dict += "), }";
  while ((10 + dict.size() + 1) % 64) dict += ' ';
  dict += '\n';
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(dict.size() & 0xff);
  out += static_cast<char>(dict.size() >> 8);
  return out + dict + float_bytes({1.f});
}

struct Row {
  const char* name;
  std::vector<std::string> words;
  std::function<std::vector<std::string>(Folder&)> setup;  // returns the arguments (without -o)
};

std::vector<std::string> with_x(Folder& f, const onnx::ModelProto& m) {
  write_message(f.m + "/x.pb", float_tensor("X", {3}, {-1.f, 0.f, 2.f}));
  return {f.model(m), "-i", "X=" + f.m + "/x.pb"};
}

const std::vector<Row>& rows() {
  static const std::vector<Row> table = {
      // Finding 1: a required input named '' (ONNX's absent optional input).
      {"Mul(X, '')",
       {"node 'n' (Mul): input 1 is required but its name is empty"},
       [](Folder& f) {
         return with_x(f, one_node("Mul", {"X", ""}));
       }},
      {"Mul('', X)",
       {"node 'n' (Mul): input 0 is required but its name is empty"},
       [](Folder& f) {
         return with_x(f, one_node("Mul", {"", "X"}));
       }},
      {"Less(X, '')",
       {"node 'n' (Less): input 1 is required but its name is empty"},
       [](Folder& f) {
         return with_x(f, one_node("Less", {"X", ""}, 16, TP::BOOL));
       }},
      {"Where('', X, X)",
       {"node 'n' (Where): input 0 is required but its name is empty"},
       [](Folder& f) {
         return with_x(f, one_node("Where", {"", "X", "X"}));
       }},
      {"CastLike(X, '')",
       {"node 'n' (CastLike): input 1 is required but its name is empty"},
       [](Folder& f) {
         return with_x(f, one_node("CastLike", {"X", ""}));
       }},
      {"LeakyRelu('')",
       {"node 'n' (LeakyRelu): input 0 is required but its name is empty"},
       [](Folder& f) { return with_x(f, one_node("LeakyRelu", {""})); }},
      {"Mul(a, '') in a local function's body",
       {"(Mul): input 1 is required but its name is empty"},
       [](Folder& f) {
         onnx::ModelProto m = make_model(16, {"local"});
         onnx::FunctionProto fn = make_function("local", "Twice", {"a"}, {"b"}, 16);
         *fn.add_node() = make_node("Mul", {"a", ""}, {"b"});
         *m.add_functions() = fn;
         add_input(m, "X", kFloat, {3});
         add_output(m, "Y", kFloat, {3});
         add_node(m, "Twice", {"X"}, {"Y"}, "call")->set_domain("local");
         return with_x(f, m);
       }},
      {"a local function called with '' for the input its body needs",
       {"(Mul): input 1 is required but its name is empty"},
       [](Folder& f) {
         onnx::ModelProto m = make_model(16, {"local"});
         onnx::FunctionProto fn = make_function("local", "Times", {"a", "s"}, {"b"}, 16);
         *fn.add_node() = make_node("Mul", {"a", "s"}, {"b"});
         *m.add_functions() = fn;
         add_input(m, "X", kFloat, {3});
         add_output(m, "Y", kFloat, {3});
         add_node(m, "Times", {"X", ""}, {"Y"}, "call")->set_domain("local");
         return with_x(f, m);
       }},
      // Finding 2: shapes of a rank above kMaxRank, at every door.
      {"-i .pb of rank 30000",
       {"x.pb", "rank 30000", "limit of 1024 dimensions"},
       [](Folder& f) {
         write_message(f.m + "/x.pb", float_tensor("X", ones(30000), {1.f}));
         return std::vector<std::string>{f.model(unranked_leaky_relu()), "-i", "X=" + f.m + "/x.pb"};
       }},
      {"-i .pb of rank 30000 with packed dims",
       {"x.pb", "rank 30000", "limit of 1024 dimensions"},
       [](Folder& f) {
         // dims (field 1) as one packed field of 30000 varints, as proto3 writers emit
         // them, then data_type FLOAT, name 'X' and 4 bytes of raw_data.
         std::string pb = "\x0a\xb0\xea\x01" + std::string(30000, '\x01');
         pb += std::string("\x10\x01\x42\x01X\x4a\x04", 7) + float_bytes({1.f});
         write_file(f.m + "/x.pb", pb);
         return std::vector<std::string>{f.model(unranked_leaky_relu()), "-i", "X=" + f.m + "/x.pb"};
       }},
      {"-i .npy of rank 2000",
       {"x.npy", "rank 2000", "limit of 1024 dimensions"},
       [](Folder& f) {
         write_file(f.m + "/x.npy", npy_of_rank(2000));
         return std::vector<std::string>{f.model(unranked_leaky_relu()), "-i", "X=" + f.m + "/x.npy"};
       }},
      {"graph input declared with rank 2000 (made-up input)",
       {"'X'", "rank 2000", "limit of 1024 dimensions"},
       [](Folder& f) {
         onnx::ModelProto m = make_model(16);
         add_input(m, "X", kFloat, ones(2000));
         add_unranked(m.mutable_graph()->mutable_output(), "Y");
         add_node(m, "LeakyRelu", {"X"}, {"Y"}, "n");
         return std::vector<std::string>{f.model(m)};
       }},
      {"graph output declared with rank 2000",
       {"'Y'", "rank 2000", "limit of 1024 dimensions"},
       [](Folder& f) {
         onnx::ModelProto m = make_model(16);
         add_input(m, "X", kFloat, {3});
         add_output(m, "Y", kFloat, ones(2000));
         add_node(m, "LeakyRelu", {"X"}, {"Y"}, "n");
         return with_x(f, m);
       }},
      {"initializer of rank 2000",
       {"initializer 'X'", "rank 2000", "limit of 1024 dimensions"},
       [](Folder& f) {
         onnx::ModelProto m = unranked_leaky_relu();
         *m.mutable_graph()->add_initializer() = float_tensor("X", ones(2000), {1.f});
         return std::vector<std::string>{f.model(m)};
       }},
      {"Constant value of rank 2000",
       {"(Constant)", "rank 2000", "limit of 1024 dimensions"},
       [](Folder& f) {
         onnx::ModelProto m = make_model(16);
         add_unranked(m.mutable_graph()->mutable_output(), "Y");
         onnx::NodeProto* n = add_node(m, "Constant", {}, {"Y"}, "c");
         auto* a = n->add_attribute();
         a->set_name("value");
         a->set_type(onnx::AttributeProto::TENSOR);
         *a->mutable_t() = float_tensor("", ones(2000), {1.f});
         return std::vector<std::string>{f.model(m)};
       }},
      {"--shape of rank 2000",
       {"--shape X", "rank 2000", "limit of 1024 dimensions"},
       [](Folder& f) {
         onnx::ModelProto m = make_model(16);
         add_symbolic_input(m, "X", kFloat, {"N"});
         m.mutable_graph()->mutable_input(0)->mutable_type()->mutable_tensor_type()->clear_shape();
         add_unranked(m.mutable_graph()->mutable_output(), "Y");
         add_node(m, "LeakyRelu", {"X"}, {"Y"}, "n");
         return std::vector<std::string>{f.model(m), "--shape", "X=" + ones_list(2000)};
       }},
      {"-i literal with --shape of rank 2000",
       {"--shape X", "rank 2000", "limit of 1024 dimensions"},
       [](Folder& f) {
         return std::vector<std::string>{f.model(unranked_leaky_relu()), "-i", "X=[1]", "--shape",
                                         "X=" + ones_list(2000)};
       }},
  };
  return table;
}

bool folder_has_files(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return false;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (!it->is_directory()) return true;
  return false;
}

void check_one_line_refusal(const ProcessResult& r, const std::vector<std::string>& words) {
  INFO("stderr: " << r.err);
  CHECK_EXIT(r, 3);
  for (const std::string& w : words) CHECK_THAT(r.err, Catch::Contains(w));
  CHECK(r.err.rfind("onnx-run: ", 0) == 0);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
}

}  // namespace

TEST_CASE("issue 12: empty required inputs and huge ranks are refused in one line, exit 3", "[cli][issue12]") {
  for (const Row& row : rows()) {
    SECTION(row.name) {
      Folder f;
      std::vector<std::string> args = row.setup(f);
      args.insert(args.end(), {"-o", f.out});
      check_one_line_refusal(run_cli(args), row.words);
      CHECK_FALSE(folder_has_files(f.out));
    }
  }
}

TEST_CASE("issue 12: info describes a node with an empty required input and says not runnable", "[cli][issue12]") {
  Folder f;
  const std::string model = f.model(one_node("Mul", {"X", ""}));
  const ProcessResult text = run_cli({"info", model});
  INFO("stdout: " << text.out << "\nstderr: " << text.err);
  CHECK_EXIT(text, 0);
  CHECK_THAT(text.out,
             Catch::Contains("n  Mul  ai.onnx opset 16 -> INVALID (input 1 is required but its name is empty)"));
  CHECK_THAT(text.out, Catch::Contains("runnable:       no, because:\n"
                                       "  Mul (1 node): invalid model: input 1 is required but its name is empty\n"));
  const ProcessResult json = run_cli({"info", model, "--json"});
  INFO("json: " << json.out);
  CHECK_EXIT(json, 0);
  CHECK_THAT(json.out, Catch::Contains("\"reason\": \"input 1 is required but its name is empty\""));
  CHECK_THAT(json.out, Catch::Contains("\"invalid\": true"));
  CHECK_THAT(json.out, Catch::Contains("\"runnable\": false"));
  CHECK_THAT(json.out,
             Catch::Contains("\"not_runnable_because\": [\n"
                             "    \"Mul (1 node): invalid model: input 1 is required but its name is empty\"\n  ]"));
}

TEST_CASE("issue 12: the executor refuses an empty required input in a graph built past the loader", "[issue12]") {
  const std::string bytes = serialize(one_node("Mul", {"X", "X"}));
  Model m = load_model_from_bytes(bytes.data(), bytes.size(), ".");
  m.graph.nodes[0].inputs[1] = "";
  try {
    Executor exec(std::move(m.graph));
    FAIL("the executor accepted Mul(X, '')");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::kInvalid);
    CHECK_THAT(e.what(), Catch::Contains("input 1 is required but its name is empty"));
  }
}

TEST_CASE("issue 12: check_rank allows kMaxRank dimensions and refuses one more", "[issue12]") {
  CHECK(kMaxRank == 1024);
  CHECK_NOTHROW(check_rank(kMaxRank));
  CHECK(checked_numel(Shape(kMaxRank, 1)) == 1);
  try {
    checked_numel(Shape(kMaxRank + 1, 1));
    FAIL("rank 1025 accepted");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::kInvalid);
    CHECK_THAT(e.what(), Catch::Contains("rank 1025 is above the limit of 1024 dimensions"));
  }
}

TEST_CASE("issue 12: a model over 2 GiB is refused by size before protobuf sees it", "[issue12]") {
  CHECK_NOTHROW(check_model_size(0));
  CHECK_NOTHROW(check_model_size(static_cast<size_t>(INT_MAX)));
  for (size_t n : {static_cast<size_t>(INT_MAX) + 1, size_t{3} << 30, size_t{5} << 30}) {
    try {
      check_model_size(n);
      FAIL("accepted " << n);
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::kUnsupported);
      CHECK_THAT(e.what(), Catch::Contains(fmt::format("model file is {} bytes; protobuf cannot parse a ModelProto "
                                                       "over 2 GiB",
                                                       n)));
    }
  }
}

TEST_CASE("issue 12: a 64 MiB .npy input runs on the block path's door", "[cli][issue12]") {
  Folder f;
  const int64_t n = int64_t{16} << 20;  // 64 MiB of float: many blocks
  {
    Tensor x(DType::kFloat, {n});
    float* p = x.mutable_data<float>();
    for (int64_t k = 0; k < n; ++k) p[k] = (k % 2 ? -2.f : 3.f);
    write_npy_file(f.m + "/x.npy", x);
  }
  const std::string model = f.model(leaky_relu_xy_model(16, kFloat, {n}));
  const ProcessResult r = run_cli({model, "-i", "X=" + f.m + "/x.npy", "-o", f.out, "-q"});
  fs::remove(f.m + "/x.npy");
  INFO("stderr: " << r.err);
  REQUIRE_EXIT(r, 0);
  const NamedTensor y = read_tensor_file(f.out + "/output_0.pb");
  REQUIRE(y.tensor.shape() == Shape{n});
  const float* q = y.tensor.data<float>();
  CHECK(q[0] == 3.f);
  CHECK(q[1] == -0.02f);
  CHECK(q[n - 1] == -0.02f);
}

TEST_CASE("issue 12: a model that is a FIFO fails at once, without blocking", "[cli][issue12]") {
  Folder f;
  const std::string fifo = f.m + "/model.onnx";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  fs::create_symlink(fifo, f.m + "/link.onnx");
  for (const std::string& path : {fifo, f.m + "/link.onnx"}) {
    // `timeout`: before the fix the open waited for a writer that never comes.
    const ProcessResult r = run_process({"/usr/bin/timeout", "20", onnx_run_binary(), path, "-o", f.out});
    check_one_line_refusal(r, {path, "is not a regular file (a FIFO)"});
  }
}

TEST_CASE("issue 12: test discovery reports a FIFO model as an error, never opening it", "[issue12]") {
  TempDir d;
  fs::create_directories(d.file("tree/fifo_case"));
  REQUIRE(::mkfifo(d.file("tree/fifo_case/model.onnx").c_str(), 0600) == 0);
  REQUIRE(::mkfifo(d.file("tree/lone.onnx").c_str(), 0600) == 0);
  fs::create_directories(d.file("tree/good"));
  save_model(leaky_relu_xy_model(), d.file("tree/good/model.onnx"));
  const std::vector<TestCase> tests = discover_tests({d.file("tree")});
  std::vector<std::string> names;
  for (const TestCase& t : tests) names.push_back(t.name);
  CHECK(names == std::vector<std::string>{"fifo_case", "good", "lone"});
  for (const TestCase& t : tests) {
    if (t.name == "good") continue;
    const TestResult r = run_case(t, {});
    INFO(t.name << ": " << r.message);
    CHECK(r.outcome == Outcome::kError);
    CHECK_THAT(r.message, Catch::Contains("is not a regular file (a FIFO)"));
  }
  // Named directly, too.
  const std::vector<TestCase> direct = discover_tests({d.file("tree/lone.onnx")});
  REQUIRE(direct.size() == 1);
  CHECK(run_case(direct[0], {}).outcome == Outcome::kError);
}
