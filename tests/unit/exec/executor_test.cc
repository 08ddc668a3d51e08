// The executor's plan-time rewrites against the plan that runs each node as the graph
// says: LeakyRelu-16's written-out body and the exporters' Where(X < 0, X * a, X) run by
// the LeakyRelu kernel, and chains of LeakyRelus run as one pass, must give the same
// bits, for every float16 and bfloat16 pattern and for random and edge float and double
// tensors; on one thread and split, in place and out of place, streamed and not.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <random>

#include "core/error.h"
#include "core/memory_limit.h"
#include "core/thread_pool.h"
#include "exec/executor.h"
#include "exec/fused_chain.h"
#include "ops/registry.h"
#include "support/edge_values.h"
#include "support/fusion_models.h"
#include "support/load.h"
#include "support/model_builder.h"
#include "support/tensors.h"

using namespace onnxrun;
using namespace onnxrun::test;

namespace {

const float kAlphas[] = {0.01f, 0.1f, 0.0f, -0.3f, 2.0f};

struct Plans {
  Executor fused;
  Executor unfused;
};

Plans plans(const onnx::ModelProto& m, ThreadPool* pool = nullptr) {
  return {Executor(load(m).graph, ExecOptions{pool}), Executor(load(m).graph, unfused(ExecOptions{pool}))};
}

// Output of `e` on a copy of x: handed over (the executor may overwrite it) or shared.
Tensor run_on(const Executor& e, const Tensor& x, bool hand_over) {
  if (hand_over) return e.run({{"x", copy_of(x)}})[0];
  const Tensor keep = copy_of(x);
  Tensor y = e.run({{"x", keep}})[0];
  REQUIRE(y.raw() != keep.raw());  // shared input: never written
  return y;
}

void require_same_both_ways(const Plans& p, const Tensor& x) {
  for (bool hand_over : {false, true}) {
    INFO((hand_over ? "input handed over" : "input shared"));
    const Tensor a = run_on(p.fused, x, hand_over);
    const Tensor b = run_on(p.unfused, x, hand_over);
    REQUIRE(same_bits(a, b));
  }
}

template <typename T, typename Bits>
Tensor random_plus_edges(DType dtype, std::mt19937_64& rng) {
  const std::vector<T> edges = edge_values<T>();
  const size_t n_random = 100000;
  Tensor t(dtype, {static_cast<int64_t>(n_random + edges.size())});
  T* p = t.mutable_data<T>();
  for (size_t i = 0; i < n_random; ++i) {
    Bits b = static_cast<Bits>(rng());
    std::memcpy(&p[i], &b, sizeof(T));                           // every bit pattern
    if (i % 2) p[i] = static_cast<T>(std::fmod(p[i], T(1000)));  // and ordinary values
  }
  std::copy(edges.begin(), edges.end(), p + n_random);
  return t;
}

}  // namespace

TEST_CASE("fused plans: LeakyRelu-16's body, run as LeakyRelu, gives the body's bits for every 16-bit pattern",
          "[exec][fusion]") {
  for (auto [dtype, elem] : {std::pair{DType::kFloat16, 10}, std::pair{DType::kBFloat16, 16}}) {
    const Tensor x = all_16_bit_patterns(dtype);
    for (float alpha : kAlphas) {
      INFO(dtype_name(dtype) << " alpha " << alpha);
      const Plans p = plans(leaky_body_model(elem, 65536, alpha));
      REQUIRE(p.fused.graph().nodes.size() == 1);  // recognised: else this would compare a plan with itself
      REQUIRE(p.unfused.graph().nodes.size() == 7);
      require_same_both_ways(p, x);
    }
  }
}

TEST_CASE("fused plans: Where(X < 0, X * a, X), run as LeakyRelu, gives its bits for every 16-bit pattern",
          "[exec][fusion]") {
  for (auto [dtype, elem] : {std::pair{DType::kFloat16, 10}, std::pair{DType::kBFloat16, 16}}) {
    const Tensor x = all_16_bit_patterns(dtype);
    // In the type: 0.1 rounds, -0.0 as the zero, a denormal factor, a large one.
    for (double a : {0.1, 0.0, -0.3, 2.0, 1e-7, 300.0}) {
      for (double zero : {0.0, -0.0}) {
        INFO(dtype_name(dtype) << " a " << a << " zero " << zero);
        const Plans p = plans(leaky_idiom_model(elem, 65536, a, zero));
        REQUIRE(p.fused.graph().nodes.size() == 1);
        require_same_both_ways(p, x);
      }
    }
  }
}

