// Every LeakyRelu kernel path this CPU supports against the portable loops, bit for bit:
// all 65,536 float16 / bfloat16 patterns for many alphas, float/double edge values
// (NaN, ±inf, ±0, denormals, extremes) with alpha 0, negative, above 1, NaN and inf, at
// every short length and misalignment (vector tails and heads), in place, and on arrays
// large enough for the streaming-store loops. The portable loops are themselves checked
// against tests/support/reference_float (an independent rounding) for the 16-bit types.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "core/half.h"
#include "ops/leaky_relu_kernels.h"
#include "ops/leaky_relu_paths.h"
#include "support/edge_values.h"
#include "support/reference_float.h"
#include "support/shortcuts.h"

using namespace onnxrun;
using namespace onnxrun::test;

namespace {

const float kAlphas[] = {0.01f,
                         0.0f,
                         -0.0f,
                         -0.5f,
                         1.0f,
                         1.5f,
                         3.0f,
                         0.1f,
                         -2.0f,
                         1e-3f,
                         1e-30f,
                         1e30f,
                         7.0e-39f,
                         65504.0f,
                         std::numeric_limits<float>::infinity(),
                         std::numeric_limits<float>::quiet_NaN()};

template <typename T>
void require_same_bits(const std::vector<T>& want, const std::vector<T>& got, const char* what) {
  REQUIRE(want.size() == got.size());
  // (memcmp must not see the null data() of an empty vector)
  if (want.empty() || std::memcmp(want.data(), got.data(), want.size() * sizeof(T)) == 0) return;
  for (size_t i = 0; i < want.size(); ++i) {
    if (std::memcmp(&want[i], &got[i], sizeof(T)) != 0) {
      uint64_t w = 0, g = 0;
      std::memcpy(&w, &want[i], sizeof(T));
      std::memcpy(&g, &got[i], sizeof(T));
      FAIL(what << ": element " << i << " want bits 0x" << std::hex << w << " got 0x" << g);
    }
  }
}

std::vector<const LeakyReluPath*> paths_to_test() {
  auto paths = leaky_relu_supported_paths();
  std::string names;
  for (const LeakyReluPath* p : paths) names += std::string(" ") + p->name;
  WARN("kernel paths this CPU supports:" << names);
  return paths;
}

std::vector<uint16_t> all_patterns() {
  std::vector<uint16_t> v(65536);
  for (uint32_t b = 0; b < 65536; ++b) v[b] = static_cast<uint16_t>(b);
  return v;
}

template <typename T, typename A>
using KernelFn = void (*)(const T*, T*, size_t, A);

// Checks `fn` against `ref` on `xs` whole, in place, and at offsets 1..3 (misaligned
// heads) with lengths cut short (tails).
template <typename T, typename A>
void check_against(KernelFn<T, A> ref, KernelFn<T, A> fn, const std::vector<T>& xs, A alpha) {
  std::vector<T> want(xs.size()), got(xs.size());
  ref(xs.data(), want.data(), xs.size(), alpha);
  fn(xs.data(), got.data(), xs.size(), alpha);
  require_same_bits(want, got, "out of place");
  std::vector<T> inplace = xs;
  fn(inplace.data(), inplace.data(), inplace.size(), alpha);
  require_same_bits(want, inplace, "in place");
  for (size_t off = 1; off <= 3 && off < xs.size(); ++off) {
    const size_t n = xs.size() - off - (off * 7) % (xs.size() - off);
    std::vector<T> w(n), g(n);
    ref(xs.data() + off, w.data(), n, alpha);
    fn(xs.data() + off, g.data(), n, alpha);
    require_same_bits(w, g, "offset");
  }
}

}  // namespace

TEST_CASE("the portable float16/bfloat16 loops match an independent reference, all patterns", "[leaky_relu][kernels]") {
  const std::vector<uint16_t> xs = all_patterns();
  std::vector<uint16_t> y(xs.size());
  for (const float alpha : kAlphas) {
    INFO("alpha " << alpha);
    struct {
      SmallFloatFormat f;
      uint16_t (*round)(float);
      void (*fn)(const uint16_t*, uint16_t*, size_t, uint16_t);
    } const formats[] = {{kF16, float_to_float16, leaky_relu_float16}, {kBF16, float_to_bfloat16, leaky_relu_bfloat16}};
    for (const auto& f : formats) {
      const uint16_t a = f.round(alpha);
      f.fn(xs.data(), y.data(), xs.size(), a);
      for (uint32_t b = 0; b < 65536; ++b) {
        const double v = ref_decode(f.f, xs[b]);
        if (!(v < 0)) {
          REQUIRE(y[b] == xs[b]);
          continue;
        }
        const double p = v * ref_decode(f.f, a);  // exact in double for 16-bit factors
        if (std::isnan(p)) {
          REQUIRE(ref_is_nan(f.f, y[b]));
        } else {
          INFO("x bits " << b);
          REQUIRE(y[b] == ref_round(f.f, p));
        }
      }
    }
  }
}

