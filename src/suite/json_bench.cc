// The `onnx-run bench --json` line (schema in suite/json_documents.h).
#include "ops/leaky_relu_paths.h"
#include "suite/json_documents.h"
#include "suite/json_values.h"

namespace onnxrun {

std::string bench_json(const std::string& what, unsigned threads, const BenchOptions& options, const BenchResult& r) {
  const BenchStats& s = r.stats;
  nlohmann::ordered_json percentiles = nlohmann::ordered_json::object();
  for (const Percentile& p : s.percentiles) percentiles[p.name] = {{"ns", p.ns}, {"is_max", p.is_max}};
  const nlohmann::ordered_json j = {{"what", what},
                                    {"threads", threads},
                                    {"kernel_path", leaky_relu_active_path().name},
                                    {"warmup", options.warmup},
                                    {"duration_s", options.duration_s},
                                    {"runs", s.runs},
                                    {"batch", r.batch},
                                    {"min_ns", s.min_ns},
                                    {"median_ns", s.median_ns},
                                    {"p90_ns", s.p90_ns},
                                    {"p99_ns", s.p99_ns},
                                    {"max_ns", s.max_ns},
                                    {"mean_ns", s.mean_ns},
                                    {"percentiles", percentiles},
                                    {"elements_per_run", r.elements_per_run},
                                    {"bytes_per_run", r.bytes_per_run},
                                    {"elements_per_s", r.elements_per_s()},
                                    {"gb_per_s", r.gb_per_s()},
                                    {"peak_rss_bytes", peak_rss_bytes()}};
  return json_text(j, 2);  // indented as every other --json document
}

}  // namespace onnxrun
