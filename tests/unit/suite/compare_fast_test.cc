// The fast comparison (suite/compare_fast.cc) against the scalar reference
// (compare_tensors_reference): every field of the Comparison and of its error statistics
// the same bit for bit, over every dtype, every shape class (0-d, empty, small, large, not
// a multiple of a vector width or of the fast path's runs), NaN, infinities, both zeros,
// NaN payloads and bool bytes other than 0 and 1, under every kind of tolerance, whole
// and fed in blocks. Also the fast error decade against its definition.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/thread_pool.h"
#include "suite/compare.h"
#include "suite/error_decade.h"
#include "suite/ulp.h"
#include "support/edge_values.h"
#include "support/references.h"

using namespace onnxrun;

namespace {

bool same_double(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Every number either path reports, with what differs named.
void check_same(const Comparison& fast, const Comparison& ref) {
  CHECK(fast.ok == ref.ok);
  CHECK(fast.problem == ref.problem);
  CHECK(fast.mismatches == ref.mismatches);
  CHECK(fast.numel == ref.numel);
  CHECK(fast.bit_differences == ref.bit_differences);
  CHECK(fast.max_ulp == ref.max_ulp);
  CHECK(fast.worst_index == ref.worst_index);
  CHECK(fast.worst_position == ref.worst_position);
  CHECK(same_double(fast.expected, ref.expected));
  CHECK(same_double(fast.actual, ref.actual));
  CHECK(fast.expected_text == ref.expected_text);
  CHECK(fast.actual_text == ref.actual_text);
  CHECK(fast.expected_bits == ref.expected_bits);
  CHECK(fast.actual_bits == ref.actual_bits);
  CHECK(same_double(fast.abs_err, ref.abs_err));
  CHECK(same_double(fast.rel_err, ref.rel_err));
  CHECK(fast.ulp == ref.ulp);
  CHECK(same_double(fast.needed_atol, ref.needed_atol));
  CHECK(same_double(fast.needed_rtol, ref.needed_rtol));
  CHECK(fast.hard_mismatch == ref.hard_mismatch);
  const ErrorStats &f = fast.errors, &r = ref.errors;
  CHECK(f.count == r.count);
  CHECK(same_double(f.max_abs, r.max_abs));
  CHECK(same_double(f.mean_abs, r.mean_abs));
  CHECK(same_double(f.median_abs, r.median_abs));
  CHECK(same_double(f.max_rel, r.max_rel));
  CHECK(same_double(f.mean_rel, r.mean_rel));
  CHECK(same_double(f.median_rel, r.median_rel));
  CHECK(f.exact == r.exact);
  CHECK(f.infinite == r.infinite);
  CHECK(f.decades == r.decades);
  CHECK(fast.verdict() == ref.verdict());
  CHECK(fast.error_report("  ") == ref.error_report("  "));
}

// Bit patterns worth meeting for an element of `size` bytes of `dtype`: zeros of both
// signs, infinities, NaNs with payloads and signs, subnormals, normals, extremes.
std::vector<uint64_t> interesting_bits(DType dtype) {
  std::vector<uint64_t> v;
  auto add_floats = [&](auto values) {
    for (auto x : values) {
      uint64_t b = 0;
      std::memcpy(&b, &x, sizeof x);
      v.push_back(b);
    }
  };
  switch (dtype) {
    case DType::kFloat: add_floats(test::edge_values<float>()); break;
    case DType::kDouble: add_floats(test::edge_values<double>()); break;
    case DType::kFloat16:
      v = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7c01, 0x7e01, 0x0001, 0x8001,
           0x03ff, 0x0400, 0x3c00, 0xbc00, 0x3c01, 0x7bff, 0xfbff, 0x1234, 0x5555, 0xaaaa};
      break;
    case DType::kBFloat16:
      v = {0x0000, 0x8000, 0x7f80, 0xff80, 0x7fc0, 0xffc0, 0x7f81, 0x7fc1, 0x0001, 0x8001,
           0x007f, 0x0080, 0x3f80, 0xbf80, 0x3f81, 0x7f7f, 0xff7f, 0x1234, 0x5555, 0xaaaa};
      break;
    case DType::kBool: v = {0, 1, 2, 255}; break;
    default:
      v = {0,
           1,
           2,
           0x7f,
           0x80,
           0xff,
           0x7fff,
           0x8000,
           0xffff,
           0x7fffffff,
           0x80000000,
           0xffffffff,
           0x7fffffffffffffffull,
           0x8000000000000000ull,
           0xffffffffffffffffull,
           0x1234567890abcdefull};
  }
  return v;
}

// A pair of tensors of `dtype` and `shape`: expected from the interesting patterns and
// random bytes, actual the same but for `changes` in every thousand elements (at random
// places, in runs, and at the edges), each one bit, the sign, a payload bit, a neighbour
// or another pattern.
std::pair<Tensor, Tensor> pair_of(DType dtype, const Shape& shape, int changes, uint32_t seed) {
  Tensor e(dtype, shape), a(dtype, shape);
  const size_t size = dtype_size(dtype);
  const int64_t n = e.numel();
  std::mt19937_64 rng(seed);
  const std::vector<uint64_t> special = interesting_bits(dtype);
  auto pattern = [&]() -> uint64_t { return rng() % 3 ? special[rng() % special.size()] : rng(); };
  auto* ep = static_cast<char*>(n ? e.mutable_raw() : nullptr);
  auto* ap = static_cast<char*>(n ? a.mutable_raw() : nullptr);
  for (int64_t k = 0; k < n; ++k) {
    const uint64_t b = pattern();
    std::memcpy(ep + k * size, &b, size);  // little-endian: the low bytes
  }
  if (n) std::memcpy(ap, ep, n * size);
  const uint64_t sign = size >= 8 ? uint64_t{1} << 63 : uint64_t{1} << (8 * size - 1);
  auto change = [&](int64_t k) {
    uint64_t b = 0;
    std::memcpy(&b, ap + k * size, size);
    switch (rng() % 6) {
      case 0: b ^= 1; break;
      case 1: b ^= sign; break;
      case 2: b ^= uint64_t{1} << (rng() % (8 * size)); break;
      case 3: b += 1 + rng() % 3; break;
      case 4: b -= 1; break;
      default: b = pattern();
    }
    std::memcpy(ap + k * size, &b, size);
  };
  if (n == 0) return {e, a};
  for (int64_t k = 0; k < n; ++k)
    if (static_cast<int>(rng() % 1000) < changes) change(k);
  if (changes > 0) {
    change(0);
    change(n - 1);
    const int64_t run_start = static_cast<int64_t>(rng() % static_cast<uint64_t>(n));
    for (int64_t k = run_start; k < std::min(n, run_start + 40); ++k) change(k);
  }
  return {e, a};
}

std::vector<Tolerance> tolerances() {
  std::vector<Tolerance> t(9);
  t[1].rtol = 0;
  t[1].atol = 0;
  t[2].exact = true;
  t[3].max_ulp = 0;
  t[4].max_ulp = 3;
  t[5].stat = ErrorStat::kMedian;
  t[6].stat = ErrorStat::kMean;
  t[7].stat = ErrorStat::kMax;
  t[8].rtol = 0.5;
  t[8].atol = 1e3;
  return t;
}

const DType kAllTypes[] = {DType::kFloat,  DType::kDouble, DType::kFloat16, DType::kBFloat16,     DType::kInt8,
                           DType::kUInt8,  DType::kBool,   DType::kInt16,   DType::kUInt16,       DType::kInt32,
                           DType::kUInt32, DType::kInt64,  DType::kUInt64,  DType::kFloat8E4M3FN, DType::kComplex64};

}  // namespace

