// Every door of `onnx-run MODEL -i ...` (and `-d SET`) gives the same bytes whichever way the run goes:
// block by block (--exec-path blocks, on one thread or with blocks side by side on three)
// or whole (--exec-path whole). The text report, -q,
// --json, -o in each format, --dump-intermediates and --save-inputs are compared byte for
// byte, over the four float types, the shape classes (empty, one element, small, over the summary
// limit and several blocks long; 0-d in tests/unit/suite/streamed_run_test.cc) and the input formats (.pb, .npy, stored and deflated .npz).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/tensor.h"
#include "io/npy.h"
#include "io/npz.h"
#include "support/check_exit.h"
#include "support/model_builder.h"
#include "support/paths.h"
#include "support/process.h"
#include "support/tensor_bytes.h"

using namespace onnxrun;
using namespace onnxrun::test;
namespace fs = std::filesystem;
using TP = onnx::TensorProto;

namespace {

// LeakyRelu-16 twice over x[a, b] (a chain), or the LeakyRelu body written out over two
// inputs with two outputs: out = Where(Less(x, 0), Mul(y, x), x) and neg = Less(x, 0).
std::string chain_model(const std::string& dir, int elem) {
  onnx::ModelProto m = make_model(16);
  add_symbolic_input(m, "x", elem, {"a", "b"});
  add_output(m, "y", elem, {-1, -1});
  add_float_attr(*add_node(m, "LeakyRelu", {"x"}, {"h"}, "first"), "alpha", 0.1f);
  add_float_attr(*add_node(m, "LeakyRelu", {"h"}, {"y"}, "second"), "alpha", 3.0f);
  return save_model(m, dir + "/chain.onnx");
}

std::string body_model(const std::string& dir) {
  onnx::ModelProto m = make_model(16);
  add_symbolic_input(m, "x", TP::FLOAT, {"a", "b"});
  add_symbolic_input(m, "y", TP::FLOAT, {"c", "d"});  // may broadcast against x
  add_output(m, "out", TP::FLOAT, {-1, -1});
  add_output(m, "neg", TP::BOOL, {-1, -1});
  add_tensor_attr(*add_node(m, "Constant", {}, {"zero"}, "zero"), "value", float_tensor("", {}, {0.0f}));
  add_node(m, "Less", {"x", "zero"}, {"neg"}, "less");
  add_node(m, "Mul", {"y", "x"}, {"scaled"}, "mul");
  add_node(m, "Where", {"neg", "scaled", "x"}, {"out"}, "where");
  return save_model(m, dir + "/body.onnx");
}

// z = Mul(x, CastLike(0.5, x)): the CastLike output has its first input's shape, one
// element, as a dumped value and, with `scalar_output`, as a graph output too.
std::string cast_like_model(const std::string& dir, bool scalar_output) {
  onnx::ModelProto m = make_model(16);
  add_symbolic_input(m, "x", TP::FLOAT, {"a", "b"});
  add_output(m, "z", TP::FLOAT, {-1, -1});
  if (scalar_output) add_output(m, "ac", TP::FLOAT, {});
  add_tensor_attr(*add_node(m, "Constant", {}, {"a"}, "half"), "value", float_tensor("", {}, {0.5f}));
  add_node(m, "CastLike", {"a", "x"}, {"ac"}, "cast");
  add_node(m, "Mul", {"x", "ac"}, {"z"}, "mul");
  return save_model(m, dir + (scalar_output ? "/cast_like_out.onnx" : "/cast_like.onnx"));
}

// Values of every kind: mostly ordinary, some NaN, infinities, signed zeros, subnormals
// and extremes, as random bits give them.
Tensor sample(DType dtype, const Shape& shape, uint32_t seed) {
  Tensor t(dtype, shape);
  std::mt19937 rng(seed);
  auto* b = static_cast<unsigned char*>(t.mutable_raw());
  std::normal_distribution<float> normal(0, 3);
  const size_t n = static_cast<size_t>(t.numel());
  for (size_t i = 0; i < n; ++i) {
    const float v = rng() % 50 == 0 ? 0.0f : normal(rng);
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    if (rng() % 40 == 0) bits = rng();  // anything at all
    switch (dtype) {
      case DType::kFloat: std::memcpy(b + 4 * i, &bits, 4); break;
      case DType::kDouble: {
        const double d = rng() % 40 == 0 ? -0.0 : static_cast<double>(v) * 1.000001;
        std::memcpy(b + 8 * i, &d, 8);
        break;
      }
      case DType::kFloat16: {
        const uint16_t h = static_cast<uint16_t>(rng() % 30 == 0 ? rng() : 0x3c00u + (rng() % 2048) - 1024);
        std::memcpy(b + 2 * i, &h, 2);
        break;
      }
      default: {  // bfloat16: the top half of a float
        const uint16_t h = static_cast<uint16_t>(bits >> 16);
        std::memcpy(b + 2 * i, &h, 2);
      }
    }
  }
  return t;
}

int onnx_code(DType t) { return static_cast<int>(t); }

// `t` as NAME.pb / NAME.npy (bfloat16 as its '<u2' bits) / in.npz (stored; "deflated"
// through numpy's savez_compressed). Returns the -i or --npz arguments that feed it.
std::vector<std::string> write_input(const TempDir& dir, const std::string& name, const Tensor& t,
                                     const std::string& format) {
  const std::string path = dir.file(name + "." + (format == "deflated" ? "npz" : format));
  if (format == "pb") {
    TP p;
    p.set_name(name);
    p.set_data_type(onnx_code(t.dtype()));
    for (int64_t d : t.shape()) p.add_dims(d);
    p.set_raw_data(std::string(static_cast<const char*>(t.raw()), t.nbytes()));
    write_message(path, p);
    return {"-i", name + "=" + path};
  }
  const Tensor as_numpy =
      t.dtype() == DType::kBFloat16 ? Tensor(DType::kUInt16, t.shape(), t.buffer()) : t;  // numpy has no bfloat16
  if (format == "npy") {
    write_file(path, npy_bytes(as_numpy));
    return {"-i", name + "=" + path};
  }
  write_file(path, npz_bytes({{name, as_numpy}}));
  if (format == "deflated") {
    const ProcessResult r = run_process(
        {"/usr/bin/python3", "-c",
         "import numpy as np, sys; a = dict(np.load(sys.argv[1])); np.savez_compressed(sys.argv[1], **a)", path});
    REQUIRE_EXIT(r, 0);
  }
  return {"--npz", path};
}

// Every file under `dir`, relative path -> bytes.
std::map<std::string, std::string> files_under(const std::string& dir) {
  std::map<std::string, std::string> out;
  std::error_code ec;
  for (const auto& e : fs::recursive_directory_iterator(dir, ec))
    if (e.is_regular_file()) out[fs::relative(e.path(), dir).string()] = read_file(e.path().string());
  return out;
}

// JSON without its timings (the run's, and each test set's), which differ from run to run.
std::string without_timings(const std::string& json) {
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(json);
  j.erase("timings_ms");
  if (j.contains("test_sets"))
    for (auto& set : j["test_sets"]) set.erase("timings_ms");
  return j.dump(1);
}

struct Door {
  std::string name;
  std::vector<std::string> args;  // OUT stands for the door's output folder
};

const std::vector<Door>& doors() {
  static const std::vector<Door> d = {
      {"text", {}},
      {"-q", {"-q"}},
      {"--json", {"--json"}},
      {"-o pb", {"-o", "OUT"}},
      {"-q -o npy", {"-q", "-o", "OUT", "--format", "npy"}},
      {"-o npz --json", {"-o", "OUT", "--format", "npz", "--json"}},
      {"--dump-intermediates", {"-q", "--dump-intermediates", "OUT", "--format", "npy"}},
      {"--save-inputs pb", {"--save-inputs", "OUT"}},
      {"--save-inputs npz -o npz", {"-q", "--save-inputs", "OUT", "-o", "OUT", "--format", "npz"}},
  };
  return d;
}

// Runs `model` on `feed` through every door three ways and compares what each leaves with
// the whole run's: whole, block by block on one thread, and block by block on three
// threads (three lanes of blocks side by side, whatever this machine's core count, for
// the .pb and .npy inputs that can be read in any order).
// `code`: the exit status every way must give (1: a test set that fails its check).
void check_every_door(const std::string& model, const std::vector<std::string>& feed, bool expect_blocks,
                      int code = 0) {
  for (const Door& door : doors()) {
    CAPTURE(door.name);
    constexpr int kWays = 3;
    std::string stdout_of[kWays];
    std::map<std::string, std::string> files_of[kWays];
    const std::vector<std::string> ways[kWays] = {{"--exec-path", "whole"},
                                                  {"--exec-path", "blocks", "--threads", "1"},
                                                  {"--exec-path", "blocks", "--threads", "3"}};
    for (int k = 0; k < kWays; ++k) {
      CAPTURE(k);
      TempDir out;
      std::vector<std::string> args{model};
      args.insert(args.end(), feed.begin(), feed.end());
      for (const std::string& a : door.args) args.push_back(a == "OUT" ? out.path() + "/o" : a);
      args.insert(args.end(), ways[k].begin(), ways[k].end());
      args.push_back("-v");
      const ProcessResult r = run_cli(args);
      REQUIRE_EXIT(r, code);
      // -v says which way it went; -q silences that too.
      const bool quiet = std::find(door.args.begin(), door.args.end(), "-q") != door.args.end();
      const bool blocks = r.err.find("ran block by block") != std::string::npos;
      if (!quiet) CHECK(blocks == (k > 0 && expect_blocks));
      const bool json = std::find(door.args.begin(), door.args.end(), "--json") != door.args.end();
      stdout_of[k] = json ? without_timings(r.out) : r.out;
      files_of[k] = files_under(out.path());
    }
    for (int k = 1; k < kWays; ++k) {
      CAPTURE(k);
      CHECK(stdout_of[0] == stdout_of[k]);
      CHECK(files_of[0].size() == files_of[k].size());
      for (const auto& [name, bytes] : files_of[0]) {
        CAPTURE(name);
        CHECK((files_of[k].count(name) && files_of[k].at(name) == bytes));
      }
    }
  }
}

}  // namespace