TEST_CASE("every kernel path gives the portable loops' bits for all float16 and bfloat16 patterns",
          "[leaky_relu][kernels]") {
  const std::vector<uint16_t> xs = all_patterns();
  for (const LeakyReluPath* p : paths_to_test()) {
    INFO("path " << p->name);
    for (const float alpha : kAlphas) {
      INFO("alpha " << alpha);
      {
        INFO("float16");
        check_against<uint16_t, uint16_t>(leaky_relu_float16, p->f16, xs, float_to_float16(alpha));
      }
      {
        INFO("bfloat16");
        check_against<uint16_t, uint16_t>(leaky_relu_bfloat16, p->bf16, xs, float_to_bfloat16(alpha));
      }
    }
  }
}

// In pattern order the lanes a path must redo exactly (tiny products) sit together in
// a few blocks; shuffled, almost every vector block mixes them with ordinary lanes.
TEST_CASE("every kernel path gives the portable loops' bits for all 16-bit patterns shuffled",
          "[leaky_relu][kernels]") {
  std::vector<uint16_t> xs = all_patterns();
  std::shuffle(xs.begin(), xs.end(), std::mt19937_64(7));
  const float alphas[] = {0.01f, 1e-5f, 7.0e-39f, -3.0f, 1.0f};
  for (const LeakyReluPath* p : paths_to_test()) {
    INFO("path " << p->name);
    for (const float alpha : alphas) {
      INFO("alpha " << alpha);
      check_against<uint16_t, uint16_t>(leaky_relu_float16, p->f16, xs, float_to_float16(alpha));
      check_against<uint16_t, uint16_t>(leaky_relu_bfloat16, p->bf16, xs, float_to_bfloat16(alpha));
    }
  }
}

TEST_CASE("every kernel path gives the portable loops' bits for float and double edge values",
          "[leaky_relu][kernels]") {
  const std::vector<float> xf = edge_values<float>();
  const std::vector<double> xd = edge_values<double>();
  for (const LeakyReluPath* p : paths_to_test()) {
    INFO("path " << p->name);
    for (const float alpha : kAlphas) {
      INFO("alpha " << alpha);
      check_against<float, float>(leaky_relu_float, p->f32, xf, alpha);
      check_against<double, double>(leaky_relu_double, p->f64, xd, static_cast<double>(alpha));
      check_against<double, double>(leaky_relu_double, p->f64, xd, -1e300);
    }
    // Every length up to a few vectors, so each tail and head shape is run.
    for (size_t n = 0; n <= 70; ++n) {
      INFO("n " << n);
      std::vector<float> sf(xf.begin() + 3, xf.begin() + 3 + n);
      std::vector<double> sd(xd.begin() + 3, xd.begin() + 3 + n);
      std::vector<float> wf(n), gf(n);
      std::vector<double> wd(n), gd(n);
      leaky_relu_float(sf.data(), wf.data(), n, 0.25f);
      p->f32(sf.data(), gf.data(), n, 0.25f);
      require_same_bits(wf, gf, "float");
      leaky_relu_double(sd.data(), wd.data(), n, 0.25);
      p->f64(sd.data(), gd.data(), n, 0.25);
      require_same_bits(wd, gd, "double");
      std::vector<uint16_t> sh(n), wh(n), gh(n);
      for (size_t i = 0; i < n; ++i) sh[i] = static_cast<uint16_t>(0x8000 + 977 * i);
      leaky_relu_float16(sh.data(), wh.data(), n, 0x3400);
      p->f16(sh.data(), gh.data(), n, 0x3400);
      require_same_bits(wh, gh, "float16");
      leaky_relu_bfloat16(sh.data(), wh.data(), n, 0x3e80);
      p->bf16(sh.data(), gh.data(), n, 0x3e80);
      require_same_bits(wh, gh, "bfloat16");
    }
  }
}

// A chain (LeakyRelus one after the other, composed into one kernel) is each node in
// turn: the portable single loop applied alpha by alpha, rounding to the type each time.
template <typename T>
std::vector<T> chained_by_nodes(std::vector<T> v, const std::vector<float>& alphas) {
  for (const float a : alphas) {
    if constexpr (sizeof(T) == 4) leaky_relu_float(v.data(), v.data(), v.size(), a);
    else leaky_relu_double(v.data(), v.data(), v.size(), static_cast<double>(a));
  }
  return v;
}

