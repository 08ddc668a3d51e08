// LeakyRelu kernel paths chosen at run time for the CPU at hand. Every path computes the
// same bits as the portable loops in leaky_relu_kernels.h (tests check each path the
// machine supports, exhaustively for the 16-bit types); they differ only in speed.
//
//   scalar      the portable loops (baseline x86-64; SSE2 where the compiler vectorizes)
//   avx2        AVX2 + F16C; bfloat16 rounded with integer arithmetic
//   avx512      AVX-512 F/BW/VL (+F16C); bfloat16 rounded with integer arithmetic
//   avx512bf16  avx512, with bfloat16 rounded by AVX-512 BF16's vcvtneps2bf16
//
// The default build runs on any x86-64: the wide paths are compiled for their ISA with
// per-function target options and only called when the hardware configuration
// (core/hardware.h) says the CPU (and OS) has it. Each path is named after its ISA level,
// so ONNXRUN_ISA=scalar|avx2|avx512|avx512bf16, which caps that configuration, forces
// the path of that name (for tests and benchmarks); unset, the best supported path is used.
//
// Contract of each function as in leaky_relu_kernels.h: y may equal x (in place), no
// other overlap. Thread safe (no state).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/hardware.h"

namespace onnxrun {

struct LeakyReluPath {
  const char* name;
  IsaLevel level;  // what the CPU must have (core/hardware.h); the name is the level's
  void (*f32)(const float* x, float* y, size_t n, float alpha);
  void (*f64)(const double* x, double* y, size_t n, double alpha);
  void (*f16)(const uint16_t* x, uint16_t* y, size_t n, uint16_t alpha_bits);
  void (*bf16)(const uint16_t* x, uint16_t* y, size_t n, uint16_t alpha_bits);
  // LeakyRelus one after the other, alphas[0] first, in one pass (a fused chain).
  void (*chain_f32)(const float* x, float* y, size_t n, const float* alphas, size_t k);
  void (*chain_f64)(const double* x, double* y, size_t n, const double* alphas, size_t k);

  bool supported() const { return cpu_hardware().has(level); }  // does this CPU and OS run it?
};

// Every path this build has, baseline first, whether or not the CPU supports it.
const std::vector<LeakyReluPath>& leaky_relu_all_paths();

// The path kernels use: the one of hardware_config()'s level (ONNXRUN_ISA's when set,
// else the best supported). Throws as hardware_config() does.
const LeakyReluPath& leaky_relu_active_path();

// The wide paths (defined in leaky_relu_avx2.cc / leaky_relu_avx512.cc).
namespace leaky_relu_avx2 {
void f32(const float* x, float* y, size_t n, float alpha);
void f64(const double* x, double* y, size_t n, double alpha);
void f16(const uint16_t* x, uint16_t* y, size_t n, uint16_t alpha_bits);
void bf16(const uint16_t* x, uint16_t* y, size_t n, uint16_t alpha_bits);
void chain_f32(const float* x, float* y, size_t n, const float* alphas, size_t k);
void chain_f64(const double* x, double* y, size_t n, const double* alphas, size_t k);
}  // namespace leaky_relu_avx2
namespace leaky_relu_avx512 {
void f32(const float* x, float* y, size_t n, float alpha);
void f64(const double* x, double* y, size_t n, double alpha);
void f16(const uint16_t* x, uint16_t* y, size_t n, uint16_t alpha_bits);
void bf16(const uint16_t* x, uint16_t* y, size_t n, uint16_t alpha_bits);
void bf16_native(const uint16_t* x, uint16_t* y, size_t n, uint16_t alpha_bits);
}  // namespace leaky_relu_avx512

// Out-of-place runs writing at least this many bytes use non-temporal stores: the
// output would not stay in cache anyway, and streaming skips reading it in first.
inline constexpr size_t kLeakyReluStreamBytes = size_t{8} << 20;

}  // namespace onnxrun
