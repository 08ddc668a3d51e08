#include "suite/run_log.h"

#include <chrono>
#include <map>
#include <memory>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/log.h"
#include "core/tensor_stats_chunk.h"
#include "model/describe.h"
#include "ops/leaky_relu_paths.h"
#include "ops/registry.h"

namespace onnxrun {

void log_loaded(const std::string& path, const Model& m, double load_ms) {
  if (!log::enabled(log::Level::kDebug)) return;
  const Graph& g = m.graph;
  std::string imports;
  for (const auto& [domain, version] : g.opset_imports)
    imports += fmt::format("{}{} {}", imports.empty() ? "" : ", ", domain_label(domain), version);
  log::debug("loaded {} in {:.3f} ms: IR version {}, opsets {}, {} node{}, {} initializer{} ({} bytes)", path, load_ms,
             m.meta.ir_version, imports.empty() ? "(none)" : imports, g.nodes.size(), g.nodes.size() == 1 ? "" : "s",
             g.initializers.size(), g.initializers.size() == 1 ? "" : "s", initializer_bytes(g));
  for (const OperatorUse& u : operator_uses(g))
    log::debug("resolved {}{} x{} -> {}", u.domain == "ai.onnx" ? "" : u.domain + ".", u.op_type, u.nodes,
               fmt::join(u.versions, ", "));
}

void log_execution(const Executor& exec, size_t threads) {
  if (!log::enabled(log::Level::kDebug)) return;
  log::debug("executing {} step{} on kernel path {} (statistics {}) with {} thread{}", exec.graph().nodes.size(),
             exec.graph().nodes.size() == 1 ? "" : "s", leaky_relu_active_path().name, stats_active_kernels().name,
             threads, threads == 1 ? "" : "s");
}

void log_timings(const std::string& label, double input_ms, double run_ms) {
  log::debug("{}: inputs ready in {:.3f} ms, ran in {:.3f} ms", label, input_ms, run_ms);
}

ValueObserver traced(const Graph& g, ValueObserver inner) {
  if (!log::enabled(log::Level::kTrace)) return inner;
  auto producer = std::make_shared<std::map<std::string, std::string>>();
  for (const Node& n : g.nodes)
    for (const std::string& out : n.outputs)
      (*producer)[out] = n.op ? fmt::format("{} as v{}", n.label(), n.op->since) : n.label();
  const auto t0 = std::chrono::steady_clock::now();
  return [producer, inner = std::move(inner), t0](const std::string& name, const Tensor& value) {
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    const auto it = producer->find(name);
    log::trace("+{:.3f} ms: {} made '{}' {}", ms, it == producer->end() ? "a fused step" : it->second, name,
               value.describe());
    if (inner) inner(name, value);
  };
}

}  // namespace onnxrun
