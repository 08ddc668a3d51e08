// The run-time statistics of `onnx-run bench` (suite/bench.h): nearest-rank percentiles,
// the ones too few runs leave at the max and say so, timing by duration, and fast runs
// timed in batches.
#include <catch2/catch.hpp>

#include <chrono>
#include <numeric>
#include <vector>

#include "suite/bench.h"

using namespace onnxrun;

namespace {

// 1, 2, ..., n nanoseconds, shuffled (summarize_times sorts).
std::vector<int64_t> one_to(int64_t n) {
  std::vector<int64_t> v(static_cast<size_t>(n));
  std::iota(v.rbegin(), v.rend(), 1);
  return v;
}

const Percentile& percentile(const BenchStats& s, const std::string& name) {
  for (const Percentile& p : s.percentiles)
    if (p.name == name) return p;
  FAIL("no " << name);
  return s.percentiles.front();
}

}  // namespace

TEST_CASE("bench percentiles are nearest ranks, p50 to p99.9", "[bench]") {
  const BenchStats s = summarize_times(one_to(1000));
  REQUIRE(s.percentiles.size() == 5);
  CHECK(s.runs == 1000);
  CHECK(percentile(s, "p50").ns == 500);
  CHECK(percentile(s, "p90").ns == 900);
  CHECK(percentile(s, "p95").ns == 950);
  CHECK(percentile(s, "p99").ns == 990);
  CHECK(percentile(s, "p99.9").ns == 999);
  for (const Percentile& p : s.percentiles) CHECK_FALSE(p.is_max);
  CHECK(s.median_ns == 500);
  CHECK(s.p90_ns == 900);
  CHECK(s.p99_ns == 990);
  CHECK(s.min_ns == 1);
  CHECK(s.max_ns == 1000);
  CHECK(s.mean_ns == 500.5);
}

TEST_CASE("a percentile that needs more runs than were made is the max, and says so", "[bench]") {
  // p99 needs 100 runs, p99.9 1000, p95 20, p90 10, p50 2.
  for (const auto& [runs, max_ones] :
       std::vector<std::pair<int64_t, std::vector<std::string>>>{{1, {"p50", "p90", "p95", "p99", "p99.9"}},
                                                                 {2, {"p90", "p95", "p99", "p99.9"}},
                                                                 {10, {"p95", "p99", "p99.9"}},
                                                                 {19, {"p95", "p99", "p99.9"}},
                                                                 {20, {"p99", "p99.9"}},
                                                                 {40, {"p99", "p99.9"}},
                                                                 {99, {"p99", "p99.9"}},
                                                                 {100, {"p99.9"}},
                                                                 {999, {"p99.9"}},
                                                                 {1000, {}}}) {
    CAPTURE(runs);
    const BenchStats s = summarize_times(one_to(runs));
    for (const Percentile& p : s.percentiles) {
      CAPTURE(p.name);
      const bool listed = std::find(max_ones.begin(), max_ones.end(), p.name) != max_ones.end();
      CHECK(p.is_max == listed);
      if (p.is_max) CHECK(p.ns == runs);
      else CHECK(p.ns < runs);
    }
  }
}

TEST_CASE("bench by duration runs until the time is up, at least once", "[bench]") {
  BenchOptions o;
  o.warmup = 0;
  o.duration_s = 0.05;
  const auto t0 = std::chrono::steady_clock::now();
  const BenchResult r = bench_memcpy(1000, o, nullptr);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK(s >= 0.05);
  CHECK(r.stats.runs > 20);  // not --repeat's 20: a 1000-byte memcpy takes well under 2.5 ms
  CHECK(r.times_ns.size() == r.stats.runs);

  o.duration_s = 1e-9;  // over before the first run ends: still one
  CHECK(bench_memcpy(1000, o, nullptr).stats.runs == 1);
}

TEST_CASE("bench refuses a duration that is not a number of seconds", "[bench]") {
  BenchOptions o;
  // 1e10 s: its nanoseconds overflow the clock (a deadline already past: 2 runs, not 1e10 s).
  for (double d : {-1.0, 1e10, std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()}) {
    o.duration_s = d;
    CHECK_THROWS_WITH(bench_memcpy(1000, o, nullptr), Catch::Contains("--duration"));
  }
}

TEST_CASE("runs faster than a microsecond are timed in batches, without warm-up one by one", "[bench]") {
  // A run of `per_run` ns: the batch doubles until a batch takes kBatchNs (1 us).
  std::vector<std::pair<int, int>> calls;  // (first, n)
  const auto runs_of = [&](int64_t per_run) {
    return [&calls, per_run](int first, int n) {
      calls.emplace_back(first, n);
      return per_run * n;
    };
  };
  BenchOptions o;  // warmup 3
  o.repeat = 100;
  const TimedRuns fast = timed_runs(o, runs_of(100));
  CHECK(fast.batch == 16);  // 8 runs take 800 ns, 16 take 1600
  CHECK(fast.runs == 100);
  CHECK(fast.ns == std::vector<int64_t>(7, 100));  // six batches of 16, the last of 4
  const std::vector<std::pair<int, int>> expected_calls{
      {0, 1},   {1, 1},   {2, 1},                        // warm-up
      {3, 1},   {4, 2},   {6, 4},   {10, 8},  {18, 16},  // untimed, doubling
      {34, 16}, {50, 16}, {66, 16}, {82, 16}, {98, 16}, {114, 16}, {130, 4}};
  CHECK(calls == expected_calls);

  calls.clear();
  o.repeat = 5;  // a batch holds no more runs than were asked for
  CHECK(timed_runs(o, runs_of(10)).batch == 5);

  o.repeat = 100;
  CHECK(timed_runs(o, runs_of(1000)).batch == 1);  // a microsecond: alone
  o.warmup = 0;                                    // nothing tells how long a run takes
  const TimedRuns alone = timed_runs(o, runs_of(100));
  CHECK(alone.batch == 1);
  CHECK(alone.ns.size() == 100);

  o.duration_s = 0.01;  // by duration, batches as well
  o.warmup = 3;
  const TimedRuns timed = timed_runs(o, runs_of(100));
  CHECK(timed.batch == 16);
  CHECK(timed.runs == 16 * timed.ns.size());

  // What bench_memcpy makes of it: runs counted whole, times a batch's mean.
  o = BenchOptions{};
  o.repeat = 3;
  o.warmup = 1;
  const BenchResult slow = bench_memcpy(size_t{64} << 20, o, nullptr);  // milliseconds a run
  CHECK(slow.batch == 1);
  CHECK(slow.stats.runs == 3);
  CHECK(slow.times_ns.size() == 3);
}