TEST_CASE("fused plans: a chain of three LeakyRelus gives the unfused bits for every 16-bit pattern",
          "[exec][fusion]") {
  for (auto [dtype, elem] : {std::pair{DType::kFloat16, 10}, std::pair{DType::kBFloat16, 16}}) {
    const Tensor x = all_16_bit_patterns(dtype);
    INFO(dtype_name(dtype));
    const Plans p = plans(leaky_chain_model(elem, 65536, {0.1f, -0.3f, 2.0f}));
    REQUIRE(p.fused.fusion().chains.size() == 1);
    REQUIRE(p.fused.fusion().chains[0].size() == 3);
    REQUIRE(p.unfused.fusion().empty());
    require_same_both_ways(p, x);
  }
}

TEST_CASE("fused plans: body, idiom and chain give the unfused bits on random and edge float and double tensors",
          "[exec][fusion]") {
  std::mt19937_64 rng(15);
  const Tensor xf = random_plus_edges<float, uint32_t>(DType::kFloat, rng);
  const Tensor xd = random_plus_edges<double, uint64_t>(DType::kDouble, rng);
  for (auto [x, elem] : {std::pair{&xf, 1}, std::pair{&xd, 11}}) {
    const int64_t n = x->numel();
    for (float alpha : kAlphas) {
      INFO(dtype_name(x->dtype()) << " alpha " << alpha);
      require_same_both_ways(plans(leaky_body_model(elem, n, alpha, /*scrambled=*/true)), *x);
      require_same_both_ways(plans(leaky_chain_model(elem, n, {alpha, 0.5f, alpha})), *x);
    }
    for (double a : {0.5, -0.25, 3.0}) require_same_both_ways(plans(leaky_idiom_model(elem, n, a)), *x);
  }
}

TEST_CASE("fused plans: a chain over a large tensor, split across threads and streamed out, keeps the bits",
          "[exec][fusion]") {
  ThreadPool pool(2);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-5, 5);
  // 3e6 floats: 12 MB, past the size from which outputs are streamed, in several pieces
  // and blocks, with a tail that is no whole block.
  Tensor x(DType::kFloat, {3000001});
  for (int64_t i = 0; i < x.numel(); ++i) x.mutable_data<float>()[i] = u(rng);
  // And 1.5e6 doubles, the same bytes, through the double chain loop.
  Tensor xd(DType::kDouble, {1500001});
  for (int64_t i = 0; i < xd.numel(); ++i) xd.mutable_data<double>()[i] = u(rng) * 1e-3;
  for (ThreadPool* p : {static_cast<ThreadPool*>(nullptr), &pool}) {
    const Plans both = plans(leaky_chain_model(1, -1, {0.1f, 0.2f, 0.3f}), p);
    REQUIRE(both.fused.fusion().chains.size() == 1);
    require_same_both_ways(both, x);
    require_same_both_ways(plans(leaky_chain_model(11, -1, {0.1f, -0.2f, 0.3f}), p), xd);
  }
  // Every float16 and bfloat16 pattern 70 times over (9 MB), split across threads.
  for (auto [elem, type] : {std::pair{10, DType::kFloat16}, std::pair{16, DType::kBFloat16}}) {
    const Tensor all = all_16_bit_patterns(type);
    Tensor big(type, {all.numel() * 70 + 3});
    auto* dst = big.mutable_data<uint16_t>();
    for (int64_t i = 0; i < big.numel(); ++i) dst[i] = all.data<uint16_t>()[i % all.numel()];
    require_same_both_ways(plans(leaky_chain_model(elem, -1, {0.1f, -0.2f, 3.0f}), &pool), big);
  }
}

TEST_CASE("fused plans: an empty tensor and one element go through a fused chain", "[exec][fusion]") {
  const Plans p = plans(leaky_chain_model(1, -1, {0.1f, 0.2f}));
  for (int64_t n : {0, 1, 17}) {
    Tensor x(DType::kFloat, {n});
    for (int64_t i = 0; i < n; ++i) x.mutable_data<float>()[i] = static_cast<float>(i) - 8;
    require_same_both_ways(p, x);
  }
}

