// What a run's report shows of a value: its type and shape, its statistics, and the
// elements its printed form shows (io/tensor_text.h, shown_elements). The same digest
// comes from a whole tensor (digest_of) or from its blocks as they pass (DigestBuilder),
// so a streamed run prints and reports exactly what a whole-tensor run does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/tensor.h"
#include "core/tensor_stats.h"
#include "io/tensor_text.h"

namespace onnxrun {

class ThreadPool;

struct ValueDigest {
  DType dtype = DType::kUndefined;
  Shape shape;
  TensorStats stats;
  Tensor shown;             // of shown_shape(shape, print); !valid() when no digest was made
  ArrayPrintOptions print;  // what `shown` was chosen for
  bool valid() const { return shown.valid(); }
  bool summarised() const { return print_summarises(shape, print); }
};

// "float[2,3]", as Tensor::describe.
std::string describe(const ValueDigest& d);

// The most shown elements a streamed run keeps for one value: more (a --full print of a
// large tensor, or one of many short axes) means the run keeps the whole tensor.
inline constexpr int64_t kMaxShownElements = int64_t{1} << 20;

ValueDigest digest_of(const Tensor& t, const ArrayPrintOptions& print, ThreadPool* pool = nullptr);

// A digest of a tensor of `dtype` and `shape` seen in blocks: in any order, from several
// threads at once (each element once).
class DigestBuilder {
 public:
  DigestBuilder(DType dtype, Shape shape, const ArrayPrintOptions& print);
  // Elements [begin, begin + block.numel()) of the flattened tensor, `block` of `dtype`.
  // `pool`: as StatsAccumulator::add's.
  void add(size_t begin, const Tensor& block, ThreadPool* pool = nullptr);
  // Error(kInternal) unless every element was added.
  ValueDigest finish();

 private:
  ValueDigest digest_;
  StatsAccumulator stats_;
  std::vector<int64_t> offsets_;  // of the shown elements, ascending
};

}  // namespace onnxrun
