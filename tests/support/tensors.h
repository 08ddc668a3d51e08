// Building tensors from values in tests, and reading their values back.
#pragma once

#include <cstring>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/tensor.h"

namespace onnxrun::test {

// A tensor of `shape` holding `values` (as many as the shape has elements, of the
// dtype's size; else std::logic_error).
template <typename T>
Tensor make_tensor(DType dtype, Shape shape, const std::vector<T>& values) {
  Tensor t(dtype, std::move(shape));
  if (static_cast<size_t>(t.numel()) != values.size() || sizeof(T) != dtype_size(dtype))
    throw std::logic_error("make_tensor");
  if (!values.empty()) std::memcpy(t.mutable_raw(), values.data(), values.size() * sizeof(T));
  return t;
}

// float tensors: of `shape`, or one-dimensional when no shape is given.
inline Tensor float_tensor(Shape shape, const std::vector<float>& values) {
  return make_tensor(DType::kFloat, std::move(shape), values);
}
inline Tensor float_tensor(const std::vector<float>& values) {
  return float_tensor(Shape{static_cast<int64_t>(values.size())}, values);
}

// A tensor of `dtype` and `shape` whose bytes are random (every bit pattern: NaN, infinities,
// subnormals alike), the same for the same seed.
inline Tensor patterned(DType dtype, Shape shape, uint32_t seed = 1) {
  Tensor t(dtype, std::move(shape));
  auto* p = static_cast<uint8_t*>(t.nbytes() ? t.mutable_raw() : nullptr);
  std::mt19937 rng(seed);
  for (size_t k = 0; k < t.nbytes(); ++k) p[k] = static_cast<uint8_t>(rng());
  return t;
}

template <typename T>
std::vector<T> values_of(const Tensor& t) {
  std::vector<T> v(static_cast<size_t>(t.numel()));
  if (!v.empty()) std::memcpy(v.data(), t.raw(), v.size() * sizeof(T));
  return v;
}

}  // namespace onnxrun::test