TEST_CASE("every door prints and writes the same for a float chain, whole or block by block", "[cli][streaming]") {
  TempDir dir;
  const std::string model = chain_model(dir.path(), TP::FLOAT);
  // Several blocks and summarised; small; empty (a zero dim); one element.
  for (const Shape& shape : {Shape{700, 1001}, Shape{3, 5}, Shape{0, 7}, Shape{1, 1}})
    for (const std::string format : {"pb", "npy", "npz", "deflated"}) {
      CAPTURE(shape_to_string(shape), format);
      const Tensor x = sample(DType::kFloat, shape, 7);
      check_every_door(model, write_input(dir, "x", x, format), true);
    }
}

TEST_CASE("every door prints and writes the same for double, float16 and bfloat16 chains", "[cli][streaming]") {
  TempDir dir;
  for (DType t : {DType::kDouble, DType::kFloat16, DType::kBFloat16}) {
    const std::string model = chain_model(dir.path(), onnx_code(t));
    for (const Shape& shape : {Shape{1200, 1001}, Shape{5, 0}})
      for (const std::string format : {"pb", "npy"}) {
        CAPTURE(dtype_name(t), shape_to_string(shape), format);
        check_every_door(model, write_input(dir, "x", sample(t, shape, 9), format), true);
      }
  }
}

