#include "suite/bench.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <utility>

#include "core/error.h"
#include "core/fail.h"
#include "core/tensor_stats.h"
#include "core/thread_pool.h"
#include "exec/executor.h"
#include "suite/compare.h"

namespace onnxrun {
namespace {

using Clock = std::chrono::steady_clock;

int64_t ns_since(Clock::time_point t0) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count();
}

// The nanoseconds `runs` calls of `body` take together.
template <class Body>
int64_t time_calls(int runs, const Body& body) {
  const Clock::time_point t0 = Clock::now();
  for (int k = 0; k < runs; ++k) body();
  return ns_since(t0);
}

void check_options(const BenchOptions& o) {
  if (o.warmup < 0) fail(ErrorKind::kUsage, "--warmup must be 0 or more, not {}", o.warmup);
  if (o.repeat < 1) fail(ErrorKind::kUsage, "--repeat must be at least 1, not {}", o.repeat);
  if (!(o.duration_s >= 0) || o.duration_s > kMaxDurationS)
    fail(ErrorKind::kUsage, "--duration must be a number of seconds above 0 and at most {:g}, not {}", kMaxDurationS,
         o.duration_s);
}

// The result of `timed`, its statistics made.
BenchResult result_of(TimedRuns timed, BenchResult r) {
  r.stats = summarize_times(timed.ns);
  r.stats.runs = timed.runs;
  r.batch = timed.batch;
  r.times_ns = std::move(timed.ns);
  return r;
}

// The percentiles the report shows, in permille (integers: no rounding in the rank).
constexpr std::pair<const char*, size_t> kPercentiles[] = {
    {"p50", 500}, {"p90", 900}, {"p95", 950}, {"p99", 990}, {"p99.9", 999}};

}  // namespace

TimedRuns timed_runs(const BenchOptions& o, const std::function<int64_t(int first, int n)>& run) {
  check_options(o);
  int k = 0;
  int64_t fastest = kBatchNs;
  for (; k < o.warmup; ++k) fastest = std::min(fastest, run(k, 1));
  TimedRuns t;
  const size_t most = o.duration_s > 0 ? kMaxBatch : std::min(kMaxBatch, static_cast<size_t>(o.repeat));
  for (bool fast = fastest < kBatchNs; fast && t.batch < most; t.batch = std::min(most, 2 * t.batch)) {
    fast = run(k, static_cast<int>(t.batch)) < kBatchNs;
    k += static_cast<int>(t.batch);
    if (!fast) break;
  }
  const auto time_batch = [&](size_t n) {
    const int64_t ns = run(k, static_cast<int>(n));
    k += static_cast<int>(n);
    t.runs += n;
    t.ns.push_back((ns + static_cast<int64_t>(n / 2)) / static_cast<int64_t>(n));
  };
  if (o.duration_s > 0) {
    const auto end =
        Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o.duration_s));
    do time_batch(t.batch);
    while (Clock::now() < end && t.runs < kMaxDurationRuns);
    return t;
  }
  for (size_t left = static_cast<size_t>(o.repeat); left > 0; left -= std::min(left, t.batch))
    time_batch(std::min(left, t.batch));
  return t;
}

BenchStats summarize_times(std::vector<int64_t> ns) {
  if (ns.empty()) fail(ErrorKind::kInternal, "no times to summarize");
  std::sort(ns.begin(), ns.end());
  const size_t n = ns.size();
  BenchStats s;
  s.runs = n;
  s.min_ns = ns.front();
  s.max_ns = ns.back();
  for (const auto& [name, permille] : kPercentiles) {
    const size_t rank = std::clamp<size_t>((permille * n + 999) / 1000, 1, n);  // ceil(q * n)
    s.percentiles.push_back({name, ns[rank - 1], rank == n});
  }
  s.median_ns = s.percentiles[0].ns;
  s.p90_ns = s.percentiles[1].ns;
  s.p99_ns = s.percentiles[3].ns;
  double sum = 0;
  for (int64_t v : ns) sum += static_cast<double>(v);
  s.mean_ns = sum / static_cast<double>(n);
  return s;
}

double BenchResult::elements_per_s() const {
  return stats.median_ns > 0 ? static_cast<double>(elements_per_run) * 1e9 / static_cast<double>(stats.median_ns) : 0;
}

double BenchResult::gb_per_s() const {
  return stats.median_ns > 0 ? static_cast<double>(bytes_per_run) / static_cast<double>(stats.median_ns) : 0;
}

