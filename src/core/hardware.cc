// The only place onnx-run asks the CPU what it has (core/hardware.h).
#include "core/hardware.h"

#include <atomic>
#include <cstdlib>
#include <string>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include "core/error.h"
#include "core/fail.h"

namespace onnxrun {
namespace {

constexpr const char* kNames[] = {"scalar", "avx2", "avx512", "avx512bf16"};

#if defined(__x86_64__)
// Whether the CPU has F16C. GCC's __builtin_cpu_supports knows "f16c"; clang 14's does
// not, so there it is CPUID.1:ECX bit 29 (checked after AVX2, which covers the OS saving
// the AVX state).
bool has_f16c() {
#if defined(__clang__)
  unsigned a = 0, b = 0, c = 0, d = 0;
  return __get_cpuid(1, &a, &b, &c, &d) && (c & bit_F16C);
#else
  return __builtin_cpu_supports("f16c");
#endif
}

// __builtin_cpu_supports checks XCR0 too: an AVX or AVX-512 feature counts only when the
// OS saves its registers.
HardwareConfig probe() {
  __builtin_cpu_init();
  HardwareConfig h;
  h.pclmul = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1");
  const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && has_f16c();
  if (!avx2) return h;
  h.level = IsaLevel::kAvx2;
  if (!(__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
        __builtin_cpu_supports("avx512dq")))
    return h;
  h.level = IsaLevel::kAvx512;
  if (__builtin_cpu_supports("avx512bf16")) h.level = IsaLevel::kAvx512Bf16;
  return h;
}
#else
HardwareConfig probe() { return {}; }
#endif

std::string level_names() {
  std::string s;
  for (const char* n : kNames) s += (s.empty() ? "" : "|") + std::string(n);
  return s;
}

}  // namespace

const char* isa_level_name(IsaLevel level) { return kNames[static_cast<int>(level)]; }

std::optional<IsaLevel> find_isa_level(std::string_view name) {
  for (int i = 0; i < 4; ++i)
    if (name == kNames[i]) return static_cast<IsaLevel>(i);
  return std::nullopt;
}

const HardwareConfig& cpu_hardware() {
  static const HardwareConfig cpu = probe();
  return cpu;
}

HardwareConfig capped_hardware(const HardwareConfig& cpu, const char* isa) {
  if (!isa || !*isa) return cpu;
  const std::optional<IsaLevel> level = find_isa_level(isa);
  if (!level) fail(ErrorKind::kUsage, "ONNXRUN_ISA={}: unknown kernel path (known: {})", isa, level_names());
  if (!cpu.has(*level)) fail(ErrorKind::kUsage, "ONNXRUN_ISA={}: this CPU cannot run that kernel path", isa);
  HardwareConfig h = cpu;
  h.level = *level;
  // Scalar means the baseline x86-64, carry-less multiplies included.
  if (*level == IsaLevel::kScalar) h.pclmul = false;
  return h;
}

const HardwareConfig& hardware_config() {
  // A failed choice is not kept: every use reports the same error. Racing first calls
  // compute the same answer; the one stored is never freed.
  static std::atomic<const HardwareConfig*> chosen{nullptr};
  const HardwareConfig* h = chosen.load(std::memory_order_acquire);
  if (!h) {
    auto* made = new HardwareConfig(capped_hardware(cpu_hardware(), std::getenv("ONNXRUN_ISA")));
    const HardwareConfig* expected = nullptr;
    if (chosen.compare_exchange_strong(expected, made, std::memory_order_acq_rel)) {
      h = made;
    } else {
      delete made;
      h = expected;
    }
  }
  return *h;
}

}  // namespace onnxrun
