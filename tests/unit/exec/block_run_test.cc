// Running an elementwise graph block by block gives the bits a whole run gives, and only
// chains of elementwise ops qualify.
#include <catch2/catch.hpp>

#include <atomic>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>

#include "core/error.h"
#include "core/fail.h"
#include "core/thread_pool.h"
#include "exec/block_run.h"
#include "exec/executor.h"
#include "model/load.h"
#include "onnx/onnx.pb.h"
#include "support/load.h"
#include "support/model_builder.h"

using namespace onnxrun;
using onnxrun::test::add_node;
using onnxrun::test::add_output;
using onnxrun::test::add_symbolic_input;
using onnxrun::test::add_tensor_attr;
using onnxrun::test::float_tensor;
using onnxrun::test::load;
using onnxrun::test::make_model;
using onnxrun::test::serialize;

namespace {

// x -> LeakyRelu -> ... (`nodes` times) -> y, element type `t`, shape [N].
std::string chain_model(int t, int nodes, bool with_initializer = false) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  auto* op = m.add_opset_import();
  op->set_domain("");
  op->set_version(16);
  auto* g = m.mutable_graph();
  g->set_name("chain");
  auto value = [&](onnx::ValueInfoProto* v, const std::string& name) {
    v->set_name(name);
    v->mutable_type()->mutable_tensor_type()->set_elem_type(t);
    v->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_param("N");
  };
  value(g->add_input(), "x");
  std::string prev = "x";
  for (int k = 0; k < nodes; ++k) {
    auto* n = g->add_node();
    n->set_op_type("LeakyRelu");
    n->add_input(prev);
    prev = k + 1 == nodes ? "y" : "v" + std::to_string(k);
    n->add_output(prev);
    auto* a = n->add_attribute();
    a->set_name("alpha");
    a->set_type(onnx::AttributeProto::FLOAT);
    a->set_f(0.5f + static_cast<float>(k));
  }
  value(g->add_output(), "y");
  if (with_initializer) {
    auto* init = g->add_initializer();
    init->set_name("unused");
    init->set_data_type(1);
    init->add_float_data(1.0f);
  }
  return m.SerializeAsString();
}

// The LeakyRelu-16 body written out over x (and, when `two_inputs`, Mul(x, y) in place of
// Mul(alpha, x)): Constant zero and alpha, Less, Mul, Where. `alpha_dims` gives alpha's
// dims (a scalar by default; {1, 1} broadcasts to a higher rank, {2} does not fit blocks).
std::string body_model(bool two_inputs, std::vector<int64_t> alpha_dims = {}) {
  onnx::ModelProto m = make_model(16);
  add_symbolic_input(m, "x", onnx::TensorProto::FLOAT, {"A", "B"});
  if (two_inputs) add_symbolic_input(m, "y", onnx::TensorProto::FLOAT, {"A", "B"});
  int64_t count = 1;
  for (int64_t d : alpha_dims) count *= d;
  add_tensor_attr(*add_node(m, "Constant", {}, {"zero"}), "value", float_tensor("", {}, {0.0f}));
  add_tensor_attr(*add_node(m, "Constant", {}, {"alpha"}), "value",
                  float_tensor("", alpha_dims, std::vector<float>(static_cast<size_t>(count), 0.01f)));
  add_node(m, "Less", {"x", "zero"}, {"neg"});
  add_node(m, "Mul", {two_inputs ? "y" : "alpha", "x"}, {"scaled"});
  add_node(m, "Where", {"neg", "scaled", "x"}, {"out"});
  add_output(m, "out", onnx::TensorProto::FLOAT, {-1, -1});
  add_output(m, "neg", onnx::TensorProto::BOOL, {-1, -1});  // a second output, of another type
  return serialize(m);
}

