// Timing repeated runs: the statistics `onnx-run bench` prints, a memcpy baseline for
// the same bytes, and the process's peak memory. Timing only; no printing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/tensor.h"

namespace onnxrun {

class Executor;
class ThreadPool;

struct BenchOptions {
  int warmup = 3;         // untimed runs first
  int repeat = 20;        // timed runs
  double duration_s = 0;  // > 0: timed runs for this long instead of `repeat` (at least one)
};

// A timed loop of duration_s stops at this many runs, so that the times it keeps (8 bytes
// a run) stay below 80 MB however fast a run is.
constexpr size_t kMaxDurationRuns = 10'000'000;
// The longest duration_s (about 31 years): its nanoseconds, added to the clock's reading,
// must fit in the clock's int64 (1e10 s overflowed to a deadline already past: 2 runs).
constexpr double kMaxDurationS = 1e9;

// A run faster than this is timed in batches: each reading of the clock costs 20-30 ns
// on a VM, which would otherwise be a large share of a small run's time.
constexpr int64_t kBatchNs = 1000;
constexpr size_t kMaxBatch = 1024;

// The timed runs' times, one per batch: a batch's mean run, rounded to the nanosecond.
struct TimedRuns {
  std::vector<int64_t> ns;
  size_t runs = 0;   // every timed run, of every batch
  size_t batch = 1;  // runs a batch holds (the last may hold fewer)
};

// Calls run(k, 1) for k = 0 .. warmup-1 untimed, then run(first, n) for the timed runs
// (repeat of them, or as many as fit in duration_s, at least one, at most
// kMaxDurationRuns), n at a time: run(first, n) makes runs first .. first+n-1 and returns
// the nanoseconds they took together. n is 1 unless the fastest warm-up run took under
// kBatchNs (with no warm-up, always 1); then untimed batches double until one takes
// kBatchNs, or holds as many runs as `repeat` asks for. Every bench below times this way.
TimedRuns timed_runs(const BenchOptions& o, const std::function<int64_t(int first, int n)>& run);

// One percentile of the timed runs, by nearest rank: pXX is the smallest time that at
// least XX% of the runs did not exceed. When there are too few runs for that rank to fall
// below the last one (p99 needs 100 runs, p99.9 needs 1000), it is the max, and is_max
// says so: the report then labels it as the max it is.
struct Percentile {
  std::string name;  // "p50", "p90", "p95", "p99", "p99.9"
  int64_t ns = 0;
  bool is_max = false;
};

struct BenchStats {
  size_t runs = 0;
  int64_t min_ns = 0, median_ns = 0, p90_ns = 0, p99_ns = 0, max_ns = 0;
  double mean_ns = 0;
  std::vector<Percentile> percentiles;  // p50, p90, p95, p99, p99.9
};

// Order statistics of `ns` (percentiles as above; median_ns, p90_ns and p99_ns are
// those of `percentiles`). REQUIRES: !ns.empty().
BenchStats summarize_times(std::vector<int64_t> ns);

struct BenchResult {
  BenchStats stats;               // stats.runs: every timed run
  std::vector<int64_t> times_ns;  // a batch's mean run, in run order
  size_t batch = 1;               // runs timed together (the last batch may hold fewer)
  size_t elements_per_run = 0;    // elements of the graph outputs
  size_t bytes_per_run = 0;       // bytes of the inputs read plus the outputs written (--stats, --compare: read)

  // Throughput at the median run, the typical one (0 when it took no measurable time).
  double elements_per_s() const;
  double gb_per_s() const;
};

// Runs exec.run(inputs) warmup times, then repeat times (or for duration_s), and times
// those runs with their outputs' release. A run faster than a microsecond (the fastest
// warm-up run) is timed in batches of runs between two readings of the clock, whose own
// cost (20-30 ns on a VM) would be a large share of its time; without warm-up runs, one
// by one. The same holds for the benches below. The inputs are shared with the caller,
// so kernels never overwrite them and every run computes the same thing.
BenchResult bench_executor(const Executor& exec, const std::map<std::string, Tensor>& inputs,
                           const BenchOptions& options);

// memcpy of `bytes` bytes between two buffers allocated and touched once, split across
// `pool` as kernels are (pool may be null); bytes_per_run is 2 * bytes (read + write),
// comparable with a kernel that reads and writes `bytes` each.
BenchResult bench_memcpy(size_t bytes, const BenchOptions& options, ThreadPool* pool);

// tensor_stats over a float32 tensor of `bytes` bytes (normal values), across `pool`;
// bytes_per_run is `bytes` (read only). Beside bench_memcpy of the same bytes, it says
// what printing a run's statistics costs against moving its data.
BenchResult bench_stats(size_t bytes, const BenchOptions& options, ThreadPool* pool);

// compare_tensors (the default tolerance) of two float32 tensors of `bytes` bytes each:
// bit-identical (what a passing regression test compares), or with `differ` every element
// one ULP apart (each one judged, its errors counted). One thread; bytes_per_run is
// 2 * bytes (both read). Beside bench_memcpy of `bytes`, what the verdict costs against
// moving the data.
BenchResult bench_compare(size_t bytes, bool differ, const BenchOptions& options);

// The most resident memory this process has had (getrusage), in bytes.
size_t peak_rss_bytes();

}  // namespace onnxrun