TEST_CASE("fused plans: a value read twice, or a graph output, ends the chain there", "[exec][fusion]") {
  onnx::ModelProto m = leaky_chain_model(1, 4, {0.1f, 0.2f, 0.3f});
  // v0 is also a graph output: leaky0 runs alone, leaky1 -> leaky2 fuse.
  add_output(m, "v0", 1, {4});
  const Executor e(load(m).graph);
  REQUIRE(e.fusion().chains == std::vector<std::vector<std::string>>{{"leaky1", "leaky2"}});
  const Executor u(load(m).graph, unfused());
  Tensor x(DType::kFloat, {4});
  const float values[] = {-4, -1, 0, 2};
  std::memcpy(x.mutable_raw(), values, sizeof values);
  const std::vector<Tensor> a = e.run({{"x", x}});
  const std::vector<Tensor> b = u.run({{"x", x}});
  REQUIRE(a.size() == 2);
  for (size_t k = 0; k < 2; ++k) REQUIRE(same_bits(a[k], b[k]));
}

// Every output of the fused and the unfused plan on a copy of x (shared: never written).
void require_same_outputs(const Plans& p, const Tensor& x) {
  const Tensor keep = copy_of(x);
  const std::vector<Tensor> a = p.fused.run({{"x", keep}});
  const std::vector<Tensor> b = p.unfused.run({{"x", keep}});
  REQUIRE(a.size() == b.size());
  for (size_t k = 0; k < a.size(); ++k) {
    INFO("output " << k);
    REQUIRE(a[k].raw() != keep.raw());
    REQUIRE(same_bits(a[k], b[k]));
  }
  REQUIRE(same_bits(keep, x));  // the fan-out read x, every branch
}

TEST_CASE("fused plans: a value read only by elementwise chains is read once for all of them", "[exec][fusion]") {
  const std::vector<std::vector<float>> branches = {{0.1f}, {0.2f, -3.0f}, {0.5f, 0.25f, 2.0f}};
  std::mt19937_64 rng(18);
  const Tensor xf = random_plus_edges<float, uint32_t>(DType::kFloat, rng);
  const Tensor xd = random_plus_edges<double, uint64_t>(DType::kDouble, rng);
  const Tensor xh = all_16_bit_patterns(DType::kFloat16);
  const Tensor xb = all_16_bit_patterns(DType::kBFloat16);
  for (auto [x, elem] : {std::pair{&xf, 1}, std::pair{&xd, 11}, std::pair{&xh, 10}, std::pair{&xb, 16}}) {
    INFO(dtype_name(x->dtype()));
    const Plans p = plans(leaky_fanout_model(elem, x->numel(), branches));
    REQUIRE(p.fused.fusion().fanouts.size() == 1);
    CHECK(p.fused.fusion().fanouts[0].input == "x");
    CHECK(p.fused.fusion().fanouts[0].branches == std::vector<std::string>{"leaky0_0", "leaky1_0", "leaky2_0"});
    CHECK(p.fused.fusion().chains.size() == 2);  // the branches of two and three nodes
    require_same_outputs(p, *x);
  }
}

TEST_CASE("fused plans: a fan-out over a large tensor, split across threads and streamed out, keeps the bits",
          "[exec][fusion]") {
  ThreadPool pool(2);
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> u(-5, 5);
  Tensor x(DType::kFloat, {3000001});  // 12 MB: past the streaming size, a tail that is no whole block
  for (int64_t i = 0; i < x.numel(); ++i) x.mutable_data<float>()[i] = u(rng);
  for (ThreadPool* p : {static_cast<ThreadPool*>(nullptr), &pool})
    require_same_outputs(plans(leaky_fanout_model(1, -1, {{0.1f, 0.3f}, {0.2f}}), p), x);
  for (int64_t n : {0, 1, 17}) {  // empty, one element, less than a vector
    Tensor small(DType::kFloat, {n});
    for (int64_t i = 0; i < n; ++i) small.mutable_data<float>()[i] = static_cast<float>(i) - 8;
    require_same_outputs(plans(leaky_fanout_model(1, -1, {{0.1f}, {0.2f}})), small);
  }
}

TEST_CASE("fused plans: a value that another kind of node also reads is no fan-out", "[exec][fusion]") {
  onnx::ModelProto m = leaky_fanout_model(1, 4, {{0.1f}, {0.2f}});
  // A third reader, Mul(x, x): x is read where it is, so the LeakyRelus run as they are.
  *m.mutable_graph()->add_node() = make_node("Mul", {"x", "x"}, {"sq"}, "", "square");
  add_output(m, "sq", 1, {4});
  const Plans p = plans(m);
  CHECK(p.fused.fusion().fanouts.empty());
  Tensor x(DType::kFloat, {4});
  const float values[] = {-4, -1, 0, 2};
  std::memcpy(x.mutable_raw(), values, sizeof values);
  require_same_outputs(p, x);
}