TEST_CASE("the fast comparison reports what the reference does, for every dtype, shape and tolerance",
          "[compare][compare_fast]") {
  const std::vector<Shape> shapes = {{}, {0}, {3, 0}, {1}, {7}, {2, 3}, {33}, {1025}, {3, 4097}, {20011}};
  uint32_t seed = 1;
  for (DType dtype : kAllTypes)
    for (const Shape& shape : shapes)
      for (int changes : {0, 1, 30, 1000}) {
        const auto [e, a] = pair_of(dtype, shape, changes, seed++);
        for (const Tolerance& tol : tolerances()) {
          INFO(dtype_name(dtype) << shape_to_string(shape) << " changes/1000 " << changes << " rtol " << tol.rtol
                                 << " atol " << tol.atol << " exact " << tol.exact << " stat "
                                 << error_stat_name(tol.stat));
          check_same(compare_tensors(e, a, tol), compare_tensors_reference(e, a, tol));
        }
      }
}

TEST_CASE("runs of finite floats, tallied a run at a time, report what the reference does", "[compare][compare_fast]") {
  // Every value finite, so that after the first run (1024 floats) each run that differs
  // is tallied at once where the CPU has AVX-512 (RunTally): the greatest needed atol and
  // rtol and ULP distance, the counts, and of equal scores the first element as the worst.
  std::mt19937 rng(5);
  std::normal_distribution<float> normal;
  auto nudge = [](float v, int steps) {
    for (; steps > 0; --steps) v = std::nextafter(v, std::numeric_limits<float>::infinity());
    for (; steps < 0; ++steps) v = std::nextafter(v, -std::numeric_limits<float>::infinity());
    return v;
  };
  std::vector<Tolerance> tols = tolerances();
  tols.resize(tols.size() + 3);
  tols[tols.size() - 3].rtol = std::numeric_limits<double>::infinity();  // every need_atol -inf or NaN
  tols[tols.size() - 2].atol = 1e-3;
  tols[tols.size() - 2].rtol = 0;
  tols[tols.size() - 1].atol = -1;  // identical elements counted one by one
  for (int64_t n : {1025, 2048, 3001, 20000})
    for (int kind = 0; kind < 4; ++kind) {
      Tensor e(DType::kFloat, {n}), a(DType::kFloat, {n});
      float* ev = e.mutable_data<float>();
      float* av = a.mutable_data<float>();
      for (int64_t k = 0; k < n; ++k) {
        const unsigned pick = rng() % 16;
        ev[k] = kind == 1   ? 1.0f  // scores all equal: the first that differs is the worst
                : pick == 0 ? 0.0f
                : pick == 1 ? -0.0f
                : pick == 2 ? std::numeric_limits<float>::denorm_min() * static_cast<float>(1 + rng() % 5)
                            : std::ldexp(normal(rng), static_cast<int>(rng() % 20) - 10);
        const unsigned change = rng() % 8;
        av[k] = kind == 2 && k < n / 2 ? ev[k]  // the first runs identical
                : kind == 1            ? nudge(ev[k], change < 4 ? 0 : 1)
                : change == 0          ? ev[k]
                : change == 1          ? -ev[k]
                : change == 2          ? ev[k] * 1.001f
                : kind == 3            ? nudge(ev[k], static_cast<int>(rng() % 41) - 20)
                                       : nudge(ev[k], static_cast<int>(rng() % 7) - 3);
      }
      for (const Tolerance& tol : tols) {
        INFO(n << " elements, kind " << kind << " rtol " << tol.rtol << " atol " << tol.atol << " exact " << tol.exact
               << " stat " << error_stat_name(tol.stat));
        check_same(compare_tensors(e, a, tol), compare_tensors_reference(e, a, tol));
      }
    }
}

