// Summary statistics of a tensor, as printed after each output: min, max, mean, standard
// deviation, and counts of NaN and infinities.
//
// Computed in fixed chunks of kStatsChunk elements counted from the tensor's first element:
// each chunk in two passes over its (cache-resident) data, with independent lanes the
// compiler or the AVX2 path vectorizes, and the chunks merged in order with Chan et al.'s
// pairwise formula. The result depends only on the elements, never on how a caller splits
// them into blocks (a streamed run and a whole-tensor run print the same digits), nor on the
// kernel path or the thread count.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/stats_part.h"
#include "core/tensor.h"

namespace onnxrun {

class ThreadPool;

struct TensorStats {
  bool numeric = false;  // false for types without arithmetic (complex, string): the rest is zero
  int64_t count = 0;     // elements
  int64_t nan = 0;
  int64_t pos_inf = 0;
  int64_t neg_inf = 0;
  int64_t finite = 0;
  // min and max over the non-NaN elements (so they may be infinite); mean and std
  // (population, ddof=0, as numpy's) over the finite elements. NaN when there are none.
  double min = 0, max = 0, mean = 0, std = 0;
};

// Statistics of elements given in order, in blocks of any size.
class StatsAccumulator {
 public:
  explicit StatsAccumulator(DType dtype);
  // The next n elements of the tensor, `data` in the dtype's layout. Chunks are computed
  // across `pool` when given; the merge is in order whatever the pool.
  void add(const void* data, size_t n, ThreadPool* pool = nullptr);
  TensorStats result() const;

 private:
  void add_chunks(const unsigned char* data, size_t chunks, ThreadPool* pool);
  DType dtype_;
  size_t esize_;
  bool numeric_;
  int64_t count_ = 0;
  StatsPart total_;
  std::vector<unsigned char> carry_;  // the elements of a chunk not yet complete
};

TensorStats tensor_stats(const Tensor& t, ThreadPool* pool = nullptr);

}  // namespace onnxrun