BenchResult bench_executor(const Executor& exec, const std::map<std::string, Tensor>& inputs,
                           const BenchOptions& options) {
  std::vector<Tensor> first_outputs;  // run 0's, kept to count their bytes
  TimedRuns timed = timed_runs(options, [&](int first, int n) {
    std::vector<std::map<std::string, Tensor>> feeds(n, inputs);  // share the buffers; copied untimed
    const Clock::time_point t0 = Clock::now();
    for (int j = 0; j < n; ++j) {
      std::vector<Tensor> outputs = exec.run(std::move(feeds[j]));
      if (first + j == 0) first_outputs = std::move(outputs);
    }
    return ns_since(t0);
  });
  BenchResult r;
  for (const auto& [name, t] : inputs) r.bytes_per_run += t.nbytes();
  for (const Tensor& t : first_outputs) {
    r.bytes_per_run += t.nbytes();
    r.elements_per_run += static_cast<size_t>(t.numel());
  }
  return result_of(std::move(timed), std::move(r));
}

BenchResult bench_memcpy(size_t bytes, const BenchOptions& options, ThreadPool* pool) {
  check_options(options);  // before the buffers are allocated
  const auto src = Buffer::allocate(bytes == 0 ? 1 : bytes);
  const auto dst = Buffer::allocate(bytes == 0 ? 1 : bytes);
  std::memset(src->mutable_data(), 1, bytes);
  std::memset(dst->mutable_data(), 0, bytes);
  const std::byte* s = src->data();
  std::byte* d = dst->mutable_data();
  // The same split a kernel gets (core/thread_pool.h worthwhile_piece).
  const size_t min_piece = worthwhile_piece(pool, bytes, 1);
  BenchResult r;
  r.bytes_per_run = 2 * bytes;
  r.elements_per_run = bytes;
  TimedRuns timed = timed_runs(options, [&](int, int runs) {
    return time_calls(runs, [&] {
      parallel_for(pool, bytes, min_piece, 64, [&](size_t b, size_t e) { std::memcpy(d + b, s + b, e - b); });
    });
  });
  return result_of(std::move(timed), std::move(r));
}

BenchResult bench_stats(size_t bytes, const BenchOptions& options, ThreadPool* pool) {
  check_options(options);  // before the tensor is allocated
  const size_t n = bytes / sizeof(float);
  Tensor t(DType::kFloat, Shape{static_cast<int64_t>(n)});
  float* x = t.mutable_data<float>();
  for (size_t i = 0; i < n; ++i) x[i] = static_cast<float>(i % 1000) * 0.001f - 0.5f;
  BenchResult r;
  r.bytes_per_run = n * sizeof(float);
  r.elements_per_run = n;
  double sink = 0;
  TimedRuns timed =
      timed_runs(options, [&](int, int runs) { return time_calls(runs, [&] { sink += tensor_stats(t, pool).mean; }); });
  if (sink == 12345.678) std::fputc(' ', stderr);  // keeps the result alive
  return result_of(std::move(timed), std::move(r));
}

BenchResult bench_compare(size_t bytes, bool differ, const BenchOptions& options) {
  check_options(options);  // before the tensors are allocated
  const size_t n = bytes / sizeof(float);
  Tensor expected(DType::kFloat, Shape{static_cast<int64_t>(n)});
  Tensor actual(DType::kFloat, Shape{static_cast<int64_t>(n)});
  float* e = expected.mutable_data<float>();
  float* a = actual.mutable_data<float>();
  for (size_t i = 0; i < n; ++i) {
    e[i] = static_cast<float>(i % 1000) * 0.001f - 0.5f;
    // One ULP away (within the default tolerance), so that every element is judged.
    a[i] = differ ? std::nextafter(e[i], 1.0f) : e[i];
  }
  BenchResult r;
  r.bytes_per_run = 2 * n * sizeof(float);
  r.elements_per_run = n;
  int64_t sink = 0;
  const Tolerance tol;
  TimedRuns timed = timed_runs(options, [&](int, int runs) {
    return time_calls(runs, [&] { sink += compare_tensors(expected, actual, tol).mismatches; });
  });
  if (sink == 12345678) std::fputc(' ', stderr);  // keeps the result alive
  return result_of(std::move(timed), std::move(r));
}

size_t peak_rss_bytes() {
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<size_t>(ru.ru_maxrss) * 1024;  // Linux reports KiB
}

}  // namespace onnxrun