TEST_CASE("fed in blocks, the fast comparison reports what the whole reference does", "[compare][compare_fast]") {
  for (DType dtype : {DType::kFloat, DType::kFloat16, DType::kDouble, DType::kInt32, DType::kBool}) {
    for (int changes : {0, 2, 500}) {
      const auto [e, a] = pair_of(dtype, {50000}, changes, 77 + changes);
      const size_t size = dtype_size(dtype);
      for (int64_t block : {1, 999, 1024, 4096, 50000}) {
        INFO(dtype_name(dtype) << " changes/1000 " << changes << " block " << block);
        const Tolerance tol;
        ComparisonBuilder b(e, dtype, e.shape(), tol);
        for (int64_t begin = 0; begin < e.numel(); begin += block) {
          const int64_t m = std::min(block, e.numel() - begin);
          Tensor part(dtype, {m});
          std::memcpy(part.mutable_raw(), static_cast<const char*>(a.raw()) + begin * size, m * size);
          b.add(begin, part);
        }
        check_same(b.finish(), compare_tensors_reference(e, a, tol));
      }
    }
  }
}

TEST_CASE("both sides in blocks, over as many passes as the medians want, report what the whole reference does",
          "[compare][compare_fast][median]") {
  for (DType dtype : {DType::kFloat, DType::kBFloat16, DType::kDouble, DType::kInt16, DType::kBool}) {
    for (int changes : {0, 3, 600, 1000}) {
      const auto [e, a] = pair_of(dtype, {3, 7001}, changes, 91 + changes);
      const size_t size = dtype_size(dtype);
      std::vector<Tolerance> tols = tolerances();
      for (size_t kept : {size_t{0}, size_t{1}, size_t{50}, size_t{1} << 20})
        for (int64_t block : {1000, 21003}) {
          for (ComparisonBuilder::Path path : {ComparisonBuilder::Path::kFast, ComparisonBuilder::Path::kReference}) {
            for (const Tolerance& tol : {tols[0], tols[5], tols[3]}) {
              INFO(dtype_name(dtype) << " changes/1000 " << changes << " kept " << kept << " block " << block
                                     << " reference " << (path == ComparisonBuilder::Path::kReference) << " stat "
                                     << error_stat_name(tol.stat));
              ComparisonBuilder b(dtype, e.shape(), dtype, a.shape(), tol, path);
              b.keep_errors(kept);
              int passes = 0;
              const Comparison got = b.finish_in_passes([&](int pass) {
                CHECK(pass == ++passes);
                for (int64_t begin = 0; begin < e.numel(); begin += block) {
                  const int64_t m = std::min(block, e.numel() - begin);
                  Tensor pe(dtype, {m}), pa(dtype, {m});
                  std::memcpy(pe.mutable_raw(), static_cast<const char*>(e.raw()) + begin * size, m * size);
                  std::memcpy(pa.mutable_raw(), static_cast<const char*>(a.raw()) + begin * size, m * size);
                  b.add(begin, pe, pa);
                }
              });
              if (kept == 0 || changes <= 3) CHECK(passes == 1);
              // Random float errors, one kept: the median's bucket holds more than one value.
              // (Integer mismatches are all infinite: one value, found in the first pass.)
              if (kept == 1 && changes >= 600 && (dtype == DType::kFloat || dtype == DType::kDouble)) CHECK(passes > 1);
              check_same(got, compare_tensors_reference(e, a, tol));
            }
          }
        }
    }
  }
}

