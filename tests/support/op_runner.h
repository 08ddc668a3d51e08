// Running one operator of the builtin registry on tensors, without a model: the
// version serving `opset` is looked up, its type checks run, its kernel computes.
#pragma once

#include <cstring>
#include <string>
#include <vector>

#include "core/attribute.h"
#include "core/tensor.h"

namespace onnxrun::test {

std::vector<Tensor> run_op(const std::string& op_type, int64_t opset, const AttributeMap& attrs,
                           std::vector<Tensor> inputs);

template <typename T>
Tensor make_tensor(DType dtype, Shape shape, const std::vector<T>& values) {
  Tensor t(dtype, std::move(shape));
  if (static_cast<size_t>(t.numel()) != values.size() || sizeof(T) != dtype_size(dtype)) throw std::logic_error("make_tensor");
  if (!values.empty()) std::memcpy(t.mutable_raw(), values.data(), values.size() * sizeof(T));
  return t;
}

template <typename T>
std::vector<T> values_of(const Tensor& t) {
  std::vector<T> v(static_cast<size_t>(t.numel()));
  if (!v.empty()) std::memcpy(v.data(), t.raw(), v.size() * sizeof(T));
  return v;
}

}  // namespace onnxrun::test
