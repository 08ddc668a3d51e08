// Statistics of a tensor (core/tensor_stats.h): NaN and inf counted apart, left out of
// mean and std.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <thread>

#include "core/half.h"
#include "core/tensor_stats.h"
#include "core/tensor_stats_chunk.h"
#include "core/thread_pool.h"
#include "io/tensor_text.h"  // format_stats, the printed form
#include "support/tensors.h"

using namespace onnxrun;
using onnxrun::test::float_tensor;

TEST_CASE("statistics count NaN and inf apart and ignore them in mean and std", "[stats]") {
  const double inf = std::numeric_limits<double>::infinity();
  TensorStats s = tensor_stats(float_tensor({6}, {1, 2, 3, NAN, static_cast<float>(inf), static_cast<float>(-inf)}));
  CHECK(s.nan == 1);
  CHECK(s.pos_inf == 1);
  CHECK(s.neg_inf == 1);
  CHECK(s.min == -inf);
  CHECK(s.max == inf);
  CHECK(s.mean == 2);
  CHECK(s.std == Approx(std::sqrt(2.0 / 3.0)));
  TensorStats all_nan = tensor_stats(float_tensor({2}, {NAN, NAN}));
  CHECK(std::isnan(all_nan.mean));
  CHECK(format_stats(all_nan) == "no finite values, nan 2 inf 0");  // no NaN statistics
  CHECK(format_stats(s) == "min -inf max inf mean 2 std 0.816497 (finite values) nan 1 inf 2");
  CHECK(format_stats(tensor_stats(float_tensor({2}, {-1, 3}))) == "min -1 max 3 mean 1 std 2 nan 0 inf 0");
}

// ---- The chunked, lane-parallel computation against a plain reference ----