TEST_CASE("parts compared side by side and merged in order report what one builder does",
          "[compare][compare_fast][median]") {
  // Parts begin at multiples of kPartAlign; the last one is the longest. Every pass's
  // parts run on threads of their own, as `compare` runs them.
  constexpr int64_t kAlign = ComparisonBuilder::kPartAlign;
  ThreadPool pool(4);
  const std::pair<DType, int> cases[] = {
      {DType::kFloat, 3}, {DType::kFloat, 1000}, {DType::kDouble, 1000}, {DType::kInt16, 1000}, {DType::kBool, 3}};
  for (const auto& [dtype, changes] : cases) {
    const auto [e, a] = pair_of(dtype, {8 * kAlign + 1234}, changes, 131 + changes);
    const size_t size = dtype_size(dtype);
    const std::vector<Tolerance> tols = tolerances();
    for (size_t kept : {size_t{0}, size_t{50}, size_t{1} << 20})
      for (int64_t parts : {2, 5})
        for (const Tolerance& tol : {tols[0], tols[2], tols[6]}) {
          INFO(dtype_name(dtype) << " changes/1000 " << changes << " kept " << kept << " parts " << parts << " stat "
                                 << error_stat_name(tol.stat) << " exact " << tol.exact);
          ComparisonBuilder b(dtype, e.shape(), dtype, a.shape(), tol);
          b.keep_errors(kept);
          const Comparison got = b.finish_in_passes([&](int) {
            std::vector<ComparisonBuilder> later;
            for (int64_t k = 1; k < parts; ++k) later.push_back(b.part(static_cast<size_t>(parts)));
            pool.run(static_cast<size_t>(parts), [&](size_t k) {
              const int64_t first = std::min(e.numel(), static_cast<int64_t>(k) * kAlign);
              const int64_t last = k + 1 == static_cast<size_t>(parts) ? e.numel() : first + kAlign;
              Tensor pe(dtype, {last - first}), pa(dtype, {last - first});
              std::memcpy(pe.mutable_raw(), static_cast<const char*>(e.raw()) + first * size, (last - first) * size);
              std::memcpy(pa.mutable_raw(), static_cast<const char*>(a.raw()) + first * size, (last - first) * size);
              (k == 0 ? b : later[k - 1]).add(first, pe, pa);
            });
            for (ComparisonBuilder& l : later) b.merge(std::move(l));
          });
          const Comparison reference = compare_tensors_reference(e, a, tol);
          check_same(got, reference);
          if (kept == ErrorStatsBuilder::kKeptErrors && parts == 2)  // as a whole run splits its outputs' checks
            check_same(compare_tensors(e, a, tol, &pool), reference);
        }
  }
}

