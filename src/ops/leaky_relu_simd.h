// What the AVX2 and AVX-512 kernel files share: the decision to stream and the head
// that aligns the output for it. Plain C++ with no vector code, so it is compiled for
// the baseline and may be included before a file's target pragma.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "ops/leaky_relu_paths.h"

namespace onnxrun::leaky_relu_simd {

// Elements to process before y is `align`-byte aligned (for streaming stores), or n
// when it never will be (y not aligned to its own element size).
template <size_t kAlign, typename T>
size_t head_to_align(const T* y, size_t n) {
  const uintptr_t mis = reinterpret_cast<uintptr_t>(y) & (kAlign - 1);
  if (mis == 0) return 0;
  if (mis % sizeof(T)) return n;
  const size_t k = (kAlign - mis) / sizeof(T);
  return k < n ? k : n;
}

// Out of place, big enough (kLeakyReluStreamBytes) and element-aligned.
template <typename T>
bool should_stream(const T* x, const T* y, size_t n) {
  return static_cast<const void*>(x) != static_cast<const void*>(y) && n * sizeof(T) >= kLeakyReluStreamBytes &&
         reinterpret_cast<uintptr_t>(y) % sizeof(T) == 0;
}

// run(std::true_type{}) when the output should be streamed, else run(std::false_type{}):
// each kernel's loop is a template on that choice, and `run` picks the instance.
template <typename T, typename Run>
void with_stream_choice(const T* x, const T* y, size_t n, Run&& run) {
  if (should_stream(x, y, n)) run(std::true_type{});
  else run(std::false_type{});
}

}  // namespace onnxrun::leaky_relu_simd
