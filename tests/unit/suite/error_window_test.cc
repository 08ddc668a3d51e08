// The counting of errors against a median's window (suite/error_window.h), every path
// against a plain count written here: runs of every length around a vector's eight, at
// every offset, of zeros, values at lo and at hi, between and outside them, and windows
// of one value, from 0 and up to infinity.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "core/hardware.h"
#include "suite/error_window.h"

using namespace onnxrun;

namespace {

struct Counted {
  WindowCounts counts;
  std::vector<double> inside;
};

Counted plain_count(const std::vector<double>& v, double lo, double hi) {
  Counted c;
  for (double x : v) {
    if (x == 0) ++c.counts.zeros;
    if (x < lo) ++c.counts.below;
    if (x == lo) ++c.counts.at_lo;
    if (x == hi) ++c.counts.at_hi;
    if (lo < x && x < hi) c.inside.push_back(x);
  }
  return c;
}

Counted counted_by(CountWindow count, const double* v, size_t n, double lo, double hi) {
  Counted c;
  c.inside.resize(n + 8);
  c.inside.resize(count(v, n, lo, hi, c.counts, c.inside.data()));
  return c;
}

void check_same(const Counted& a, const Counted& b) {
  CHECK(a.counts.below == b.counts.below);
  CHECK(a.counts.at_lo == b.counts.at_lo);
  CHECK(a.counts.at_hi == b.counts.at_hi);
  CHECK(a.counts.zeros == b.counts.zeros);
  CHECK(a.inside == b.inside);  // the same, in order
}

}  // namespace

TEST_CASE("every path counts a window as the plain count does", "[compare][median]") {
  const double inf = std::numeric_limits<double>::infinity();
  const HardwareConfig scalar = capped_hardware(cpu_hardware(), "scalar");
  CHECK(count_window_for(scalar) == &count_window);
  std::vector<CountWindow> paths{&count_window};
  if (cpu_hardware().has(IsaLevel::kAvx512)) {
    CHECK(count_window_for(cpu_hardware()) == count_window_avx512());
    paths.push_back(count_window_avx512());
  } else {
    WARN("this CPU has no AVX-512: only the scalar window count is compared");
  }
  std::mt19937 rng(3);
  const std::vector<double> pool{0, 0.5, 1, 1.5, 2, 3, 4, inf, std::ldexp(1.0, -1074)};
  const std::vector<std::pair<double, double>> windows{{1, 3}, {2, 2}, {0, 2}, {1.5, inf}, {0, inf}, {inf, inf}};
  for (size_t n : {size_t{0}, size_t{1}, size_t{7}, size_t{8}, size_t{9}, size_t{16}, size_t{63}, size_t{300}})
    for (size_t offset : {size_t{0}, size_t{1}, size_t{3}}) {
      std::vector<double> all(n + offset);  // the run at `offset`: loads at any alignment
      for (double& x : all) x = pool[rng() % pool.size()];
      const std::vector<double> v(all.begin() + static_cast<std::ptrdiff_t>(offset), all.end());
      for (const auto& [lo, hi] : windows) {
        INFO(n << " errors at offset " << offset << ", window [" << lo << ", " << hi << "]");
        const Counted want = plain_count(v, lo, hi);
        for (CountWindow path : paths) check_same(counted_by(path, all.data() + offset, n, lo, hi), want);
      }
    }
}