TEST_CASE("the mean error sums each run of 65536 elements in order, then those sums in order",
          "[compare][error-stats]") {
  // Written out plainly: the grouping is what lets parts of a comparison be merged with
  // the same bits as one builder's sums.
  constexpr int64_t kChunk = 65536;
  const int64_t n = 3 * kChunk + 777;
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<double> abs(static_cast<size_t>(n));
  for (double& v : abs) v = rng() % 4 ? 0.0 : u(rng) * std::ldexp(1.0, static_cast<int>(rng() % 60) - 30);
  double total = 0, chunk = 0;
  for (int64_t k = 0; k < n; ++k) {
    chunk += abs[static_cast<size_t>(k)];
    if ((k + 1) % kChunk == 0 || k + 1 == n) {
      total += chunk;
      chunk = 0;
    }
  }
  ErrorStatsBuilder b;
  for (int64_t k = 0; k < n;) {  // runs of zeros through add_exact, as the fast path gives them
    if (abs[static_cast<size_t>(k)] == 0) {
      int64_t m = 0;
      while (k + m < n && abs[static_cast<size_t>(k + m)] == 0) ++m;
      b.add_exact(m);
      k += m;
    } else {
      b.add(abs[static_cast<size_t>(k)], 0);
      ++k;
    }
  }
  while (b.needs_pass()) {
    b.begin_pass();
    for (double v : abs) b.add(v, 0);
  }
  const ErrorStats s = b.finish();
  CHECK(same_double(s.mean_abs, total / static_cast<double>(n)));
}

TEST_CASE("the mean of errors near the largest double is theirs, not inf", "[compare][error-stats]") {
  // Found by black-box testing: three errors of 1e308 had the mean inf, and so failed
  // --check-error-stat mean under any atol. In one chunk, across chunks (whose sums then
  // add up past the largest double), and an infinite error still infinite. Errors of
  // 2^1023, whose sums are exact, so that the mean must be exactly that.
  const double top = std::ldexp(1.0, 1023);
  for (const int64_t n : {int64_t{3}, 3 * ErrorStatsBuilder::kSumChunk + 5}) {
    INFO(n << " errors of 2^1023");
    const std::vector<double> big(static_cast<size_t>(n), top), rel(static_cast<size_t>(n), 1.0);
    ErrorStatsBuilder b(0);
    b.add_batch(big.data(), rel.data(), n);
    const ErrorStats s = b.finish();
    CHECK(s.mean_abs == top);
    CHECK(s.mean_rel == 1.0);
  }
  ErrorStatsBuilder b(0);
  b.add(top, 1);
  b.add(std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity());
  CHECK(std::isinf(b.finish().mean_abs));
}

