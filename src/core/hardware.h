// The one hardware configuration (DESIGN.md, "Blocks are the pipeline"; XNNPACK's
// hardware config in small): the CPU is probed once, here and nowhere else, for the
// instruction-set levels the kernels of every floor use, and every kernel family (the
// LeakyRelu paths, the body ops' loops, the statistics, CRC-32) picks its path from it.
//
//   scalar      baseline x86-64 (SSE2); CRC-32 by zlib's tables
//   avx2        AVX2 + F16C + FMA, the OS saving the YMM state; CRC-32 by PCLMULQDQ
//   avx512      avx2 + AVX-512 F/BW/VL/DQ, the OS saving the ZMM state
//   avx512bf16  avx512 + AVX-512 BF16
//
// ONNXRUN_ISA=scalar|avx2|avx512|avx512bf16 in the environment caps the level the kernels
// use (for tests and benchmarks): it applies to every family alike. Every path computes
// the same bits as the portable one (each family's tests compare them); they differ only
// in speed.
//
// Thread safe: the probe and the choice are made once per process (a racing first call
// computes the same answer).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace onnxrun {

enum class IsaLevel : uint8_t { kScalar, kAvx2, kAvx512, kAvx512Bf16 };

struct HardwareConfig {
  IsaLevel level = IsaLevel::kScalar;  // the widest level kernels may use
  bool pclmul = false;                 // PCLMULQDQ + SSE4.1, for CRC-32 (never at scalar)

  bool has(IsaLevel l) const { return level >= l; }
};

// "scalar", "avx2", "avx512", "avx512bf16".
const char* isa_level_name(IsaLevel level);
// The level named `name`, or nullopt.
std::optional<IsaLevel> find_isa_level(std::string_view name);

// What this CPU and OS support, ONNXRUN_ISA aside: which paths may run at all (the tests
// compare every supported path with the portable one).
const HardwareConfig& cpu_hardware();

// What the kernels use: cpu_hardware() capped at ONNXRUN_ISA's level when it is set.
// Throws Error(kUsage) when ONNXRUN_ISA names an unknown level or one this CPU cannot
// run; a failed choice is not kept, so every use reports the same error.
const HardwareConfig& hardware_config();

// `cpu` capped at the level named `isa` (null or empty: `cpu` itself), as
// hardware_config() does with the environment's ONNXRUN_ISA. Throws as it does.
HardwareConfig capped_hardware(const HardwareConfig& cpu, const char* isa);

}  // namespace onnxrun