TEST_CASE("every door prints and writes the same for a two-input, two-output body graph", "[cli][streaming]") {
  TempDir dir;
  const std::string model = body_model(dir.path());
  for (const std::string format : {"pb", "npz"}) {
    CAPTURE(format);
    const Shape shape{650, 1003};
    std::vector<std::string> feed = write_input(dir, "x", sample(DType::kFloat, shape, 1), format);
    const std::vector<std::string> y = write_input(dir, "y", sample(DType::kFloat, shape, 2), format);
    feed.insert(feed.end(), y.begin(), y.end());
    check_every_door(model, feed, true);
  }
}

TEST_CASE("every door prints and writes the same for a test set, whole or block by block", "[cli][streaming]") {
  TempDir dir;
  const std::string model = chain_model(dir.path(), TP::FLOAT);
  for (const Shape& shape : {Shape{700, 1001}, Shape{3, 5}, Shape{0, 7}}) {
    CAPTURE(shape_to_string(shape));
    // test_data_set_0: the input, and the output a whole run makes of it (the set passes).
    const std::string set = dir.file("test_data_set_0");
    fs::remove_all(set);
    fs::create_directories(set);
    const std::vector<std::string> x = write_input(dir, "x", sample(DType::kFloat, shape, 11), "pb");
    fs::copy_file(x[1].substr(2), set + "/input_0.pb");
    REQUIRE_EXIT(run_cli({model, "-i", x[1], "-q", "-o", set, "--exec-path", "whole"}), 0);
    check_every_door(model, {"-d", set}, true);
    // The same set with its output's first element off: every way fails it alike.
    if (shape[0] * shape[1] == 0) continue;
    std::string y = read_file(set + "/output_0.pb");
    y[y.size() - 4 * static_cast<size_t>(shape[0] * shape[1]) + 3] ^= 0x40;  // its exponent
    write_file(set + "/output_0.pb", y);
    check_every_door(model, {"-d", set}, true, 1);
  }
}

// CastLike's output was planned as block-sized, like its second input: a block run wrote
// 8 bytes where it expected the whole tensor ("internal error: ... 32 bytes of data
// written, 8000000 expected"), in every door.
TEST_CASE("a scalar CastLike makes of a block-sized input is one element, dumped or an output", "[cli][streaming]") {
  TempDir dir;
  const auto x = write_input(dir, "x", sample(DType::kFloat, {700, 1001}, 5), "npy");
  check_every_door(cast_like_model(dir.path(), false), x, true);
  check_every_door(cast_like_model(dir.path(), true), x, false);  // a scalar output: whole
}

