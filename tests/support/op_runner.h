// Running one operator of the builtin registry on tensors, without a model: the
// version serving `opset` is looked up, its type checks run, its kernel computes.
#pragma once

#include <string>
#include <vector>

#include "core/attribute.h"
#include "core/tensor.h"
#include "support/tensors.h"  // make_tensor, values_of

namespace onnxrun::test {

std::vector<Tensor> run_op(const std::string& op_type, int64_t opset, const AttributeMap& attrs,
                           std::vector<Tensor> inputs);

}  // namespace onnxrun::test