TEST_CASE("doubles whose difference is past the largest double are judged on their halves, as the reference does",
          "[compare][compare_fast]") {
  // e - a is inf (1.5e308 against -1.5e308), so the verdict is taken on the halves: under
  // rtol 2.5 the allowed 2.5 * |e| covers the difference 3e308, under the default it does
  // not, and the errors stay infinite. At the head, amid and at the tail of vector runs.
  const double big = 1.5e308;
  for (const int64_t at : {int64_t{0}, int64_t{17}, int64_t{1024}}) {
    INFO("at " << at);
    Tensor e(DType::kDouble, {1025}), a(DType::kDouble, {1025});
    for (int64_t k = 0; k < 1025; ++k) e.mutable_data<double>()[k] = a.mutable_data<double>()[k] = 0.5 * k;
    e.mutable_data<double>()[at] = big;
    a.mutable_data<double>()[at] = -big;
    Tolerance wide;
    wide.rtol = 2.5;
    const Comparison passes = compare_tensors(e, a, wide);
    check_same(passes, compare_tensors_reference(e, a, wide));
    CHECK(passes.ok);
    CHECK(passes.mismatches == 0);
    CHECK(std::isinf(passes.abs_err));
    for (const Tolerance& tol : tolerances()) {
      INFO("rtol " << tol.rtol << " atol " << tol.atol << " exact " << tol.exact);
      const Comparison c = compare_tensors(e, a, tol);
      check_same(c, compare_tensors_reference(e, a, tol));
      if (tol.stat == ErrorStat::kElemwise) CHECK_FALSE(c.ok);
      CHECK(c.worst_index == at);
    }
  }
}

TEST_CASE("two sides of another type or shape are the problem, in blocks too", "[compare][compare_fast]") {
  ComparisonBuilder b(DType::kFloat, {2, 3}, DType::kFloat16, {2, 3}, Tolerance{});
  int passes = 0;
  const Comparison c = b.finish_in_passes([&](int) { ++passes; });
  CHECK(passes == 1);  // nothing is read, and nothing is asked again
  CHECK_FALSE(c.ok);
  CHECK(c.problem == "expected float[2,3], got float16[2,3]");
}

TEST_CASE("the fast comparison reads elements at any alignment", "[compare][compare_fast]") {
  // A mapped file's tensor may start at any byte: views at every offset of one buffer.
  const auto [e, a] = pair_of(DType::kFloat, {5000}, 10, 5);
  for (size_t offset = 0; offset < 8; ++offset) {
    auto be = Buffer::allocate(e.nbytes() + 8), ba = Buffer::allocate(a.nbytes() + 8);
    std::memcpy(be->mutable_data() + offset, e.raw(), e.nbytes());
    std::memcpy(ba->mutable_data() + (7 - offset), a.raw(), a.nbytes());
    const Tensor ev(DType::kFloat, e.shape(), Buffer::borrow(be->data() + offset, e.nbytes(), be, false));
    const Tensor av(DType::kFloat, a.shape(), Buffer::borrow(ba->data() + (7 - offset), a.nbytes(), ba, false));
    INFO("offset " << offset);
    check_same(compare_tensors(ev, av, {}), compare_tensors_reference(e, a, {}));
  }
}

