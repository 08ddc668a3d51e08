// `onnx-run bench MODEL ...`: repeated timed runs of a model on given or made-up inputs,
// `onnx-run bench --memcpy BYTES`, the memory-bandwidth baseline for the same bytes, and
// `--stats` / `--compare BYTES`, what the statistics and the verdict cost beside it.
// Timing and statistics live in suite/bench.h; this file parses and prints.
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <fmt/core.h>

#include <CLI/CLI.hpp>

#include "cli/app_common.h"
#include "cli/command_row.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/help_text.h"
#include "cli/number_options.h"
#include "cli/shape_args.h"
#include "core/error.h"
#include "core/fail.h"
#include "core/log.h"
#include "core/thread_pool.h"
#include "ops/leaky_relu_paths.h"
#include "suite/bench.h"
#include "suite/json_documents.h"
#include "suite/run.h"

namespace onnxrun::cli {
namespace {

constexpr uint64_t kMaxRuns = 1'000'000'000;  // BenchOptions counts runs in an int

struct BenchArgs {
  // What the request takes as given: MODEL, -i, --npz, --seed, --no-fuse, --expand-functions.
  RunRequest request;
  std::vector<std::string> shapes;
  size_t memcpy_bytes = 0;
  size_t stats_bytes = 0;
  size_t compare_bytes = 0;
  bool differ = false;
  BenchOptions bench;
  bool repeat_given = false, duration_given = false;
  bool json = false;
  CommonOptions common;  // --threads among them
};

std::string human_ns(double ns) {
  if (ns < 1e3) return fmt::format("{:.0f} ns", ns);
  if (ns < 1e6) return fmt::format("{:.2f} us", ns / 1e3);
  if (ns < 1e9) return fmt::format("{:.2f} ms", ns / 1e6);
  return fmt::format("{:.3f} s", ns / 1e9);
}

void print_result(const BenchArgs& a, const std::string& what, unsigned threads, const BenchResult& r) {
  if (a.json) {
    fmt::print("{}", bench_json(what, threads, a.bench, r));
    return;
  }
  const BenchStats& s = r.stats;
  const size_t rss = peak_rss_bytes();
  const std::string path = leaky_relu_active_path().name;
  const std::string in_time = a.bench.duration_s > 0 ? fmt::format(" in {:g} s", a.bench.duration_s) : "";
  // Batched runs: each time is a batch's mean run, and the percentiles are over batches.
  const std::string batches = r.batch > 1 ? fmt::format(" in batches of {}", r.batch) : "";
  const std::string times = r.batch > 1
                                ? fmt::format("{} batch{}", r.times_ns.size(), r.times_ns.size() == 1 ? "" : "es")
                                : fmt::format("{} runs", s.runs);
  fmt::print("{}: {} runs{}{} after {} warm-up, {} thread{}, kernel path {}\n", what, s.runs, in_time, batches,
             a.bench.warmup, threads, threads == 1 ? "" : "s", path);
  fmt::print("  per run: min {}  mean {}  max {}\n", human_ns(static_cast<double>(s.min_ns)), human_ns(s.mean_ns),
             human_ns(static_cast<double>(s.max_ns)));
  std::string line;
  for (const Percentile& p : s.percentiles)
    line += fmt::format("  {}{} {}", p.name, p.is_max ? fmt::format(" (max of {})", times) : "",
                        human_ns(static_cast<double>(p.ns)));
  fmt::print("{}\n", line);
  // The statistics and the comparison only read their tensors; a run and memcpy write too.
  const bool reads_only = a.stats_bytes > 0 || a.compare_bytes > 0;
  fmt::print("  {:.4g} elements/s, {:.2f} GB/s ({} bytes {} per run, at the median)\n", r.elements_per_s(),
             r.gb_per_s(), r.bytes_per_run, reads_only ? "read" : "read + written");
  fmt::print("  peak RSS {:.1f} MiB\n", static_cast<double>(rss) / (1 << 20));
}

// The run to time, from the options (nullopt for --memcpy). Reads no file.
std::optional<RunRequest> bench_request(const BenchArgs& a) {
  if (a.repeat_given && a.duration_given)
    fail(ErrorKind::kUsage, "--repeat and --duration: give one (a count of runs, or the seconds they may take)");
  const int baselines = (a.memcpy_bytes > 0) + (a.stats_bytes > 0) + (a.compare_bytes > 0);
  if (a.differ && a.compare_bytes == 0) fail(ErrorKind::kUsage, "--differ goes with --compare BYTES");
  if (baselines > 0) {
    if (!a.request.model.empty() || !a.request.inputs.empty() || !a.request.npz.empty())
      fail(ErrorKind::kUsage, "--memcpy, --stats and --compare take no model or inputs");
    if (baselines > 1) fail(ErrorKind::kUsage, "--memcpy, --stats and --compare: give one");
    // Whole floats: --stats 3 timed 0 elements under a title of 3 bytes.
    for (const auto& [name, bytes] : {std::pair{"--stats", a.stats_bytes}, std::pair{"--compare", a.compare_bytes}})
      if (bytes % sizeof(float))
        fail(ErrorKind::kUsage, "{} {}: BYTES of float32 must be a multiple of 4", name, bytes);
    return std::nullopt;
  }
  if (a.request.model.empty()) fail(ErrorKind::kUsage, "give a MODEL to time, or --memcpy BYTES");
  const bool given = !a.request.inputs.empty() || !a.request.npz.empty();
  if (given && !a.shapes.empty())
    fail(ErrorKind::kUsage, "--shape is for made-up inputs; with -i or --npz the files give the shapes");
  RunRequest request = a.request;
  request.source = given ? FeedSource::kGiven : FeedSource::kRandom;
  request.shapes = parse_shape_args(a.shapes);
  request.threads = a.common.threads;
  request.keep_tensors = false;
  request.digests = false;  // nothing here prints values
  request.bench = a.bench;
  return request;
}

void check_bench(BenchArgs& a) { bench_request(a); }

int run_bench(BenchArgs& a) {
  if (const std::optional<RunRequest> request = bench_request(a)) {
    const RunReport report = run_model(*request);
    for (const std::string& w : report.warnings()) log::warn("{}", w);
    print_result(a, a.request.model, report.threads, *report.bench);
    return kExitOk;
  }
  ThreadPool pool(a.common.threads);
  if (a.compare_bytes > 0) {
    print_result(a,
                 fmt::format("comparison of {} bytes of float, {}", a.compare_bytes,
                             a.differ ? "every element 1 ULP apart" : "bit-identical"),
                 1, bench_compare(a.compare_bytes, a.differ, a.bench));
  } else if (a.stats_bytes > 0) {
    print_result(a, fmt::format("statistics of {} bytes of float", a.stats_bytes), pool.size(),
                 bench_stats(a.stats_bytes, a.bench, &pool));
  } else {
    print_result(a, fmt::format("memcpy {} bytes", a.memcpy_bytes), pool.size(),
                 bench_memcpy(a.memcpy_bytes, a.bench, &pool));
  }
  return kExitOk;
}

const CommandDoc& bench_doc() {
  static const CommandDoc doc{
      "onnx-run bench MODEL [OPTIONS] | onnx-run bench --memcpy BYTES",
      "Times repeated runs of the whole graph (every node, as `onnx-run MODEL` runs it), inputs already in memory, on "
      "given or "
      "made-up inputs: --repeat N runs, or as many as --duration S seconds holds. It prints min, mean, max "
      "and the p50, p90, p95, p99 and p99.9 run times (nearest rank); a percentile that needs more runs "
      "than were made (p99 under 100) is the max, and says so. Runs faster than a microsecond after warm-up are timed "
      "in batches (the clock's own cost would weigh on each): a time is then a batch's mean run. GB/s counts the bytes "
      "of the inputs read plus the "
      "outputs written, at the median "
      "run. --memcpy times memcpy of the same bytes: the memory-bandwidth baseline; --stats the "
      "statistics printed after an output; --compare the comparison of an output with its expected value. ONNXRUN_ISA "
      "forces a kernel path.",
      {
          {"onnx-run bench model.onnx --shape x=1000000 --threads 1", "one thread, a made-up input of a million"},
          {"onnx-run bench model.onnx -i x=x.pb --repeat 50 --json", "fifty timed runs on a file, as JSON"},
          {"onnx-run bench model.onnx --shape x=1000 --duration 2", "timed runs for two seconds, with p50 to p99.9"},
          {"onnx-run bench model_expanded.onnx --shape x=1000000 --no-fuse", "the written-out body, node by node"},
          {"onnx-run bench --memcpy 4000000", "the bandwidth baseline for 4 MB"},
          {"onnx-run bench --stats 400000000 --threads 1", "the cost of the printed statistics over 400 MB"},
          {"onnx-run bench --compare 4000000", "the verdict on a million floats, against --memcpy 4000000"},
      },
      {
          {0, "timed"},
          {2, "usage error (malformed command line)"},
          {3, "model or input rejected"},
      }};
  return doc;
}

void build_bench_app(CLI::App& app, BenchArgs& a) {
  describe_app(app, "onnx-run bench", bench_doc());
  app.description("onnx-run bench: time repeated runs of a model (or of memcpy, the bandwidth baseline)");
  add_common_options(app, a.common, "threads (default: one per core)");
  app.add_option("MODEL", a.request.model, "the .onnx model file")->type_name("FILE");
  app.add_option("-i,--input", a.request.inputs,
                 "an input tensor, [NAME=]FILE (.pb or .npy; default: made up from declared shapes)")
      ->type_name("[NAME=]FILE");
  app.add_option("--npz", a.request.npz, "inputs from a numpy .npz: each array binds the input of its name")
      ->type_name("FILE");
  app.add_option("--shape", a.shapes, "shape of a made-up input, binding its symbolic dims")
      ->type_name("NAME=d0,d1,...");
  app.add_option("--warmup", a.bench.warmup, "untimed runs first")
      ->type_name("N")
      ->capture_default_str()
      ->check(whole_number(0, kMaxRuns));
  // Not CLI11's excludes(): its "Excludes: --duration" takes the place of the description in --help.
  app.add_option("--repeat", a.bench.repeat, "timed runs (or --duration, not both)")
      ->type_name("N")
      ->capture_default_str()
      ->check(whole_number(1, kMaxRuns))
      ->each([&a](const std::string&) { a.repeat_given = true; });
  app.add_option("--duration", a.bench.duration_s,
                 "timed runs for S seconds (at most 1e9) instead of --repeat (at least one run; at most 10 million)")
      ->type_name("S")
      ->check(positive_number(kMaxDurationS))
      ->each([&a](const std::string&) { a.duration_given = true; });
  app.add_option("--seed", a.request.seed, "seed for made-up inputs")->capture_default_str()->check(whole_number(0));
  app.add_option("--memcpy", a.memcpy_bytes, "time memcpy of BYTES bytes instead of a model")
      ->type_name("BYTES")
      ->check(whole_number(1));
  app.add_option("--stats", a.stats_bytes,
                 "time the statistics printed after an output, over BYTES bytes of float32 in memory")
      ->type_name("BYTES")
      ->check(whole_number(1));
  app.add_option("--compare", a.compare_bytes,
                 "time the comparison of an output with its expected value, two float32 tensors of BYTES bytes "
                 "(one thread)")
      ->type_name("BYTES")
      ->check(whole_number(1));
  app.add_flag("--differ", a.differ, "with --compare: every element 1 ULP apart (default: bit-identical)");
  app.add_flag("--json", a.json, "print one JSON object instead of text");
  app.add_flag("--no-fuse", a.request.no_fuse, "time every node run as the graph says (no plan-time rewrite)");
  app.add_flag("--expand-functions", a.request.expand_functions,
               "time LeakyRelu-16 run through its function body (not recognised back)");
}

const CommandRow<BenchArgs> kBenchRow{
    "bench", "time repeated runs of a model, or of memcpy", bench_doc, build_bench_app, check_bench, run_bench};

}  // namespace

const Command& bench_command() { return row_command<BenchArgs, kBenchRow>(); }

}  // namespace onnxrun::cli
