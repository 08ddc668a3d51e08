// Inputs made up from the graph's declarations, for `bench` and for runs given no data
// (like onnxruntime_perf_test's generated inputs and polygraphy's --val-range).
// Shapes come from the declared fixed dims; symbolic dims are taken from shapes the
// caller gives for some inputs (--shape x=1,3 binds x's symbols for every input that
// shares them); a dim nothing binds is 1, as in Polygraphy, with a warning naming the
// input and the dim (once per symbol: every input that shares it gets the same 1).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "core/tensor.h"
#include "model/graph.h"

namespace onnxrun {

struct RandomInputSpec {
  std::map<std::string, Shape> shapes;  // input name -> whole shape
  uint64_t seed = 0;
  double low = -1.0;  // values are uniform in [low, high], rounded to the input's type
  double high = 1.0;
  std::map<std::string, std::pair<double, double>> ranges;  // input name -> its own [low, high]
};

// Throws Error(kUsage) when `shapes` (--shape) names what is not an input of the model: a
// typo would go unused, whether the inputs are made up or given as -i literals.
void check_shape_names(const Graph& g, const std::map<std::string, Shape>& shapes);

// The shape each required input will have. Throws Error(kUsage) for an input that
// declares no shape, Error(kInput) for a given shape that contradicts the declaration.
// Logs a warning for each dim it sets to 1.
std::map<std::string, Shape> resolve_input_shapes(const Graph& g, const std::map<std::string, Shape>& given);

// A tensor of uniform random values (integers: uniform over the integers in the range;
// bool: either value). Deterministic for a given rng state.
Tensor random_tensor(DType t, const Shape& shape, uint64_t seed, double low, double high);

// Every required input, made up as above. Each input's values depend only on the seed,
// its position and its range, so the same command gives the same data. Throws
// Error(kUsage) when spec.ranges names what is not a required input.
std::map<std::string, Tensor> random_inputs(const Graph& g, const RandomInputSpec& spec);

}  // namespace onnxrun