TEST_CASE("fused plans: LeakyRelus composed in registers keep the bits, in chains longer than one pass takes",
          "[exec][fusion]") {
  std::mt19937_64 rng(16);
  const Tensor xf = random_plus_edges<float, uint32_t>(DType::kFloat, rng);
  const Tensor xd = random_plus_edges<double, uint64_t>(DType::kDouble, rng);
  const Tensor xh = all_16_bit_patterns(DType::kFloat16);
  const Tensor xb = all_16_bit_patterns(DType::kBFloat16);
  for (size_t length : {2, 4, 5, 9}) {
    std::vector<float> alphas;
    for (size_t k = 0; k < length; ++k) alphas.push_back(kAlphas[k % 5] * (k % 2 ? -1.0f : 1.0f));
    for (auto [x, elem] : {std::pair{&xf, 1}, std::pair{&xd, 11}, std::pair{&xh, 10}, std::pair{&xb, 16}}) {
      INFO(dtype_name(x->dtype()) << " chain of " << length);
      const Plans p = plans(leaky_chain_model(elem, x->numel(), alphas));
      REQUIRE(p.fused.fusion().chains.at(0).size() == length);
      require_same_both_ways(p, *x);
    }
  }
}

// Found by black-box testing: each composition was kept, and each copied the alphas of
// the one before, so a chain of 16,384 (a 1 KB model of nested functions) took 1.7 GB.
TEST_CASE("fused plans: a long chain is composed in passes of a bounded length, with the unfused bits",
          "[exec][fusion]") {
  const OpDef* def = OpRegistry::builtin().find("", "LeakyRelu", 16);
  REQUIRE(def);
  const size_t length = 3 * FusedChainKernel::kMaxComposedNodes + 5;
  std::vector<std::unique_ptr<OpKernel>> kernels;
  for (size_t k = 0; k < length; ++k) kernels.push_back(def->make_kernel(*def, AttributeMap{}));
  CHECK(FusedChainKernel(std::move(kernels)).passes().size() == 4);

  std::vector<float> alphas;
  for (size_t k = 0; k < length; ++k) alphas.push_back(kAlphas[k % 5] * (k % 2 ? -1.0f : 1.0f));
  std::mt19937_64 rng(17);
  const Tensor x = random_plus_edges<float, uint32_t>(DType::kFloat, rng);
  const Plans p = plans(leaky_chain_model(1, x.numel(), alphas));
  REQUIRE(p.fused.fusion().chains.at(0).size() == length);
  require_same_both_ways(p, x);

  // Two passes over a tensor past the streaming size (8 MiB), out of place, block by
  // block, on one thread and split across two, with a tail that is no whole block.
  ThreadPool pool(2);
  std::uniform_real_distribution<float> u(-5, 5);
  Tensor big(DType::kFloat, {2100001});
  for (int64_t i = 0; i < big.numel(); ++i) big.mutable_data<float>()[i] = u(rng);
  const std::vector<float> two_passes(alphas.begin(), alphas.begin() + FusedChainKernel::kMaxComposedNodes + 2);
  for (ThreadPool* threads : {static_cast<ThreadPool*>(nullptr), &pool}) {
    const Plans q = plans(leaky_chain_model(1, -1, two_passes), threads);
    REQUIRE(q.fused.fusion().chains.at(0).size() == two_passes.size());
    require_same_both_ways(q, big);
  }
}

TEST_CASE("an input passed through as an output comes out whole, beside the node's output", "[exec]") {
  // The executor moves each output out of its values (the loader refuses an output named
  // twice); x is also the node's input, so it must not have been written in place.
  onnx::ModelProto m = leaky_relu_model(16);
  *m.mutable_graph()->add_output() = m.graph().input(0);
  const Executor e(load(m).graph, ExecOptions{});
  const Tensor x = float_tensor({2, 3}, {-2, -1, 0, 1, 2, 3});
  for (bool hand_over : {false, true}) {
    INFO((hand_over ? "input handed over" : "input shared"));
    const std::vector<Tensor> out = e.run({{"x", hand_over ? copy_of(x) : x}});
    REQUIRE(out.size() == 2);
    REQUIRE(out[0].valid());
    CHECK(out[0].data<float>()[0] == -0.02f);
    REQUIRE(out[1].valid());
    CHECK(same_bits(out[1], x));
  }
}