// Runs `exec` whole and block by block over `inputs` (graph order, all of `shape`), on
// `lanes` threads, and checks the outputs' bits and the inputs each block saw: through
// the in-order sinks (which must see the blocks in order) and the any-order ones (which
// must see each block once).
void check_blocks_match_whole(const Executor& exec, const std::vector<std::pair<std::string, Tensor>>& inputs,
                              size_t block_bytes, unsigned lanes = 1) {
  std::map<std::string, Tensor> feed;
  std::vector<std::pair<std::string, DType>> signature;
  for (const auto& [name, t] : inputs) feed.emplace(name, t), signature.emplace_back(name, t.dtype());
  const std::vector<Tensor> whole = exec.run(feed);
  const Shape shape = inputs.at(0).second.shape();
  const std::optional<BlockPlan> plan = plan_block_run(exec, signature, shape);
  REQUIRE(plan);
  REQUIRE(plan->output_dtypes.size() == whole.size());
  std::vector<BlockInput> block_inputs;
  for (const auto& [name, t] : inputs) {
    const auto* bytes = static_cast<const unsigned char*>(t.raw());
    block_inputs.push_back(
        {name, t.dtype(), [bytes](size_t off, void* dst, size_t len) { std::memcpy(dst, bytes + off, len); }, true});
  }
  // Any order: each block's inputs and outputs by its first element, from whichever thread.
  std::mutex mu;
  std::map<size_t, std::vector<std::string>> any_inputs, any_outputs;
  auto keep = [&](std::map<size_t, std::vector<std::string>>& into, size_t begin, const std::vector<Tensor>& ts) {
    std::vector<std::string> bytes;
    for (const Tensor& t : ts) bytes.emplace_back(static_cast<const char*>(t.raw()), t.nbytes());
    std::lock_guard<std::mutex> lock(mu);
    CHECK(into.emplace(begin, std::move(bytes)).second);
  };
  std::vector<std::string> streamed(whole.size()), seen(inputs.size());
  size_t blocks = 0, expected_begin = 0;
  BlockSinks sinks;
  sinks.inputs = [&](size_t begin, const std::vector<Tensor>& in) {
    CHECK(begin == expected_begin);
    for (size_t k = 0; k < in.size(); ++k) seen[k].append(static_cast<const char*>(in[k].raw()), in[k].nbytes());
    expected_begin += static_cast<size_t>(in.at(0).numel());
  };
  sinks.outputs = [&](size_t, const std::vector<Tensor>& out) {
    ++blocks;
    for (size_t k = 0; k < out.size(); ++k) streamed[k].append(static_cast<const char*>(out[k].raw()), out[k].nbytes());
  };
  sinks.inputs_any_order = [&](size_t begin, const std::vector<Tensor>& in) { keep(any_inputs, begin, in); };
  sinks.outputs_any_order = [&](size_t begin, const std::vector<Tensor>& out) { keep(any_outputs, begin, out); };
  ThreadPool pool(lanes);
  run_in_blocks(exec, *plan, block_inputs, block_bytes, sinks, &pool);
  CHECK(blocks > 3);
  REQUIRE(any_inputs.size() == blocks);
  REQUIRE(any_outputs.size() == blocks);
  std::vector<std::string> any_streamed(whole.size()), any_seen(inputs.size());
  for (const auto& [begin, bytes] : any_inputs)
    for (size_t k = 0; k < bytes.size(); ++k) any_seen[k] += bytes[k];
  for (const auto& [begin, bytes] : any_outputs)
    for (size_t k = 0; k < bytes.size(); ++k) any_streamed[k] += bytes[k];
  CHECK(any_streamed == streamed);
  CHECK(any_seen == seen);
  for (size_t k = 0; k < whole.size(); ++k) {
    CAPTURE(k);
    CHECK(plan->output_dtypes[k] == whole[k].dtype());
    CHECK(plan->output_shapes[k] == whole[k].shape());
    REQUIRE(streamed[k].size() == whole[k].nbytes());
    CHECK(std::memcmp(streamed[k].data(), whole[k].raw(), whole[k].nbytes()) == 0);
  }
  for (size_t k = 0; k < inputs.size(); ++k)
    CHECK(seen[k] == std::string(static_cast<const char*>(inputs[k].second.raw()), inputs[k].second.nbytes()));
}

Tensor varied(DType dt, Shape shape, unsigned salt) {
  Tensor x(dt, std::move(shape));
  auto* bytes = static_cast<unsigned char*>(x.mutable_raw());
  for (size_t i = 0; i < x.nbytes(); ++i) bytes[i] = static_cast<unsigned char>(((i + salt) * 2654435761u) >> 13);
  return x;
}

}  // namespace

TEST_CASE("graphs of pointwise ops run in blocks, others do not", "[block_run]") {
  CHECK(can_run_in_blocks(load(chain_model(1, 1)).graph));
  CHECK(can_run_in_blocks(load(chain_model(10, 3)).graph));
  CHECK(can_run_in_blocks(load(chain_model(1, 2, true)).graph));  // a one-element initializer
  CHECK(can_run_in_blocks(load(body_model(false)).graph));
  CHECK(can_run_in_blocks(load(body_model(true)).graph));
  // A constant of two elements passes the graph check but not the plan's probe runs.
  Executor wide(load(body_model(false, {2})).graph);
  CHECK_FALSE(plan_block_run(wide, {{"x", DType::kFloat}}, Shape{4, 2}));
  // Inputs missing or given twice.
  Executor two(load(body_model(true)).graph);
  CHECK_FALSE(plan_block_run(two, {{"x", DType::kFloat}}, Shape{4, 5}));
  CHECK_FALSE(plan_block_run(two, {{"x", DType::kFloat}, {"x", DType::kFloat}}, Shape{4, 5}));
  CHECK(plan_block_run(two, {{"x", DType::kFloat}, {"y", DType::kFloat}}, Shape{4, 5}));
}

