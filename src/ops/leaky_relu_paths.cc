#include "ops/leaky_relu_paths.h"

#include <atomic>
#include <cstdlib>
#include <string>

#include <fmt/format.h>

#include "core/error.h"
#include "core/fail.h"
#include "ops/leaky_relu_kernels.h"

namespace onnxrun {
namespace {

bool always() { return true; }

std::string path_names() {
  std::string s;
  for (const LeakyReluPath& p : leaky_relu_all_paths()) s += s.empty() ? p.name : fmt::format("|{}", p.name);
  return s;
}

const LeakyReluPath& choose_path() {
  const char* forced = std::getenv("ONNXRUN_ISA");
  if (forced && *forced) {
    const LeakyReluPath* p = find_leaky_relu_path(forced);
    if (!p) fail(ErrorKind::kUsage, "ONNXRUN_ISA={}: unknown kernel path (known: {})", forced, path_names());
    if (!p->supported()) fail(ErrorKind::kUsage, "ONNXRUN_ISA={}: this CPU cannot run that kernel path", forced);
    return *p;
  }
  return *leaky_relu_supported_paths().back();
}

}  // namespace

const std::vector<LeakyReluPath>& leaky_relu_all_paths() {
  static const std::vector<LeakyReluPath> paths = {
      {"scalar", always, leaky_relu_float, leaky_relu_double, leaky_relu_float16, leaky_relu_bfloat16,
       leaky_relu_chain_float, leaky_relu_chain_double},
      {"avx2", leaky_relu_avx2::supported, leaky_relu_avx2::f32, leaky_relu_avx2::f64, leaky_relu_avx2::f16,
       leaky_relu_avx2::bf16, leaky_relu_avx2::chain_f32, leaky_relu_avx2::chain_f64},
      // Chains are memory-bound with AVX2 already: the wider paths share its loops.
      {"avx512", leaky_relu_avx512::supported, leaky_relu_avx512::f32, leaky_relu_avx512::f64, leaky_relu_avx512::f16,
       leaky_relu_avx512::bf16, leaky_relu_avx2::chain_f32, leaky_relu_avx2::chain_f64},
      {"avx512bf16", leaky_relu_avx512::supported_bf16, leaky_relu_avx512::f32, leaky_relu_avx512::f64,
       leaky_relu_avx512::f16, leaky_relu_avx512::bf16_native, leaky_relu_avx2::chain_f32, leaky_relu_avx2::chain_f64},
  };
  return paths;
}

std::vector<const LeakyReluPath*> leaky_relu_supported_paths() {
  std::vector<const LeakyReluPath*> out;
  for (const LeakyReluPath& p : leaky_relu_all_paths())
    if (p.supported()) out.push_back(&p);
  return out;
}

const LeakyReluPath* find_leaky_relu_path(std::string_view name) {
  for (const LeakyReluPath& p : leaky_relu_all_paths())
    if (name == p.name) return &p;
  return nullptr;
}

const LeakyReluPath& leaky_relu_active_path() {
  // A failed choice is not cached: every use reports the same error. Racing first
  // calls compute the same answer.
  static std::atomic<const LeakyReluPath*> chosen{nullptr};
  const LeakyReluPath* p = chosen.load(std::memory_order_acquire);
  if (!p) {
    p = &choose_path();
    chosen.store(p, std::memory_order_release);
  }
  return *p;
}

}  // namespace onnxrun