namespace {

// The textbook two-pass computation in long double, one element at a time.
TensorStats reference_stats(const std::vector<double>& v) {
  TensorStats s;
  s.numeric = true;
  s.count = static_cast<int64_t>(v.size());
  const double nan = std::numeric_limits<double>::quiet_NaN();
  s.min = s.max = s.mean = s.std = nan;
  long double sum = 0;
  bool any = false;
  for (double x : v) {
    if (std::isnan(x)) {
      ++s.nan;
      continue;
    }
    if (!any || x < s.min) s.min = x;
    if (!any || x > s.max) s.max = x;
    any = true;
    if (std::isinf(x)) {
      ++(x > 0 ? s.pos_inf : s.neg_inf);
      continue;
    }
    ++s.finite;
    sum += x;
  }
  if (s.finite == 0) return s;
  const long double mean = sum / s.finite;
  long double m2 = 0;
  for (double x : v)
    if (std::isfinite(x)) m2 += (x - mean) * (x - mean);
  s.mean = static_cast<double>(mean);
  s.std = static_cast<double>(std::sqrt(m2 / s.finite));
  return s;
}

// n values of `dtype` (as a tensor) and the same values as doubles: mostly normal around
// an offset, with NaN and infinities sprinkled in when `special`.
std::pair<Tensor, std::vector<double>> sample(DType dtype, size_t n, bool special, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> normal(3.0, 2.0);
  std::vector<double> want(n);
  Tensor t(dtype, Shape{static_cast<int64_t>(n)});
  for (size_t i = 0; i < n; ++i) {
    double x = normal(rng);
    if (special && rng() % 97 == 0) x = std::array<double, 3>{NAN, INFINITY, -INFINITY}[rng() % 3];
    switch (dtype) {
      case DType::kFloat:
        t.mutable_data<float>()[i] = static_cast<float>(x);
        want[i] = t.data<float>()[i];
        break;
      case DType::kDouble: t.mutable_data<double>()[i] = want[i] = x; break;
      case DType::kFloat16:
        t.mutable_data<uint16_t>()[i] = double_to_float16(x);
        want[i] = float16_to_float(t.data<uint16_t>()[i]);
        break;
      case DType::kBFloat16:
        t.mutable_data<uint16_t>()[i] = double_to_bfloat16(x);
        want[i] = bfloat16_to_float(t.data<uint16_t>()[i]);
        break;
      case DType::kInt32:
        t.mutable_data<int32_t>()[i] = static_cast<int32_t>(std::isfinite(x) ? x * 1000 : 7);
        want[i] = t.data<int32_t>()[i];
        break;
      default: FAIL("no sample for this type");
    }
  }
  return {t, want};
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void check_identical(const TensorStats& a, const TensorStats& b) {
  CHECK(a.count == b.count);
  CHECK(a.nan == b.nan);
  CHECK(a.pos_inf == b.pos_inf);
  CHECK(a.neg_inf == b.neg_inf);
  CHECK(a.finite == b.finite);
  CHECK(same_bits(a.min, b.min));
  CHECK(same_bits(a.max, b.max));
  CHECK(same_bits(a.mean, b.mean));
  CHECK(same_bits(a.std, b.std));
}

// A chunk's part in TensorStats' fields (m2 in std), for check_identical.
TensorStats as_stats(const StatsPart& p) {
  TensorStats s;
  s.count = p.count, s.nan = p.nan, s.pos_inf = p.pos_inf, s.neg_inf = p.neg_inf, s.finite = p.finite;
  s.min = p.min, s.max = p.max, s.mean = p.mean, s.std = p.m2;
  return s;
}

}  // namespace

TEST_CASE("statistics agree with a plain two-pass reference for every float type and size", "[stats]") {
  for (DType dtype : {DType::kFloat, DType::kDouble, DType::kFloat16, DType::kBFloat16, DType::kInt32})
    for (size_t n : {size_t{1}, size_t{7}, size_t{8}, size_t{4095}, size_t{4096}, size_t{4097}, size_t{100003}})
      for (bool special : {false, true}) {
        CAPTURE(dtype_name(dtype), n, special);
        const auto [t, values] = sample(dtype, n, special, static_cast<uint32_t>(n));
        const TensorStats got = tensor_stats(t);
        const TensorStats want = reference_stats(values);
        CHECK(got.count == want.count);
        CHECK(got.nan == want.nan);
        CHECK(got.pos_inf == want.pos_inf);
        CHECK(got.neg_inf == want.neg_inf);
        CHECK(got.finite == want.finite);
        CHECK(got.min == want.min);
        CHECK(got.max == want.max);
        CHECK(got.mean == Approx(want.mean).epsilon(1e-12));
        CHECK(got.std == Approx(want.std).epsilon(1e-12));
      }
}

TEST_CASE("statistics stay accurate when a chunk's first element is far from the rest", "[stats]") {
  // Each chunk's sums are of deviations from its first element; the worst case for the
  // cancellation in sum(d^2) - sum(d)^2 / n is a first element far out and the rest close
  // together, with a large offset. The bound is d^2 <= 4 (x - mean)^2 for the farthest x.
  for (DType dtype : {DType::kFloat, DType::kDouble}) {
    CAPTURE(dtype_name(dtype));
    const size_t n = 3 * 4096 + 5;
    std::mt19937 rng(5);
    std::normal_distribution<double> near(0, 1e-3);
    std::vector<double> values(n);
    Tensor t(dtype, Shape{static_cast<int64_t>(n)});
    for (size_t i = 0; i < n; ++i) {
      const double x = i % 4096 == 0 ? 1e6 + 1e3 : 1e6 + near(rng);
      if (dtype == DType::kFloat) values[i] = t.mutable_data<float>()[i] = static_cast<float>(x);
      else values[i] = t.mutable_data<double>()[i] = x;
    }
    const TensorStats got = tensor_stats(t), want = reference_stats(values);
    CHECK(got.mean == Approx(want.mean).epsilon(1e-12));
    CHECK(got.std == Approx(want.std).epsilon(1e-9));
    // And all alike but the last: a spread of 1e-3 around 1e6, found to 6 digits.
    for (size_t i = 0; i < n; ++i) {
      const double x = 1e6 + (i % 2 ? 1e-3 : -1e-3);
      if (dtype == DType::kDouble) values[i] = t.mutable_data<double>()[i] = x;
    }
    if (dtype == DType::kDouble) {
      const TensorStats close = tensor_stats(t);
      CHECK(close.std == Approx(reference_stats(values).std).epsilon(1e-6));
    }
  }
}

TEST_CASE("statistics do not depend on the blocks a caller gives, nor on threads", "[stats]") {
  ThreadPool pool(2);
  for (DType dtype : {DType::kFloat, DType::kDouble, DType::kFloat16, DType::kBFloat16, DType::kInt32}) {
    CAPTURE(dtype_name(dtype));
    const auto [t, values] = sample(dtype, 300001, true, 11);
    const TensorStats whole = tensor_stats(t);
    check_identical(tensor_stats(t, &pool), whole);
    const auto* bytes = static_cast<const unsigned char*>(t.raw());
    const size_t esize = dtype_size(dtype);
    for (size_t block : {size_t{1}, size_t{3}, size_t{4096}, size_t{10000}, size_t{262144}}) {
      CAPTURE(block);
      StatsAccumulator a(dtype, values.size());
      for (size_t at = 0; at < values.size(); at += block)
        a.add(at, bytes + at * esize, std::min(block, values.size() - at), block % 2 ? nullptr : &pool);
      check_identical(a.result(), whole);
    }
  }
}

TEST_CASE("statistics do not depend on the order blocks come in, nor on how many threads add them", "[stats]") {
  for (DType dtype : {DType::kFloat, DType::kDouble, DType::kFloat16, DType::kInt32}) {
    CAPTURE(dtype_name(dtype));
    const auto [t, values] = sample(dtype, 100003, true, 12);
    const TensorStats whole = tensor_stats(t);
    const auto* bytes = static_cast<const unsigned char*>(t.raw());
    const size_t esize = dtype_size(dtype), n = values.size();
    for (size_t block : {size_t{1000}, size_t{4096}, size_t{5000}}) {
      CAPTURE(block);
      {  // last block first
        StatsAccumulator a(dtype, n);
        for (size_t at = (n - 1) / block * block;; at -= block) {
          a.add(at, bytes + at * esize, std::min(block, n - at));
          if (at == 0) break;
        }
        check_identical(a.result(), whole);
      }
      {  // two threads taking alternate blocks, as run_in_blocks' lanes do
        StatsAccumulator a(dtype, n);
        auto lane = [&](size_t first) {
          for (size_t at = first * block; at < n; at += 2 * block)
            a.add(at, bytes + at * esize, std::min(block, n - at));
        };
        std::thread other(lane, 1);
        lane(0);
        other.join();
        check_identical(a.result(), whole);
      }
    }
  }
}

TEST_CASE("statistics refuse a result before every element came, and elements past the end", "[stats]") {
  const auto [t, values] = sample(DType::kFloat, 10000, false, 13);
  StatsAccumulator a(DType::kFloat, values.size());
  a.add(0, t.raw(), 9999);
  CHECK_THROWS_WITH(a.result(), Catch::Contains("given 9999 of them"));
  CHECK_THROWS_WITH(a.add(9999, t.raw(), 2), Catch::Contains("given elements [9999, 10001)"));
}

namespace {

// The vector paths this CPU runs (AVX2, AVX-512), each to be compared with the portable one.
std::vector<const StatsKernels*> vector_paths_here() {
  std::vector<const StatsKernels*> paths;
  for (const StatsKernels* p : {&stats_avx2_kernels(), &stats_avx512_kernels()})
    if (p->supported()) paths.push_back(p);
    else WARN("this CPU has no " << p->name << ": that statistics path is not compared");
  return paths;
}

}  // namespace

TEST_CASE("every vector statistics path gives the portable path's bits", "[stats]") {
  const StatsKernels& portable = stats_portable_kernels();
  for (const StatsKernels* path : vector_paths_here())
    // Sizes around the loops' steps: 8 and 16 lanes, the 16-bit loop's groups of 32 and
    // its last group of 16, and the tails after each.
    for (size_t n : {size_t{1}, size_t{5}, size_t{8}, size_t{13}, size_t{16}, size_t{17}, size_t{31}, size_t{32},
                     size_t{48}, size_t{63}, size_t{4095}, size_t{4096}})
      for (bool special : {false, true}) {
        CAPTURE(path->name, n, special);
        auto [f, fv] = sample(DType::kFloat, n, special, 3);
        f.mutable_data<float>()[0] = -0.0f;  // signed zeros: min/max ties resolved the same way
        if (n > 1) f.mutable_data<float>()[n - 1] = 0.0f;
        check_identical(as_stats(path->f32(f.data<float>(), n)), as_stats(portable.f32(f.data<float>(), n)));
        const auto [d, dv] = sample(DType::kDouble, n, special, 4);
        check_identical(as_stats(path->f64(d.data<double>(), n)), as_stats(portable.f64(d.data<double>(), n)));
        auto [h, hv] = sample(DType::kFloat16, n, special, 5);
        auto [b, bv] = sample(DType::kBFloat16, n, special, 6);
        if (special) {                                 // one non-finite in the middle, wherever the sizes above put it
          h.mutable_data<uint16_t>()[n / 2] = 0xFC00;  // float16 -inf
          b.mutable_data<uint16_t>()[n / 2] = 0x7FC0;  // bfloat16 NaN
        }
        check_identical(as_stats(path->f16(h.data<uint16_t>(), n)), as_stats(portable.f16(h.data<uint16_t>(), n)));
        check_identical(as_stats(path->bf16(b.data<uint16_t>(), n)), as_stats(portable.bf16(b.data<uint16_t>(), n)));
      }
}

TEST_CASE("float16 and bfloat16 min and max: -0 below +0 wherever they fall, on every path", "[stats]") {
  std::vector<const StatsKernels*> paths = vector_paths_here();
  paths.push_back(&stats_portable_kernels());
  // half_order_key orders every finite pattern as its value, and inverts exactly.
  for (uint32_t b = 0; b < 65536; ++b) {
    const auto bits = static_cast<uint16_t>(b);
    REQUIRE(half_from_order_key(half_order_key(bits)) == bits);
    const float v = float16_to_float(bits), next = float16_to_float(static_cast<uint16_t>(b + 1));
    if (b + 1 < 65536 && std::isfinite(v) && std::isfinite(next) && (bits >> 15) == ((b + 1) >> 15))
      CHECK((half_order_key(bits) < half_order_key(static_cast<uint16_t>(b + 1))) == (bits >> 15 == 0));
  }
  const uint16_t pos0 = 0x0000, neg0 = 0x8000, one = 0x3C00;  // float16 bits; bfloat16's zeros are the same
  for (const StatsKernels* path : paths)
    for (size_t n : {size_t{2}, size_t{17}, size_t{40}})  // in the tail, in the lanes, both
      for (size_t at : {size_t{0}, size_t{1}, n - 1}) {
        CAPTURE(path->name, n, at);
        std::vector<uint16_t> x(n, pos0);
        x[at] = neg0;
        for (auto* f : {path->f16, path->bf16}) {
          const StatsPart p = f(x.data(), n);
          CHECK(std::signbit(p.min));
          CHECK_FALSE(std::signbit(p.max));
        }
        std::vector<uint16_t> y(n, one);
        y[at] = neg0;  // with a positive value: the max is it, the min -0
        const StatsPart q = path->f16(y.data(), n);
        CHECK((q.min == 0 && std::signbit(q.min)));
        CHECK(q.max == 1);
      }
}

TEST_CASE("every float16 and bfloat16 bit pattern: every path's bits, and the plain reference's values", "[stats]") {
  const std::vector<const StatsKernels*> vector_paths = vector_paths_here();
  // All 65536 patterns in 16 chunks of 4096, once in order (NaN and infinities in the
  // chunks of the exponent's top, finite elsewhere) and once with the non-finite
  // patterns left out, so that both the fast path and the plain loop see every value.
  for (DType dtype : {DType::kFloat16, DType::kBFloat16}) {
    CAPTURE(dtype_name(dtype));
    auto to_double = [&](uint16_t h) {
      return static_cast<double>(dtype == DType::kFloat16 ? float16_to_float(h) : bfloat16_to_float(h));
    };
    std::vector<uint16_t> all(65536), finite;
    for (size_t i = 0; i < all.size(); ++i) {
      all[i] = static_cast<uint16_t>(i);
      if (std::isfinite(to_double(all[i]))) finite.push_back(all[i]);
    }
    for (const std::vector<uint16_t>* bits : {&all, &finite}) {
      const size_t n = bits->size();
      for (size_t at = 0; at < n; at += kStatsChunk) {
        const size_t len = std::min(kStatsChunk, n - at);
        const uint16_t* x = bits->data() + at;
        auto run = [&](const StatsKernels& path) {
          return as_stats(dtype == DType::kFloat16 ? path.f16(x, len) : path.bf16(x, len));
        };
        for (const StatsKernels* path : vector_paths) check_identical(run(*path), run(stats_portable_kernels()));
      }
      Tensor t(dtype, Shape{static_cast<int64_t>(n)});
      std::memcpy(t.mutable_raw(), bits->data(), n * 2);
      std::vector<double> values;
      for (uint16_t h : *bits) values.push_back(to_double(h));
      const TensorStats got = tensor_stats(t), want = reference_stats(values);
      CHECK(got.nan == want.nan);
      CHECK(got.pos_inf == want.pos_inf);
      CHECK(got.neg_inf == want.neg_inf);
      CHECK(got.min == want.min);
      CHECK(got.max == want.max);
      // The patterns are symmetric: the mean is 0, so its error is measured against the spread.
      CHECK(std::abs(got.mean - want.mean) <= 1e-12 * want.std);
      CHECK(got.std == Approx(want.std).epsilon(1e-12));
    }
  }
}

TEST_CASE("statistics of empty and 0-d tensors", "[stats]") {
  const TensorStats empty = tensor_stats(Tensor(DType::kFloat, Shape{3, 0}));
  CHECK(empty.count == 0);
  CHECK(empty.numeric);
  CHECK(std::isnan(empty.mean));
  const TensorStats scalar = tensor_stats(float_tensor({}, {2.5f}));
  CHECK(scalar.count == 1);
  CHECK(scalar.min == 2.5);
  CHECK(scalar.std == 0);
}

TEST_CASE("double statistics whose squares leave the double range: scaled, alike on every path", "[stats]") {
  // Unscaled, the std of the first was inf, of the second 0 and of the third 9.99994e-161.
  const std::vector<std::vector<double>> cases = {{1e200, -1e200, 1, 2},
                                                  {1e-300, -1e-300, 1e-300, -1e-300},
                                                  {1e-160, 3e-160, 1e-160, 3e-160},
                                                  {std::numeric_limits<double>::max(), -1e308, 5e307},
                                                  {1e-310, -1e-310, 3e-310},
                                                  // A sum that overflows: the mean was NaN.
                                                  {1.5e308, 1.5e308, -1.5e308, -1.5e308, 1}};
  for (const std::vector<double>& v : cases) {
    CAPTURE(v);
    Tensor t(DType::kDouble, Shape{static_cast<int64_t>(v.size())});
    std::copy(v.begin(), v.end(), t.mutable_data<double>());
    const TensorStats got = tensor_stats(t), want = reference_stats(v);
    CHECK(got.mean == Approx(want.mean).epsilon(1e-12).margin(1e-320));
    CHECK(got.std == Approx(want.std).epsilon(1e-12));
  }
  // Over chunks: tiny, zero, huge and middling ones merged in both orders.
  const size_t n = 4 * kStatsChunk + 5;
  for (bool huge_first : {false, true}) {
    CAPTURE(huge_first);
    std::vector<double> v(n);
    for (size_t i = 0; i < n; ++i) {
      const double sign = i % 2 ? -1 : 1;
      const size_t chunk = huge_first ? 3 - std::min<size_t>(i / kStatsChunk, 3) : i / kStatsChunk;
      v[i] = chunk == 0 ? sign * 1e-300 * (1 + i % 7) : chunk == 1 ? 0 : chunk == 2 ? sign * 1e300 * (1 + i % 5) : 1.5;
    }
    Tensor t(DType::kDouble, Shape{static_cast<int64_t>(n)});
    std::copy(v.begin(), v.end(), t.mutable_data<double>());
    const TensorStats got = tensor_stats(t), want = reference_stats(v);
    CHECK(got.mean == Approx(want.mean).epsilon(1e-12));
    CHECK(got.std == Approx(want.std).epsilon(1e-12));
    // The tiny values among zeros alone: nothing lost to the scale of a chunk of zeros.
    for (double& x : v) x = std::fabs(x) < 1e-200 ? x : 0;
    std::copy(v.begin(), v.end(), t.mutable_data<double>());
    CHECK(tensor_stats(t).std == Approx(reference_stats(v).std).epsilon(1e-12));
  }
  // Every vector path scales the chunks it cannot sum as the portable one does.
  for (const StatsKernels* path : vector_paths_here())
    for (const std::vector<double>& v : cases) {
      CAPTURE(path->name, v);
      const StatsPart a = path->f64(v.data(), v.size()), b = stats_portable_kernels().f64(v.data(), v.size());
      check_identical(as_stats(a), as_stats(b));
      CHECK(a.scale == b.scale);
      CHECK(a.scale != 0);
    }
}

TEST_CASE("float, 16-bit and in-range double parts are never scaled", "[stats]") {
  for (DType dtype : {DType::kFloat, DType::kDouble, DType::kFloat16, DType::kBFloat16, DType::kInt32}) {
    CAPTURE(dtype_name(dtype));
    const auto [t, values] = sample(dtype, 4096, true, 9);
    CHECK(chunk_stats(dtype, t.raw(), 4096).scale == 0);
  }
  const float extremes[] = {std::numeric_limits<float>::max(), -std::numeric_limits<float>::max(),
                            std::numeric_limits<float>::denorm_min(), 0};
  CHECK(chunk_stats(DType::kFloat, extremes, 4).scale == 0);
}
