// The judging of a comparison (suite/compare_judge.h): the AVX-512 kernel gives
// judge_finite's numbers bit for bit, over values of every kind (zeros of both signs,
// subnormals, the largest, infinities, NaN), tolerances of every kind, and every length
// up to a run's, so that the vector loop's tail runs too. The comparison
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

}  // namespace

TEST_CASE("the AVX-512 judging gives judge_finite's numbers, element by element", "[compare][judge]") {
  const HardwareConfig scalar = capped_hardware(cpu_hardware(), "scalar");
  CHECK(float_kernels_for(scalar).judge == nullptr);  // below AVX-512, element by element
  CHECK(float_kernels_for(scalar).tally == nullptr);
  if (!cpu_hardware().has(IsaLevel::kAvx512)) {
    WARN("this CPU has no AVX-512: the judging kernel is not compared");
    return;
  }
  CHECK(float_kernels_for(cpu_hardware()).judge == judge_floats_avx512());
  CHECK(float_kernels_for(cpu_hardware()).tally == tally_floats_avx512());
  std::mt19937 rng(7);
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<std::pair<double, double>> tolerances = {{0, 0},    {1e-5, 1e-3}, {0, 1e-7}, {1e-30, 0},
                                                             {-1, 0.5}, {inf, 0},     {0, inf},  {std::nan(""), 1e-3}};
  auto plain = std::make_unique<JudgedRun>();
  auto vector = std::make_unique<JudgedRun>();
  for (size_t n : {size_t{0}, size_t{1}, size_t{7}, size_t{8}, size_t{9}, size_t{63}, JudgedRun::kMax})
    for (const auto& [atol, rtol] : tolerances) {
      const std::vector<float> e = values_of_every_kind<float>(n, rng), a = near(e, rng);
      const auto* ep = reinterpret_cast<const char*>(e.data());
      const auto* ap = reinterpret_cast<const char*>(a.data());
      judge_floats(ep, ap, 0, n, atol, rtol, *plain);
      judge_floats_avx512()(ep, ap, n, atol, rtol, *vector);
      for (size_t k = 0; k < n; ++k) {
        INFO(n << " elements, atol " << atol << ", rtol " << rtol << ", element " << k << ": " << e[k] << " against "
               << a[k]);
        REQUIRE(vector->finite[k] == (std::isfinite(e[k]) && std::isfinite(a[k])));
        REQUIRE(plain->finite[k] == vector->finite[k]);
        if (!vector->finite[k]) continue;
        CHECK(same_bits(vector->d[k], plain->d[k]));
        CHECK(same_bits(vector->rel[k], plain->rel[k]));
        CHECK(same_bits(vector->score[k], plain->score[k]));
        CHECK(same_bits(vector->need_atol[k], plain->need_atol[k]));
        CHECK(same_bits(vector->need_rtol[k], plain->need_rtol[k]));
      }
    }
}

TEST_CASE("judge_finite is the definition, element by element", "[compare][judge]") {
  // d = |a - e|; rel, score and the needed rtol are 0 without an error, infinite where
  // their divisor is 0 (or the allowed error is not positive).
  const double inf = std::numeric_limits<double>::infinity();
  const FiniteJudgement j0 = judge_finite(2.0, 2.5, 0.25, 0.0);
  CHECK(j0.d == 0.5);
  CHECK(j0.rel == 0.25);
  CHECK(j0.score == 2.0);        // 0.5 / (0.25 + 0 * 2)
  CHECK(j0.need_rtol == 0.125);  // (0.5 - 0.25) / 2
  const FiniteJudgement j1 = judge_finite(0.0, 0.5, 0.25, 0.0);
  CHECK(j1.rel == inf);
  CHECK(j1.need_rtol == inf);
  const FiniteJudgement j2 = judge_finite(1.0, 1.0, 0.25, 0.0);
  CHECK(j2.d == 0);
  CHECK(j2.rel == 0);
  CHECK(j2.score == 0);
  const FiniteJudgement j3 = judge_finite(4.0, 3.0, 0.25, 0.0);
  CHECK(j3.need_atol == 1.0);     // d - rtol * |e|
  CHECK(j3.need_rtol == 0.1875);  // (1 - 0.25) / 4
}
