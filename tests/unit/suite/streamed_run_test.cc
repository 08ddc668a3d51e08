// The run pipeline's block path (suite/streamed_run.h) in the library: the digests of a
// run in many small blocks are the whole run's, bit for bit; and the runs it must leave
// to the whole path (0-d inputs, callers that keep tensors, literals) go there.
#include <catch2/catch.hpp>

#include <cstring>
#include <random>

#include "suite/run.h"
#include "support/model_builder.h"
#include "support/paths.h"

using namespace onnxrun;
using namespace onnxrun::test;

namespace {

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void check_same_digest(const ValueDigest& a, const ValueDigest& b) {
  REQUIRE(a.valid());
  REQUIRE(b.valid());
  CHECK(describe(a) == describe(b));
  CHECK(a.stats.count == b.stats.count);
  CHECK(a.stats.nan == b.stats.nan);
  CHECK(a.stats.pos_inf == b.stats.pos_inf);
  CHECK(same_bits(a.stats.min, b.stats.min));
  CHECK(same_bits(a.stats.max, b.stats.max));
  CHECK(same_bits(a.stats.mean, b.stats.mean));
  CHECK(same_bits(a.stats.std, b.stats.std));
  REQUIRE(a.shown.nbytes() == b.shown.nbytes());
  CHECK(std::memcmp(a.shown.raw(), b.shown.raw(), a.shown.nbytes()) == 0);
}

// A .pb of n floats with NaN and infinities among them, for x[n] of `model`.
std::string write_floats(const TempDir& dir, const std::vector<int64_t>& dims, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(1, 4);
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  std::vector<float> v(static_cast<size_t>(n));
  for (float& x : v) x = rng() % 101 == 0 ? (rng() % 2 ? NAN : INFINITY) : normal(rng);
  const std::string path = dir.file("x.pb");
  write_message(path, float_tensor("x", dims, v));
  return path;
}

// x -> LeakyRelu -> y, x of `dims` (empty: 0-d) or, by default, [n].
std::string model(const TempDir& dir, const std::vector<int64_t>* dims = nullptr) {
  onnx::ModelProto m = make_model(16);
  if (dims) {
    add_input(m, "x", onnx::TensorProto::FLOAT, *dims);
    add_output(m, "y", onnx::TensorProto::FLOAT, *dims);
  } else {
    add_symbolic_input(m, "x", onnx::TensorProto::FLOAT, {"n"});
    add_output(m, "y", onnx::TensorProto::FLOAT, {-1});
  }
  add_node(m, "LeakyRelu", {"x"}, {"y"}, "relu");
  return save_model(m, dir.file(dims ? "fixed.onnx" : "m.onnx"));
}

}  // namespace

TEST_CASE("a run in many small blocks makes the whole run's digests", "[streaming]") {
  TempDir dir;
  RunRequest r;
  r.model = model(dir);
  r.inputs = {"x=" + write_floats(dir, {300007}, 3)};
  r.keep_tensors = false;
  r.path = ExecPath::kWhole;
  const RunReport whole = run_model(r);
  CHECK_FALSE(whole.streamed);
  for (size_t block : {size_t{4096}, size_t{4100}, size_t{1} << 20}) {
    CAPTURE(block);
    r.path = ExecPath::kBlocks;
    r.block_bytes = block;
    const RunReport blocks = run_model(r);
    REQUIRE(blocks.streamed);
    CHECK_FALSE(blocks.runs[0].outputs[0].tensor.valid());  // nothing kept
    check_same_digest(blocks.runs[0].inputs[0].digest, whole.runs[0].inputs[0].digest);
    check_same_digest(blocks.runs[0].outputs[0].digest, whole.runs[0].outputs[0].digest);
  }
}

TEST_CASE("runs the block path must leave alone run whole", "[streaming]") {
  TempDir dir;
  RunRequest r;
  r.path = ExecPath::kBlocks;
  r.keep_tensors = false;
  // A 0-d input: one element, whole.
  const std::vector<int64_t> scalar;
  r.model = model(dir, &scalar);
  r.inputs = {"x=" + write_floats(dir, {}, 1)};
  CHECK_FALSE(run_model(r).streamed);
  // A caller that keeps the tensors; a literal.
  r.model = model(dir);
  r.inputs = {"x=" + write_floats(dir, {5000}, 2)};
  CHECK(run_model(r).streamed);
  r.keep_tensors = true;
  const RunReport kept = run_model(r);
  CHECK_FALSE(kept.streamed);
  CHECK(kept.runs[0].outputs[0].tensor.valid());
  r.keep_tensors = false;
  r.inputs = {"x=[1,2,3]"};
  CHECK_FALSE(run_model(r).streamed);
  // A --full print of more elements than a digest may keep.
  r.inputs = {"x=" + write_floats(dir, {kMaxShownElements + 1}, 4)};
  r.print.full = true;
  CHECK_FALSE(run_model(r).streamed);
  r.print.full = false;
  CHECK(run_model(r).streamed);
}
