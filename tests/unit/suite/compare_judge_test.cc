// The judging kernels of a comparison (suite/compare_judge.h): every path the CPU has
// gives the portable kernel's numbers bit for bit, over values of every kind (zeros of
// both signs, subnormals, the largest, infinities, NaN), tolerances of every kind, and
// every length up to a run's, so that each vector loop's tail runs too. The comparison
// these numbers feed is held to the reference in compare_fast_test.cc.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <vector>

#include "suite/compare_judge.h"

using namespace onnxrun;

namespace {

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

template <class T>
std::vector<T> values_of_every_kind(size_t n, std::mt19937& rng) {
  const T specials[] = {T(0),
                        -T(0),
                        std::numeric_limits<T>::denorm_min(),
                        -std::numeric_limits<T>::min(),
                        std::numeric_limits<T>::max(),
                        -std::numeric_limits<T>::max(),
                        std::numeric_limits<T>::infinity(),
                        -std::numeric_limits<T>::infinity(),
                        std::numeric_limits<T>::quiet_NaN(),
                        T(1),
                        T(-2.5)};
  std::vector<T> v(n);
  std::normal_distribution<double> normal;
  for (size_t k = 0; k < n; ++k) {
    const unsigned pick = rng() % 8;
    if (pick == 0) v[k] = specials[rng() % (sizeof specials / sizeof specials[0])];
    else v[k] = static_cast<T>(std::ldexp(normal(rng), static_cast<int>(rng() % 80) - 40));
  }
  return v;
}

// The actual values: the expected ones a few ULPs away, or something else entirely.
template <class T>
std::vector<T> near(const std::vector<T>& expected, std::mt19937& rng) {
  std::vector<T> actual = values_of_every_kind<T>(expected.size(), rng);
  for (size_t k = 0; k < expected.size(); ++k) {
    if (rng() % 3 == 0) continue;
    T v = expected[k];
    for (unsigned step = rng() % 4; step > 0; --step) v = std::nextafter(v, std::numeric_limits<T>::infinity());
    actual[k] = v;
  }
  return actual;
}

template <class T>
void check_paths_agree(void (*JudgeKernels::*kernel)(const char*, const char*, size_t, double, double, JudgedRun&)) {
  std::mt19937 rng(7);
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<std::pair<double, double>> tolerances = {{0, 0},    {1e-5, 1e-3}, {0, 1e-7}, {1e-30, 0},
                                                             {-1, 0.5}, {inf, 0},     {0, inf},  {std::nan(""), 1e-3}};
  auto portable = std::make_unique<JudgedRun>();
  auto other = std::make_unique<JudgedRun>();
  for (const JudgeKernels* path : {&judge_portable_kernels(), &judge_avx512_kernels()}) {
    if (!path->supported()) {
      WARN("this CPU has no " << path->name << ": that judging path is not compared");
      continue;
    }
    for (size_t n : {size_t{0}, size_t{1}, size_t{7}, size_t{8}, size_t{9}, size_t{63}, JudgedRun::kMax})
      for (const auto& [atol, rtol] : tolerances) {
        const std::vector<T> e = values_of_every_kind<T>(n, rng), a = near(e, rng);
        const auto* ep = reinterpret_cast<const char*>(e.data());
        const auto* ap = reinterpret_cast<const char*>(a.data());
        (judge_portable_kernels().*kernel)(ep, ap, n, atol, rtol, *portable);
        (path->*kernel)(ep, ap, n, atol, rtol, *other);
        for (size_t k = 0; k < n; ++k) {
          INFO(path->name << ", " << n << " elements, atol " << atol << ", rtol " << rtol << ", element " << k << ": "
                          << e[k] << " against " << a[k]);
          REQUIRE(other->finite[k] == (std::isfinite(e[k]) && std::isfinite(a[k])));
          REQUIRE(portable->finite[k] == other->finite[k]);
          if (!other->finite[k]) continue;
          CHECK(same_bits(other->d[k], portable->d[k]));
          CHECK(same_bits(other->rel[k], portable->rel[k]));
          CHECK(same_bits(other->score[k], portable->score[k]));
          CHECK(same_bits(other->need_atol[k], portable->need_atol[k]));
          CHECK(same_bits(other->need_rtol[k], portable->need_rtol[k]));
        }
      }
  }
}

}  // namespace

TEST_CASE("every judging path gives the portable one's numbers, float", "[compare][judge]") {
  check_paths_agree<float>(&JudgeKernels::f32);
}

TEST_CASE("every judging path gives the portable one's numbers, double", "[compare][judge]") {
  check_paths_agree<double>(&JudgeKernels::f64);
}

TEST_CASE("the portable judging is the definition, element by element", "[compare][judge]") {
  // d = |a - e|; rel, score and the needed rtol are 0 without an error, infinite where
  // their divisor is 0 (or the allowed error is not positive).
  const float e[] = {2.0f, 0.0f, 1.0f, 4.0f};
  const float a[] = {2.5f, 0.5f, 1.0f, 3.0f};
  auto out = std::make_unique<JudgedRun>();
  judge_portable_kernels().f32(reinterpret_cast<const char*>(e), reinterpret_cast<const char*>(a), 4, 0.25, 0.0, *out);
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(out->d[0] == 0.5);
  CHECK(out->rel[0] == 0.25);
  CHECK(out->score[0] == 2.0);        // 0.5 / (0.25 + 0 * 2)
  CHECK(out->need_rtol[0] == 0.125);  // (0.5 - 0.25) / 2
  CHECK(out->rel[1] == inf);
  CHECK(out->need_rtol[1] == inf);
  CHECK(out->d[2] == 0);
  CHECK(out->rel[2] == 0);
  CHECK(out->score[2] == 0);
  CHECK(out->need_atol[3] == 1.0);     // d - rtol * |e|
  CHECK(out->need_rtol[3] == 0.1875);  // (1 - 0.25) / 4
}