TEST_CASE("a negative or NaN tolerance takes the element-by-element path and agrees", "[compare][compare_fast]") {
  for (double atol : {-1.0, 0.0, std::nan("")})
    for (double rtol : {-0.5, 0.0, std::nan("")}) {
      Tolerance tol;
      tol.atol = atol;
      tol.rtol = rtol;
      const auto [e, a] = pair_of(DType::kFloat, {9000}, 3, 11);
      INFO("atol " << atol << " rtol " << rtol);
      check_same(compare_tensors(e, a, tol), compare_tensors_reference(e, a, tol));
    }
}

TEST_CASE("no ULP bound passes unequal integers or bools or bytes on either path", "[compare][compare_fast]") {
  // --max-ulp N once passed them when their difference was within N: 5 against 6 passed
  // --max-ulp 1, a wrong bool any bound at all.
  for (DType dtype : kAllTypes) {
    if (dtype == DType::kFloat || dtype == DType::kDouble || dtype == DType::kFloat16 || dtype == DType::kBFloat16)
      continue;
    const auto [e, a] = pair_of(dtype, {1025}, 30, 17);
    for (uint64_t bound : {uint64_t{1}, uint64_t{1000}, kUlpInfinite - 1}) {
      Tolerance tol;
      tol.max_ulp = bound;
      INFO(dtype_name(dtype) << " --max-ulp " << bound);
      const Comparison fast = compare_tensors(e, a, tol);
      check_same(fast, compare_tensors_reference(e, a, tol));
      CHECK_FALSE(fast.ok);
      CHECK(fast.hard_mismatch);
      CHECK(fast.bit_differences > 0);
      CHECK(fast.mismatches == fast.bit_differences);
      CHECK_THAT(fast.verdict(), Catch::Contains("no tolerance passes it"));
    }
  }
  Tensor five(DType::kInt32, {1}), six(DType::kInt32, {1});
  five.mutable_data<int32_t>()[0] = 5;
  six.mutable_data<int32_t>()[0] = 6;
  Tolerance one_ulp;
  one_ulp.max_ulp = 1;
  const Comparison c = compare_tensors(five, six, one_ulp);
  CHECK_FALSE(c.ok);
  CHECK(c.max_ulp == 1);  // reported, not allowed
  // Not "beyond 1 ULP": the element is 1 ULP apart; it fails for being unequal.
  CHECK(c.brief() == "1 of 1 elements unequal (integers and bool must be equal under any --max-ulp), max ulp 1");
  CHECK_THAT(c.verdict(), Catch::StartsWith("1 of 1 elements unequal (integers and bool must be equal under any "
                                            "--max-ulp); worst (most ULPs apart)"));
  one_ulp.max_ulp = 10;
  CHECK_THAT(compare_tensors(five, six, one_ulp).brief(), !Catch::Contains("ULPs,"));
}

TEST_CASE("the fast error decade is floor(log10) as the reference defines it", "[compare][compare_fast]") {
  std::vector<double> values = {std::numeric_limits<double>::denorm_min(), std::numeric_limits<double>::min(),
                                std::numeric_limits<double>::max(), 1, 9.999999999999999e-1};
  for (int d = kMinDecade; d <= kMaxDecade + 1; ++d) {
    const double p = std::pow(10.0, d);
    if (p > 0 && std::isfinite(p))
      for (double v : {p, std::nextafter(p, 0.0), std::nextafter(p, INFINITY), p * 3, p * 0.5}) values.push_back(v);
  }
  for (int e = -1074; e <= 1023; ++e) {  // every binade's edges: decade_of starts from 2^e's decade
    const double p = std::ldexp(1.0, e);
    for (double v : {p, std::nextafter(p, 0.0), std::nextafter(p, INFINITY)}) values.push_back(v);
  }
  std::mt19937_64 rng(3);
  for (int k = 0; k < 200000; ++k) {
    uint64_t bits = rng() & 0x7fffffffffffffffull;
    double v;
    std::memcpy(&v, &bits, sizeof v);
    values.push_back(v);
  }
  for (double v : values) {
    if (!(v > 0) || !std::isfinite(v)) continue;
    INFO(v);
    REQUIRE(decade_of(v) == decade_of_reference(v));
  }
}
