// What the vector paths of every floor ask of the CPU before they are chosen.
#pragma once

#if defined(__clang__)
#include <cpuid.h>
#endif

namespace onnxrun {

// Whether the CPU has F16C. GCC's __builtin_cpu_supports knows "f16c"; clang 14's does
// not, so there it is CPUID.1:ECX bit 29 (the callers check AVX2 first, which covers
// the OS saving the AVX state).
inline bool cpu_has_f16c() {
#if defined(__clang__)
  unsigned a = 0, b = 0, c = 0, d = 0;
  return __get_cpuid(1, &a, &b, &c, &d) && (c & bit_F16C);
#else
  return __builtin_cpu_supports("f16c");
#endif
}

}  // namespace onnxrun
