// Every vectorized loop of Less, Mul, Where and Cast (each path this CPU runs) gives the
// bits of the element-by-element definition, on edge and random values, for operands of
// one layout and with one operand repeated, at lengths that leave every kind of tail.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <random>

#include "core/half.h"
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
        if (std::isnan(x) && std::isnan(y)) REQUIRE(std::isnan(prod[i]));  // either payload (see below)
        else REQUIRE(same<T>(prod[i], x * y));
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

TEST_CASE("elementwise paths: Less and Mul of float16 and bfloat16 give the definition's bits for every pattern",
          "[ops][paths]") {
  // a: every pattern; b: every pattern in another order, or one of a few values repeated.
  std::vector<uint16_t> a(65536), b(65536);
  for (uint32_t k = 0; k < 65536; ++k) {
    a[k] = static_cast<uint16_t>(k);
    b[k] = static_cast<uint16_t>(k * 40503u + 12345u);  // odd multiplier: a permutation
  }
  struct Type {
    const char* name;
    float (*widen)(uint16_t);
    uint16_t (*narrow)(float);
    bool f16;
  };
  const Type types[] = {{"float16", float16_to_float, float_to_float16, true},
                        {"bfloat16", bfloat16_to_float, float_to_bfloat16, false}};
  const uint16_t scalars[] = {0x0000, 0x8000, 0x3c00, 0xbc00, 0x0001, 0x7bff, 0x7c00, 0x7e00, 0x7c01, 0xffff,
                              0x3f80, 0xbf80, 0x0080, 0x7f7f, 0x7f80, 0x7fc0, 0x7f81, 0x4049, 0x3dcd, 0xc2f7};
  for (const ElementwisePath* p : paths()) {
    for (const Type& t : types) {
      INFO("path " << p->name << " " << t.name);
      auto less = t.f16 ? p->less_f16 : p->less_bf16;
      auto mul = t.f16 ? p->mul_f16 : p->mul_bf16;
      std::vector<uint8_t> lt(65536);
      std::vector<uint16_t> prod(65536);
      auto check = [&](Repeat r, size_t n) {
        less(a.data(), b.data(), lt.data(), n, r);
        mul(a.data(), b.data(), prod.data(), n, r);
        for (size_t i = 0; i < n; ++i) {
          const uint16_t x = r == Repeat::kA ? a[0] : a[i];
          const uint16_t y = r == Repeat::kB ? b[0] : b[i];
          INFO("a 0x" << std::hex << x << " b 0x" << y);
          REQUIRE(lt[i] == static_cast<uint8_t>(t.widen(x) < t.widen(y)));
          // Of two NaN operands, which one's payload a product keeps is the compiler's
          // choice of operand order (x86 keeps the first): only NaN is promised then.
          if (std::isnan(t.widen(x)) && std::isnan(t.widen(y))) REQUIRE(std::isnan(t.widen(prod[i])));
          else REQUIRE(prod[i] == t.narrow(t.widen(x) * t.widen(y)));
        }
      };
      check(Repeat::kNone, 65536);
      check(Repeat::kNone, 13);  // a tail only
      for (uint16_t s : scalars) {
        b[0] = s;
        check(Repeat::kB, 65536);
        std::swap(a, b);
        a[0] = s;
        check(Repeat::kA, 65536 - 3);
        std::swap(a, b);
      }
    }
  }
}