TEST_CASE("every kernel path's chain gives the bits of its LeakyRelus run one by one", "[leaky_relu][kernels]") {
  const std::vector<float> xf = edge_values<float>();
  const std::vector<double> xd = edge_values<double>();
  const std::vector<std::vector<float>> chains = {{0.5f},
                                                  {0.01f, -2.0f},
                                                  {1e-30f, 1e30f, 0.1f},
                                                  {-0.5f, -0.5f, -0.5f, 3.0f, 7.0e-39f},
                                                  std::vector<float>(9, 0.9f)};
  for (const LeakyReluPath* p : paths_to_test()) {
    INFO("path " << p->name);
    for (const std::vector<float>& alphas : chains) {
      INFO("alphas " << alphas.size() << ", the first " << alphas[0]);
      std::vector<double> alphas_d(alphas.begin(), alphas.end());  // exact widening, as the kernel does
      std::vector<float> gf(xf.size());
      p->chain_f32(xf.data(), gf.data(), xf.size(), alphas.data(), alphas.size());
      require_same_bits(chained_by_nodes(xf, alphas), gf, "float");
      std::vector<double> gd(xd.size());
      p->chain_f64(xd.data(), gd.data(), xd.size(), alphas_d.data(), alphas_d.size());
      require_same_bits(chained_by_nodes(xd, alphas), gd, "double");
      // Every length up to a few vectors (tails), and in place.
      for (size_t n = 0; n <= 70; ++n) {
        INFO("n " << n);
        std::vector<float> sf(xf.begin() + 3, xf.begin() + 3 + n);
        std::vector<double> sd(xd.begin() + 3, xd.begin() + 3 + n);
        const std::vector<float> wf = chained_by_nodes(sf, alphas);
        const std::vector<double> wd = chained_by_nodes(sd, alphas);
        p->chain_f32(sf.data(), sf.data(), n, alphas.data(), alphas.size());
        p->chain_f64(sd.data(), sd.data(), n, alphas_d.data(), alphas_d.size());
        require_same_bits(wf, sf, "float in place");
        require_same_bits(wd, sd, "double in place");
      }
    }
  }
}

TEST_CASE("every kernel path matches on arrays large enough for streaming stores", "[leaky_relu][kernels]") {
  // Just over the streaming threshold for each type, starting off a 64-byte boundary.
  const size_t n16 = kLeakyReluStreamBytes / 2 + 77, n32 = kLeakyReluStreamBytes / 4 + 33,
               n64 = kLeakyReluStreamBytes / 8 + 11;
  std::vector<uint16_t> h(n16 + 1);
  for (size_t i = 0; i < h.size(); ++i) h[i] = static_cast<uint16_t>(i * 40503u);
  std::vector<float> f(n32 + 1);
  std::vector<double> d(n64 + 1);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> uni(-1e3f, 1e3f);
  for (float& v : f) v = uni(rng);
  for (double& v : d) v = uni(rng);
  for (const LeakyReluPath* p : paths_to_test()) {
    INFO("path " << p->name);
    std::vector<uint16_t> wh(n16), gh(n16);
    leaky_relu_float16(h.data() + 1, wh.data(), n16, 0x2000);
    p->f16(h.data() + 1, gh.data(), n16, 0x2000);
    require_same_bits(wh, gh, "float16");
    leaky_relu_bfloat16(h.data() + 1, wh.data(), n16, 0x3c23);
    p->bf16(h.data() + 1, gh.data(), n16, 0x3c23);
    require_same_bits(wh, gh, "bfloat16");
    std::vector<float> wf(n32 + 1), gf(n32 + 1);  // output starts 4 bytes past an aligned start
    leaky_relu_float(f.data(), wf.data() + 1, n32, 0.01f);
    p->f32(f.data(), gf.data() + 1, n32, 0.01f);
    require_same_bits(wf, gf, "float");
    std::vector<double> wd(n64 + 1), gd(n64 + 1);
    leaky_relu_double(d.data(), wd.data() + 1, n64, 0.01);
    p->f64(d.data(), gd.data() + 1, n64, 0.01);
    require_same_bits(wd, gd, "double");
  }
}

TEST_CASE("kernel paths are listed, the active one the best supported", "[leaky_relu][kernels]") {
  const auto& all = leaky_relu_all_paths();
  REQUIRE(all.size() == 4);
  CHECK(std::string(all.front().name) == "scalar");
  const auto supported = leaky_relu_supported_paths();
  REQUIRE(!supported.empty());
  CHECK(supported.front() == &all.front());
  if (!std::getenv("ONNXRUN_ISA")) CHECK(&leaky_relu_active_path() == supported.back());
}
