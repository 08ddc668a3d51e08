// Whole-tensor shortcuts over the product's API that only tests call (the program itself
// goes block by block, or through other doors), so they live here rather than in src/.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/attribute.h"
#include "core/tensor.h"
#include "io/streamed_tensor_file.h"
#include "io/tensor_text.h"
#include "ops/leaky_relu_paths.h"

namespace onnxrun {

struct RunReport;

// `t` as numpy's str prints it: format_shown of its shown elements.
std::string format_array(const Tensor& t, const ArrayPrintOptions& options = {});

// A whole tensor as one block of the writers (io/streamed_tensor_file.h), committed: a
// TensorProto named `name`, a .npy, an .npz of `arrays` (members "<name>.npy", in the
// order given).
void write_tensor_file(const WriteTarget& target, const Tensor& t, const std::string& name);
void write_npy_file(const WriteTarget& target, const Tensor& t);
void write_npz_file(const WriteTarget& target, const std::vector<NamedArray>& arrays);

// The paths this CPU supports, baseline first (the last is the best).
std::vector<const LeakyReluPath*> leaky_relu_supported_paths();

// An int attribute made in code.
Attribute int_attr(int64_t v);

// Every set of `report` passed.
bool all_passed(const RunReport& report);

}  // namespace onnxrun