TEST_CASE("a run keeps no tensor after it, however it ends, and a nested run is its own", "[exec]") {
  // Executor::run reuses per-thread vectors (src/exec/executor.cc, RunScratch): what it
  // held must be let go at its end, also when it throws, and a run started inside another
  // on the same thread (here from the observer) must not share them.
  const Executor e(load(leaky_relu_model(16)).graph, ExecOptions{});
  const Tensor x = float_tensor({2, 3}, {-2, -1, 0, 1, 2, 3});
  std::vector<Tensor> out = e.run({{"x", x}});
  CHECK(x.buffer().use_count() == 1);  // the run's values are gone
  CHECK_THROWS_AS(e.run({{"nope", x}}), Error);
  CHECK(x.buffer().use_count() == 1);
  std::vector<Tensor> inner;
  const std::vector<Tensor> outer = e.run({{"x", x}}, [&](const std::string&, const Tensor& y) {
    inner = e.run({{"x", y}});  // LeakyRelu of LeakyRelu, on the same thread, mid-run
  });
  REQUIRE(outer.size() == 1);
  REQUIRE(inner.size() == 1);
  CHECK(same_bits(outer[0], out[0]));
  CHECK(inner[0].data<float>()[0] == out[0].data<float>()[0] * 0.01f);
  CHECK(x.buffer().use_count() == 1);
}

TEST_CASE("an elementwise output takes a shared input's shape over, and its other holders keep theirs", "[exec]") {
  // overwrite_or_allocate (core/tensor.h): a buffer another handle shares is never written;
  // the new output takes the kernel's handle's shape rather than copying it (a small run's
  // allocation), and that handle keeps the buffer its data pointer was read from.
  const Tensor shared = float_tensor({2, 3}, {-2, -1, 0, 1, 2, 3});
  Tensor x = shared;  // the kernel's handle
  const void* src = x.raw();
  const Tensor y = overwrite_or_allocate(x);
  CHECK(y.dtype() == DType::kFloat);
  CHECK(y.shape() == Shape{2, 3});
  CHECK(y.numel() == 6);
  CHECK(y.raw() != src);
  CHECK(x.raw() == src);
  CHECK(x.shape().empty());  // taken over, not copied
  CHECK(shared.shape() == Shape{2, 3});
  CHECK(shared.data<float>()[5] == 3.0f);

  Tensor own = copy_of(shared);  // the only handle: written in place
  const void* mine = own.raw();
  const Tensor z = overwrite_or_allocate(own);
  CHECK(z.raw() == mine);
  CHECK(z.shape() == Shape{2, 3});

  // Through the executor: the caller's tensor comes out of a run as it went in.
  const Executor e(load(leaky_relu_model(16)).graph, ExecOptions{});
  const std::vector<Tensor> out = e.run({{"x", shared}});
  REQUIRE(out.size() == 1);
  CHECK(out[0].shape() == Shape{2, 3});
  CHECK(shared.shape() == Shape{2, 3});
  CHECK(shared.data<float>()[0] == -2.0f);
}

TEST_CASE("an elementwise output over the memory limit is refused naming it, and counts nothing", "[exec]") {
  // overwrite_or_allocate reuses its input's checked shape and size; the refusal still
  // names the tensor, as Tensor's constructor does.
  const Tensor shared = float_tensor(std::vector<float>(1000, 1.0f));
  Tensor x = shared;
  const size_t saved = memory_limit();
  const size_t before = memory_in_use();
  set_memory_limit(before + 1000);
  CHECK_THROWS_WITH(overwrite_or_allocate(x), Catch::Contains("float[1000] needs 3.91 KiB (4000 bytes)"));
  set_memory_limit(saved);
  CHECK(memory_in_use() == before);
}

TEST_CASE("every run checks its inputs' types, after runs of other types passed", "[exec]") {
  // A run of a type the op refuses is refused by the executor's check, before and after
  // runs of the types it takes.
  const Executor e(load(leaky_relu_model(16)).graph, ExecOptions{});
  const Tensor good = float_tensor({2}, {-1, 1});
  const Tensor also_good = patterned(DType::kDouble, {2});
  const Tensor bad = patterned(DType::kInt32, {2});
  for (int round = 0; round < 2; ++round) {
    CHECK(e.run({{"x", good}}).size() == 1);
    try {
      e.run({{"x", bad}});
      FAIL("int32 ran");
    } catch (const Error& err) {
      CHECK(err.kind() == ErrorKind::kInvalid);  // ONNX allows no int32 there either
      CHECK_THAT(err.what(),
                 Catch::Contains("has type int32") && Catch::Contains("allows"));  // the check, not the kernel
    }
    CHECK(e.run({{"x", also_good}}).size() == 1);
  }
}
