// Running an elementwise graph block by block gives the bits a whole run gives, and only
// chains of elementwise ops qualify.
#include <catch2/catch.hpp>

#include <cstring>

#include "core/thread_pool.h"
#include "exec/block_run.h"
#include "exec/executor.h"
#include "model/load.h"
#include "onnx/onnx.pb.h"
#include "support/load.h"

using namespace onnxrun;
using onnxrun::test::load;

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

}  // namespace

TEST_CASE("only chains of elementwise ops run in blocks", "[block_run]") {
  CHECK(can_run_in_blocks(load(chain_model(1, 1)).graph));
  CHECK(can_run_in_blocks(load(chain_model(10, 3)).graph));
  CHECK_FALSE(can_run_in_blocks(load(chain_model(1, 2, true)).graph));
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
    std::map<std::string, Tensor> in{{"x", x}};
    const Tensor whole = exec.run(in).at(0);
    std::string streamed;
    size_t blocks = 0;
    run_in_blocks(
        exec, "x", dt, Shape{static_cast<int64_t>(n)},
        [&](size_t off, void* dst, size_t len) { std::memcpy(dst, bytes + off, len); }, 4096 * 3 + 8,
        [&](const Tensor& b) {
          ++blocks;
          streamed.append(static_cast<const char*>(b.raw()), b.nbytes());
        });
    CHECK(blocks > 10);
    REQUIRE(streamed.size() == whole.nbytes());
    CHECK(std::memcmp(streamed.data(), whole.raw(), whole.nbytes()) == 0);
  }
}
