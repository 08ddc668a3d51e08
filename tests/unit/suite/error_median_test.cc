// The bounded-memory exact median (suite/error_median.h) against the plain definition:
// sort every value, zeros included, and take the middle one, or the two middle ones'
// lo / 2 + hi / 2. Kept errors from none to all of them, so that every path runs: one
// pass, a histogram then a bucket collected, buckets of one value, and buckets narrowed
// 16 bits at a time down to all 64 (values that share their top 48 bits); and, of errors
// all kept, sets small enough for nth_element alone and large enough for a radix select.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "suite/error_median.h"

using namespace onnxrun;

namespace {

bool same_double(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

double plain_median(std::vector<double> nonzero, int64_t count) {
  std::vector<double> all(static_cast<size_t>(count) - nonzero.size(), 0.0);
  all.insert(all.end(), nonzero.begin(), nonzero.end());
  if (all.empty()) return 0;
  std::sort(all.begin(), all.end());
  const double lo = all[(all.size() - 1) / 2], hi = all[all.size() / 2];
  return lo == hi ? lo : lo / 2 + hi / 2;
}

struct Found {
  double median;
  int passes;
};

Found bounded_median(const std::vector<double>& nonzero, int64_t count, size_t keep) {
  ErrorMedian m(keep);
  int passes = 1;
  for (double v : nonzero) m.add(v);
  while (m.needs_pass(count)) {
    CHECK(m.needs_pass(count));  // asked twice, the same answer
    m.begin_pass();
    ++passes;
    for (double v : nonzero) m.add(v);
  }
  return {m.finish(count), passes};
}

double from_bits(uint64_t b) {
  double v;
  std::memcpy(&v, &b, sizeof v);
  return v;
}

// Sets of nonzero errors that take each path.
std::vector<std::vector<double>> value_sets() {
  std::mt19937_64 rng(42);
  std::vector<std::vector<double>> sets;
  sets.push_back({});
  sets.push_back({1.5});
  sets.push_back({2.0, 1.0});
  std::vector<double> v;
  for (int k = 0; k < 5001; ++k) v.push_back(std::ldexp(static_cast<double>(rng() % 1000000 + 1), -40));
  sets.push_back(v);                                // spread over a few binades
  sets.push_back(std::vector<double>(5000, 0.25));  // all equal: no bucket ever gets smaller
  v.clear();
  for (int k = 0; k < 9000; ++k) v.push_back(k % 2 ? 1e-3 : 7e-9);
  sets.push_back(v);  // two values, the middle between them (the two middles in two buckets)
  v.clear();
  for (int k = 0; k < 20001; ++k)
    v.push_back(std::ldexp(1.0 + static_cast<double>(rng() % 4096) / 4096, static_cast<int>(rng() % 8) - 30));
  sets.push_back(v);  // as one ULP apart gives them: a few binades, narrowed digit by digit
  v.clear();
  for (int k = 0; k < 4099; ++k) v.push_back(from_bits(0x3ff0000000000000ull | (rng() % 65536)));
  sets.push_back(v);  // the top 48 bits shared: only the last 16 tell them apart
  v.clear();
  for (int k = 0; k < 3000; ++k)
    v.push_back(k % 5 == 0   ? std::numeric_limits<double>::infinity()
                : k % 5 == 1 ? std::numeric_limits<double>::denorm_min() * static_cast<double>(1 + rng() % 9)
                             : std::ldexp(1.0, static_cast<int>(rng() % 600) - 300));
  sets.push_back(v);  // infinities, subnormals and every exponent
  return sets;
}

}  // namespace

TEST_CASE("the bounded median is the sorted middle, whatever is kept and however many zeros", "[compare][median]") {
  for (const std::vector<double>& values : value_sets())
    for (int64_t zeros : {int64_t{0}, int64_t{1}, static_cast<int64_t>(values.size() / 2),
                          static_cast<int64_t>(values.size()), static_cast<int64_t>(values.size()) * 3 + 1})
      for (size_t keep : {size_t{0}, size_t{1}, size_t{2}, size_t{7}, size_t{100}, size_t{1} << 20}) {
        const int64_t count = static_cast<int64_t>(values.size()) + zeros;
        INFO(values.size() << " nonzero, " << zeros << " zeros, keep " << keep);
        const Found found = bounded_median(values, count, keep);
        CHECK(same_double(found.median, plain_median(values, count)));
        // One pass when everything fits; otherwise a histogram per 16 bits at most.
        if (keep == 0 || values.size() <= keep) CHECK(found.passes == 1);
        CHECK(found.passes <= 4);
      }
}

TEST_CASE("past what it keeps, the median asks for more passes", "[compare][median]") {
  std::vector<double> values;
  for (int k = 1; k <= 1000; ++k) values.push_back(k * 0.5);
  CHECK(bounded_median(values, 1000, 100).passes == 2);  // a bucket of the top 16 bits, then collected
  CHECK(bounded_median(values, 1000, 10).passes == 2);   // too large to collect: narrowed to one value
  // Every error the same (one ULP of one binade): its bucket holds one value, found at once.
  CHECK(bounded_median(std::vector<double>(1000, 0.125), 1000, 10).passes == 1);
  // Values that share their top 48 bits: narrowed to the last 16.
  std::vector<double> close;
  for (uint64_t k = 0; k < 1000; ++k) close.push_back(from_bits(0x4000000000000000ull | (k * 37 % 1000)));
  const Found found = bounded_median(close, 1000, 10);
  CHECK(found.passes == 4);
  CHECK(same_double(found.median, plain_median(close, 1000)));
}

TEST_CASE("the two middles collected from one large bucket", "[compare][median]") {
  // An even count whose two middle errors lie in one bucket of the top 16 bits, too many
  // for nth_element alone (kth's radix select) but few enough to collect: both ranks read
  // the one bucket's errors.
  std::mt19937_64 rng(11);
  std::vector<double> values;
  for (int k = 0; k < 20000; ++k) values.push_back(1.0 + static_cast<double>(rng() % 1000000) / 1e8);
  for (int k = 0; k < 10000; ++k) values.push_back(std::ldexp(1.0, -static_cast<int>(rng() % 20) - 2));
  for (int k = 0; k < 10000; ++k) values.push_back(std::ldexp(1.0, static_cast<int>(rng() % 20) + 2));
  // The least first, so that the kept errors misplace the guess and the window.
  std::rotate(values.begin(), values.begin() + 20000, values.begin() + 30000);
  std::shuffle(values.begin() + 10000, values.end(), rng);
  const int64_t count = static_cast<int64_t>(values.size());
  const Found found = bounded_median(values, count, 25000);
  CHECK(found.passes == 2);
  CHECK(same_double(found.median, plain_median(values, count)));
}

namespace {

// Relative errors as one ULP of float32 values in [1, 1.03) gives them, in one bucket of
// the top histogram, too large to collect, and (for this many) its 16-bit buckets too,
// so that without the guess the median takes three passes; and a quarter as many in a
// binade far below, so that the least errors are in another bucket than the middle.
std::vector<double> one_ulp_errors(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> x(1.0f, 1.03f);
  std::vector<double> v(n + n / 4);
  for (double& e : v) e = std::ldexp(1.0, -23) / static_cast<double>(x(rng));
  for (size_t k = 0; k < n / 4; ++k) v[k] = std::ldexp(v[k], -10);
  std::shuffle(v.begin(), v.end(), rng);
  return v;
}

Found median_of_all(const std::vector<double>& all, size_t keep, size_t parts);

// The median of `values` with `zeros` zeros spread evenly among them, fed a run of 1,024
// elements at a time as ErrorStatsBuilder feeds it: the main median takes the first of
// `parts` slices of each pass, parts of it the others, merged in order.
Found median_in_parts(const std::vector<double>& values, int64_t zeros, size_t keep, size_t parts) {
  std::vector<double> all;
  const size_t every = zeros > 0 ? values.size() / static_cast<size_t>(zeros) + 1 : 0;
  for (size_t k = 0; k < values.size(); ++k) {
    if (every && k % every == 0 && zeros > 0) {
      all.push_back(0);
      --zeros;
    }
    all.push_back(values[k]);
  }
  all.insert(all.end(), static_cast<size_t>(zeros), 0.0);
  return median_of_all(all, keep, parts);
}

Found median_of_all(const std::vector<double>& all, size_t keep, size_t parts) {
  const auto count = static_cast<int64_t>(all.size());
  auto feed = [&](ErrorMedian& m, size_t from, size_t to) {
    for (size_t k = from; k < to; k += 1024)
      m.add_nonzero(all.data() + k, static_cast<int64_t>(std::min<size_t>(1024, to - k)));
  };
  ErrorMedian m(keep, count);
  int passes = 0;
  do {
    if (passes++ > 0) m.begin_pass();
    const size_t slice = (all.size() / parts + 1023) / 1024 * 1024;
    std::vector<ErrorMedian> later;
    for (size_t p = 1; p < parts; ++p) later.push_back(m.part(parts));
    feed(m, 0, std::min(slice, all.size()));
    for (size_t p = 1; p < parts; ++p) {
      feed(later[p - 1], std::min(p * slice, all.size()), p + 1 == parts ? all.size() : (p + 1) * slice);
      m.merge(std::move(later[p - 1]));
    }
  } while (m.needs_pass(count));
  return {m.finish(count), passes};
}

}  // namespace

TEST_CASE("a guess from the kept errors saves the median a pass, and a wrong one costs none", "[compare][median]") {
  // Too few kept (4,096) for a window to hold the middle's neighbours: the guess alone.
  const std::vector<double> fair = one_ulp_errors(size_t{1} << 20, 5);
  std::vector<double> rising = fair;
  std::sort(rising.begin(), rising.end());  // the kept ones all below the middle: a wrong guess
  std::vector<double> halves = rising;      // parts that guess apart: one rises, one falls
  std::reverse(halves.begin() + static_cast<std::ptrdiff_t>(halves.size() / 2), halves.end());
  struct Case {
    const char* what;
    const std::vector<double>& values;
    size_t parts;
    int passes;
  };
  for (const Case& c : {Case{"fair", fair, 1, 2}, Case{"fair, two parts", fair, 2, 2},
                        Case{"fair, three parts", fair, 3, 2}, Case{"rising", rising, 1, 3},
                        Case{"rising, two parts", rising, 2, 3}, Case{"parts that guess apart", halves, 2, 3}})
    for (int64_t zeros : {int64_t{0}, int64_t{1}, int64_t{100000}}) {
      INFO(c.what << ", " << zeros << " zeros");
      const int64_t count = static_cast<int64_t>(c.values.size()) + zeros;
      const Found found = median_in_parts(c.values, zeros, 4096, c.parts);
      CHECK(same_double(found.median, plain_median(c.values, count)));
      CHECK(found.passes == c.passes);
    }
  // Zeros past the middle: no guess, and none needed.
  const int64_t count = static_cast<int64_t>(fair.size()) * 3;
  const Found found = median_in_parts(fair, count - static_cast<int64_t>(fair.size()), 4096, 2);
  CHECK(found.median == 0);
  CHECK(found.passes == 1);
}

TEST_CASE("a window from the kept errors finds the middle in the first pass, and a wrong one costs none",
          "[compare][median]") {
  // Kept errors enough (65,536) for the window around the middle to hold what falls in it.
  const std::vector<double> fair = one_ulp_errors(size_t{1} << 20, 7);
  std::vector<double> rising = fair;
  std::sort(rising.begin(), rising.end());
  std::vector<double> halves = rising;  // parts whose windows do not overlap
  std::reverse(halves.begin() + static_cast<std::ptrdiff_t>(halves.size() / 2), halves.end());
  std::vector<double> ties(fair.size(), std::ldexp(1.0, -24));  // one value: lo == hi
  for (size_t k = 0; k < ties.size(); k += 3) ties[k] = std::ldexp(1.0, -23 - static_cast<int>(k % 7));
  struct Case {
    const char* what;
    const std::vector<double>& values;
    size_t parts;
    int passes;
  };
  for (const Case& c :
       {Case{"fair", fair, 1, 1}, Case{"fair, two parts", fair, 2, 1}, Case{"fair, three parts", fair, 3, 1},
        Case{"ties", ties, 1, 1}, Case{"ties, two parts", ties, 2, 1}, Case{"rising", rising, 1, 3},
        Case{"parts that place their windows apart", halves, 2, 3}})
    for (int64_t zeros : {int64_t{0}, int64_t{1}, int64_t{100000}}) {
      INFO(c.what << ", " << zeros << " zeros");
      const int64_t count = static_cast<int64_t>(c.values.size()) + zeros;
      const Found found = median_in_parts(c.values, zeros, 65536, c.parts);
      CHECK(same_double(found.median, plain_median(c.values, count)));
      CHECK(found.passes <= c.passes);
      if (c.passes == 1) CHECK(found.passes == 1);
    }
  // Nearly as many zeros as errors, every other element: the middle is among the least
  // errors, and the window starts at 0.
  std::vector<double> all;
  for (size_t k = 0; k < fair.size(); ++k) {
    all.push_back(fair[k]);
    if (k % 500 != 0) all.push_back(0);
  }
  for (size_t parts : {size_t{1}, size_t{2}}) {
    const Found found = median_of_all(all, 65536, parts);
    CHECK(same_double(found.median, plain_median(fair, static_cast<int64_t>(all.size()))));
    CHECK(found.passes == 1);
  }
}