TEST_CASE("a graph with constants, several inputs and outputs runs in blocks with the whole run's bits",
          "[block_run]") {
  ThreadPool pool(2);
  const Shape shape{301, 333};
  Executor one(load(body_model(false)).graph, ExecOptions{&pool});
  check_blocks_match_whole(one, {{"x", varied(DType::kFloat, shape, 1)}}, 4096 * 3 + 8);
  Executor two(load(body_model(true)).graph, ExecOptions{&pool});
  check_blocks_match_whole(two, {{"x", varied(DType::kFloat, shape, 1)}, {"y", varied(DType::kFloat, shape, 2)}},
                           10000);
  // A [1, 1, 1] constant gives the outputs it reaches a leading 1: the plan says so.
  Executor ranked(load(body_model(false, {1, 1, 1})).graph);
  const auto plan = plan_block_run(ranked, {{"x", DType::kFloat}}, shape);
  REQUIRE(plan);
  CHECK(plan->output_shapes == std::vector<Shape>{{1, 301, 333}, {301, 333}});
  check_blocks_match_whole(ranked, {{"x", varied(DType::kFloat, shape, 3)}}, 4096);
}

TEST_CASE("a graph run block by block gives the whole run's bits", "[block_run]") {
  ThreadPool pool(2);
  for (int t : {1, 10, 11, 16}) {  // float, float16, double, bfloat16
    INFO("type " << t);
    Executor exec(load(chain_model(t, 2)).graph, ExecOptions{&pool});
    const DType dt = static_cast<DType>(t);
    const size_t n = 100003;
    Tensor x(dt, Shape{n});
    auto* bytes = static_cast<unsigned char*>(x.mutable_raw());
    for (size_t i = 0; i < x.nbytes(); ++i) bytes[i] = static_cast<unsigned char>((i * 2654435761u) >> 13);
    for (unsigned lanes : {1u, 2u, 3u}) {
      CAPTURE(lanes);
      check_blocks_match_whole(exec, {{"x", x}}, 4096 * 3 + 8, lanes);
    }
  }
}

TEST_CASE("blocks side by side give the whole run's bits for several inputs and outputs", "[block_run]") {
  const Shape shape{301, 333};
  Executor two(load(body_model(true)).graph);
  for (unsigned lanes : {2u, 4u}) {
    CAPTURE(lanes);
    check_blocks_match_whole(two, {{"x", varied(DType::kFloat, shape, 1)}, {"y", varied(DType::kFloat, shape, 2)}},
                             10000, lanes);
  }
}

TEST_CASE("a read that fails in one lane ends every lane, and the earliest block's error is the one thrown",
          "[block_run]") {
  Executor exec(load(chain_model(1, 1)).graph);
  const size_t n = 64 * 1024;
  const std::optional<BlockPlan> plan = plan_block_run(exec, {{"x", DType::kFloat}}, Shape{static_cast<int64_t>(n)});
  REQUIRE(plan);
  const size_t block_bytes = 4096;  // 1024 floats: 64 blocks
  std::atomic<size_t> reads{0};
  // Blocks 20 and up fail, each with its own number: whichever lane gets there first, the
  // error of block 20 (the earliest) is the one reported, every time.
  BlockInput in{"x", DType::kFloat,
                [&](size_t off, void* dst, size_t len) {
                  ++reads;
                  const size_t block = off / block_bytes;
                  if (block >= 20) fail(ErrorKind::kIo, "block {} unreadable", block);
                  std::memset(dst, 0, len);
                },
                true};
  for (unsigned lanes : {1u, 2u, 3u}) {
    CAPTURE(lanes);
    reads = 0;
    std::vector<size_t> written;  // in-order sinks: one call at a time
    BlockSinks sinks;
    sinks.outputs = [&](size_t begin, const std::vector<Tensor>&) { written.push_back(begin); };
    ThreadPool pool(lanes);
    CHECK_THROWS_WITH(run_in_blocks(exec, *plan, {in}, block_bytes, sinks, &pool), "block 20 unreadable");
    // Every block before it, in order, and none from it on: as on one lane.
    REQUIRE(written.size() == 20);
    for (size_t k = 0; k < written.size(); ++k) CHECK(written[k] == k * 1024);
    CHECK(reads < 20 + 2 * lanes);  // the other lanes stopped at their next block
  }
}
