// Inputs made up from the graph's declarations, for `bench` and for runs given no data
// (like onnxruntime_perf_test's generated inputs and polygraphy's --val-range).
// Shapes come from the declared fixed dims; symbolic dims are taken from shapes the
// caller gives for some inputs (--shape x=1,3 binds x's symbols for every input that
// shares them); a dim left unknown is an error naming the input and the dim.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "core/tensor.h"
#include "model/graph.h"

namespace onnxrun {

struct RandomInputSpec {
  std::map<std::string, Shape> shapes;  // input name -> whole shape
  uint64_t seed = 0;
  double low = -1.0;  // values are uniform in [low, high], rounded to the input's type
  double high = 1.0;
};

// The shape each required input will have. Throws Error(kUsage) for a dim that nothing
// determines, Error(kInput) for a given shape that contradicts the declaration.
std::map<std::string, Shape> resolve_input_shapes(const Graph& g, const std::map<std::string, Shape>& given);

// A tensor of uniform random values (integers: uniform over the integers in the range;
// bool: either value). Deterministic for a given rng state.
Tensor random_tensor(DType t, const Shape& shape, uint64_t seed, double low, double high);

// Every required input, made up as above. Each input's values depend only on the seed
// and its position, so the same command gives the same data.
std::map<std::string, Tensor> random_inputs(const Graph& g, const RandomInputSpec& spec);

}  // namespace onnxrun
