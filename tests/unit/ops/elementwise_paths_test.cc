// Every vectorized loop of Less, Mul, Where and Cast (each path this CPU runs) gives the
// bits of the element-by-element definition, on edge and random values, for operands of
// one layout and with one operand repeated, at lengths that leave every kind of tail.
#include <catch2/catch.hpp>

#include <cstring>
#include <random>

#include "ops/elementwise_paths.h"
#include "support/edge_values.h"

using namespace onnxrun;
using namespace onnxrun::test;

namespace {

std::vector<const ElementwisePath*> paths() {
  std::vector<const ElementwisePath*> p = {&elementwise_scalar_path()};
  if (const ElementwisePath* avx2 = elementwise_avx2_path()) p.push_back(avx2);
  return p;
}

template <typename T>
bool same(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <typename T>
std::vector<T> operands(uint64_t seed) {
  std::vector<T> v = edge_values<T>();
  std::mt19937_64 rng(seed);
  std::shuffle(v.begin(), v.end(), rng);
  return v;
}

template <typename T>
void check_binary(void (*less)(const T*, const T*, uint8_t*, size_t, Repeat),
                  void (*mul)(const T*, const T*, T*, size_t, Repeat)) {
  const std::vector<T> a = operands<T>(1), b = operands<T>(2);
  for (size_t n : {size_t{0}, size_t{1}, size_t{7}, size_t{31}, a.size()}) {
    for (Repeat r : {Repeat::kNone, Repeat::kA, Repeat::kB}) {
      INFO("n " << n << " repeat " << static_cast<int>(r));
      std::vector<uint8_t> lt(n);
      std::vector<T> prod(n);
      less(a.data(), b.data(), lt.data(), n, r);
      mul(a.data(), b.data(), prod.data(), n, r);
      for (size_t i = 0; i < n; ++i) {
        const T x = r == Repeat::kA ? a[0] : a[i];
        const T y = r == Repeat::kB ? b[0] : b[i];
        REQUIRE(lt[i] == static_cast<uint8_t>(x < y));
        REQUIRE(same<T>(prod[i], x * y));
      }
    }
  }
}

template <typename T>
void check_where(void (*where)(const uint8_t*, const T*, const T*, T*, size_t)) {
  std::mt19937_64 rng(3);
  const size_t n = 1001;
  std::vector<uint8_t> c(n);
  std::vector<T> x(n), y(n), out(n);
  for (size_t i = 0; i < n; ++i) {
    c[i] = static_cast<uint8_t>(rng() % 3 == 0 ? 0 : rng() % 256);  // any nonzero byte is true
    x[i] = static_cast<T>(rng());
    y[i] = static_cast<T>(rng());
  }
  where(c.data(), x.data(), y.data(), out.data(), n);
  for (size_t i = 0; i < n; ++i) REQUIRE(out[i] == (c[i] ? x[i] : y[i]));
  where(c.data(), x.data(), y.data(), x.data(), n);  // in place over x
  for (size_t i = 0; i < n; ++i) REQUIRE(x[i] == out[i]);
}

}  // namespace

TEST_CASE("elementwise paths: Less and Mul of float and double give the definition's bits", "[ops][paths]") {
  for (const ElementwisePath* p : paths()) {
    INFO("path " << p->name);
    check_binary<float>(p->less_f32, p->mul_f32);
    check_binary<double>(p->less_f64, p->mul_f64);
  }
}

TEST_CASE("elementwise paths: Where selects every element size's bits, in place too", "[ops][paths]") {
  for (const ElementwisePath* p : paths()) {
    INFO("path " << p->name);
    check_where<uint16_t>(p->where_16);
    check_where<uint32_t>(p->where_32);
    check_where<uint64_t>(p->where_64);
  }
}

TEST_CASE("elementwise paths: Cast between float and double rounds once, keeps NaN and infinities", "[ops][paths]") {
  const std::vector<float> f = edge_values<float>();
  const std::vector<double> d = edge_values<double>();
  for (const ElementwisePath* p : paths()) {
    INFO("path " << p->name);
    std::vector<double> wide(f.size());
    p->cast_f32_f64(f.data(), wide.data(), f.size());
    for (size_t i = 0; i < f.size(); ++i) REQUIRE(same(wide[i], static_cast<double>(f[i])));
    std::vector<float> narrow(d.size());
    p->cast_f64_f32(d.data(), narrow.data(), d.size());
    for (size_t i = 0; i < d.size(); ++i) REQUIRE(same(narrow[i], static_cast<float>(d[i])));
  }
}
