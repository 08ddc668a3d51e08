// Broadcasting rules (numpy and legacy) and the row walk, the latter checked against a
// plain index computation over many random shape pairs.
#include <catch2/catch.hpp>

#include <random>

#include "core/error.h"
#include "ops/broadcast.h"
#include "support/op_runner.h"

using namespace onnxrun;
using namespace onnxrun::test;

namespace {
ErrorKind kind_of(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.kind();
  }
  FAIL("no error thrown");
  return ErrorKind::kInternal;
}
}  // namespace

TEST_CASE("numpy broadcasting aligns on the right and takes the larger dim", "[broadcast]") {
  REQUIRE(broadcast_shapes({{3, 4, 5}, {5}}) == Shape{3, 4, 5});
  REQUIRE(broadcast_shapes({{2, 1, 4}, {3, 1}}) == Shape{2, 3, 4});
  REQUIRE(broadcast_shapes({{}, {2, 3}}) == Shape{2, 3});
  REQUIRE(broadcast_shapes({{0, 3}, {1, 3}}) == Shape{0, 3});
  REQUIRE(broadcast_shapes({{2, 1}, {1, 3}, {1}}) == Shape{2, 3});
  REQUIRE(kind_of([] { broadcast_shapes({{3, 4}, {5}}); }) == ErrorKind::kInvalid);
  REQUIRE(kind_of([] { broadcast_shapes({{0}, {2}}); }) == ErrorKind::kInvalid);
}

TEST_CASE("legacy broadcasting puts B's dims at axis, or at the end", "[broadcast]") {
  const Shape a{2, 3, 4, 5};
  REQUIRE(legacy_b_shape(a, {5}, 1, std::nullopt) == Shape{1, 1, 1, 5});
  REQUIRE(legacy_b_shape(a, {4, 5}, 1, std::nullopt) == Shape{1, 1, 4, 5});
  REQUIRE(legacy_b_shape(a, {3, 4}, 1, 1) == Shape{1, 3, 4, 1});
  REQUIRE(legacy_b_shape(a, {2}, 1, 0) == Shape{2, 1, 1, 1});
  REQUIRE(legacy_b_shape(a, {4}, 1, -2) == Shape{1, 1, 4, 1});
  REQUIRE(legacy_b_shape(a, {}, 1, std::nullopt) == Shape{1, 1, 1, 1});
  REQUIRE(legacy_b_shape(a, {1, 1}, 1, std::nullopt) == Shape{1, 1, 1, 1});
  REQUIRE(legacy_b_shape(a, a, 0, std::nullopt) == a);
  REQUIRE(kind_of([&] { legacy_b_shape(a, {5}, 0, std::nullopt); }) == ErrorKind::kInvalid);     // needs broadcast=1
  REQUIRE(kind_of([&] { legacy_b_shape(a, {3}, 1, 0); }) == ErrorKind::kInvalid);                // dim mismatch
  REQUIRE(kind_of([&] { legacy_b_shape(a, {1, 5}, 1, std::nullopt); }) == ErrorKind::kInvalid);  // no 1-expansion
  REQUIRE(kind_of([&] { legacy_b_shape(a, {4, 5}, 1, 3); }) == ErrorKind::kInvalid);             // runs past the end
  REQUIRE(kind_of([&] { legacy_b_shape({5}, {2, 5}, 1, std::nullopt); }) == ErrorKind::kInvalid);
}

TEST_CASE("broadcast Mul and Where match a plain index computation on random shapes", "[broadcast]") {
  std::mt19937 rng(7);
  auto rnd = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  for (int iter = 0; iter < 400; ++iter) {
    const size_t rank = static_cast<size_t>(rnd(5));
    Shape out(rank);
    for (auto& d : out) d = rnd(4) + 1;
    if (rnd(20) == 0 && rank > 0) out[static_cast<size_t>(rnd(static_cast<int>(rank)))] = 0;
    // Each input: a suffix of `out` with some dims set to 1.
    auto derive = [&] {
      Shape s(out.begin() + rnd(static_cast<int>(rank) + 1), out.end());
      for (auto& d : s)
        if (rnd(3) == 0) d = 1;
      return s;
    };
    const Shape sa = derive(), sb = derive(), sc = derive();
    const Shape full = broadcast_shapes({sa, sb, sc});
    auto fill = [&](const Shape& s) {
      std::vector<int32_t> v(static_cast<size_t>(checked_numel(s)));
      for (auto& x : v) x = rnd(1000) - 500;
      return v;
    };
    const auto va = fill(sa), vb = fill(sb);
    std::vector<uint8_t> vc(static_cast<size_t>(checked_numel(sc)));
    for (auto& x : vc) x = static_cast<uint8_t>(rnd(2));
    INFO("a " << shape_to_string(sa) << " b " << shape_to_string(sb) << " c " << shape_to_string(sc));
    const Tensor ta = make_tensor(DType::kInt32, sa, va), tb = make_tensor(DType::kInt32, sb, vb);
    const Tensor tc = make_tensor(DType::kBool, sc, vc);
    const Tensor mul = run_op("Mul", 14, {}, {ta, tb})[0];
    const Tensor where = run_op("Where", 16, {}, {tc, ta, tb})[0];
    REQUIRE(mul.shape() == broadcast_shapes({sa, sb}));
    REQUIRE(where.shape() == full);
    // Plain reference: the flat index of an output coordinate in an input.
    auto offset = [](const Shape& in, const Shape& o, const std::vector<int64_t>& coord) {
      int64_t off = 0;
      for (size_t j = 0; j < in.size(); ++j) {
        const size_t od = o.size() - in.size() + j;
        off = off * in[j] + (in[j] == 1 ? 0 : coord[od]);
      }
      return off;
    };
    auto check = [&](const Shape& o, const auto& want_at, const Tensor& got) {
      const auto g = values_of<int32_t>(got);
      std::vector<int64_t> coord(o.size(), 0);
      for (int64_t k = 0; k < checked_numel(o); ++k) {
        REQUIRE(g[static_cast<size_t>(k)] == want_at(coord));
        for (size_t d = o.size(); d-- > 0;) {
          if (++coord[d] < o[d]) break;
          coord[d] = 0;
        }
      }
    };
    const Shape mo = mul.shape();
    check(
        mo,
        [&](const std::vector<int64_t>& c) {
          return va[static_cast<size_t>(offset(sa, mo, c))] * vb[static_cast<size_t>(offset(sb, mo, c))];
        },
        mul);
    check(
        full,
        [&](const std::vector<int64_t>& c) {
          return vc[static_cast<size_t>(offset(sc, full, c))] ? va[static_cast<size_t>(offset(sa, full, c))]
                                                              : vb[static_cast<size_t>(offset(sb, full, c))];
        },
        where);
  }
}

TEST_CASE("the element of a broadcast input that an output element reads", "[broadcast]") {
  const Shape out{2, 3, 4};
  // Output [1,2,3] (flat 23): a [3,1] reads [2,0], a [4] reads [3], a [2,1,4] reads [1,0,3].
  CHECK(broadcast_source_index(out, 23, {3, 1}) == 2);
  CHECK(broadcast_source_index(out, 23, {4}) == 3);
  CHECK(broadcast_source_index(out, 23, {2, 1, 4}) == 7);
  CHECK(broadcast_source_index(out, 23, {2, 3, 4}) == 23);
  CHECK(broadcast_source_index(out, 23, {}) == 0);
  CHECK(broadcast_source_index(out, 23, {1, 1, 1, 1}) == -1);  // a rank above the output's
  CHECK(broadcast_source_index(out, 23, {3}) == -1);           // 3 against 4
}