TEST_CASE("a run that cannot go block by block says so with -v and runs whole", "[cli][streaming]") {
  TempDir dir;
  const std::string model = body_model(dir.path());
  // Inputs of different shapes broadcast: whole. A literal: whole.
  const auto x = write_input(dir, "x", sample(DType::kFloat, {300, 1000}, 1), "pb");
  const auto y = write_input(dir, "y", sample(DType::kFloat, {1, 1000}, 2), "pb");
  std::vector<std::string> feed = x;
  feed.insert(feed.end(), y.begin(), y.end());
  check_every_door(model, feed, false);
  check_every_door(chain_model(dir.path(), TP::FLOAT), {"-i", "x=[[1,-2],[3,-4]]"}, false);
}

TEST_CASE("-v says how many blocks ran side by side, and which inputs keep a run to one at a time",
          "[cli][streaming]") {
  TempDir dir;
  const std::string model = chain_model(dir.path(), TP::FLOAT);
  const Tensor x = sample(DType::kFloat, {700, 1001}, 3);  // 2.8 MB: three 1 MiB blocks
  struct Case {
    std::string format;
    std::vector<std::string> extra;
    bool side_by_side;
  };
  const Case cases[] = {
      {"pb", {"--threads", "3"}, true},
      {"npy", {"--threads", "2"}, true},
      {"npz", {"--threads", "3"}, true},        // stored: read in any order
      {"deflated", {"--threads", "3"}, false},  // inflated in order
      {"pb", {"--threads", "1"}, false},
      {"pb", {"--threads", "3", "--dump-intermediates", "DUMP"}, false},  // values in order
  };
  for (const Case& c : cases) {
    CAPTURE(c.format, c.extra);
    TempDir out;
    std::vector<std::string> args{model};
    const std::vector<std::string> feed = write_input(dir, "x", x, c.format);
    args.insert(args.end(), feed.begin(), feed.end());
    for (const std::string& a : c.extra) args.push_back(a == "DUMP" ? out.path() + "/d" : a);
    args.insert(args.end(), {"--exec-path", "blocks", "-v"});
    const ProcessResult r = run_cli(args);
    REQUIRE_EXIT(r, 0);
    CHECK_THAT(r.err, Catch::Contains("ran block by block (1024 KiB blocks"));
    const std::string lanes = c.extra[1] == "2" ? "2 side by side" : "3 side by side";
    CHECK((r.err.find(lanes) != std::string::npos) == c.side_by_side);
    if (!c.side_by_side) CHECK(r.err.find("side by side") == std::string::npos);
  }
}

TEST_CASE("onnx-run test runs a large test set block by block and judges it as a whole run does", "[cli][streaming]") {
  TempDir dir;
  const std::string test = dir.file("suite/chain");
  fs::create_directories(test + "/test_data_set_0");
  const std::string model = chain_model(test, TP::FLOAT);
  fs::rename(model, test + "/model.onnx");
  // 4.8 MB of input, past the size from which a run goes block by block by itself; the
  // expected output is the run's own with every third element 1% off.
  const Tensor x = sample(DType::kFloat, {1200, 1001}, 13);
  const std::string set = test + "/test_data_set_0";
  const std::string input = write_input(dir, "x", x, "pb")[1];
  fs::copy_file(input.substr(2), set + "/input_0.pb");
  REQUIRE_EXIT(run_cli({test + "/model.onnx", "-i", input, "-q", "-o", set}), 0);
  std::string y = read_file(set + "/output_0.pb");
  const size_t data = y.size() - x.nbytes();
  for (size_t k = 0; k < static_cast<size_t>(x.numel()); k += 3) {
    float v;
    std::memcpy(&v, &y[data + 4 * k], 4);
    v *= 1.01f;
    std::memcpy(&y[data + 4 * k], &v, 4);
  }
  write_file(set + "/output_0.pb", y);

  const ProcessResult tested = run_cli({"test", dir.file("suite"), "-v"});
  REQUIRE_EXIT(tested, 1);
  CHECK_THAT(tested.err, Catch::Contains("ran block by block"));
  const ProcessResult whole = run_cli({test + "/model.onnx", "-d", set, "--exec-path", "whole", "-v"});
  REQUIRE_EXIT(whole, 1);
  CHECK(whole.err.find("ran block by block") == std::string::npos);
  // The verdict's line (what differs, the worst element, what tolerance would pass) is
  // the same either way.
  const size_t at = tested.out.find("elements differ; worst");
  REQUIRE(at != std::string::npos);
  const std::string verdict = tested.out.substr(at, tested.out.find('\n', at) - at);
  CHECK_THAT(whole.out, Catch::Contains(verdict));
}
