// Summary statistics of a tensor, as printed after each output: min, max, mean, standard
// deviation, and counts of NaN and infinities.
//
// Computed in fixed chunks of kStatsChunk elements counted from the tensor's first element:
// each chunk in one pass over its (cache-resident) data, with independent lanes that the
// AVX2 and AVX-512 paths hold in vectors (core/tensor_stats_chunk.h), and the chunks
// merged in order with Chan et al.'s pairwise formula. The result depends only on the
// elements, never on how a caller splits them into blocks (a streamed run and a
// whole-tensor run print the same digits), nor on the kernel path or the thread count.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
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

// Statistics of a tensor's elements given in blocks of any size, in any order, from
// several threads at once: whole chunks are computed as they come, the elements of a chunk
// cut by a block's edge are kept until the chunk is complete, and the chunks' parts are
// merged in chunk order as each next one is ready. So the result is the same bits however
// the tensor was cut and whichever block came first.
class StatsAccumulator {
 public:
  // Of a tensor of `count` elements of `dtype`.
  StatsAccumulator(DType dtype, size_t count);
  // Elements [first, first + n), `data` in the dtype's layout; each element once. Whole
  // chunks are computed across `pool` when given (a ThreadPool takes one job at a time:
  // callers adding from several threads give none).
  void add(size_t first, const void* data, size_t n, ThreadPool* pool = nullptr);
  // Error(kInternal) unless every element was added.
  TensorStats result() const;

 private:
  struct Partial {  // a chunk cut by a block's edge, until its elements are all here
    std::vector<unsigned char> bytes;
    size_t filled = 0;
  };
  size_t chunk_size(size_t c) const;
  // Under mu_.
  void add_piece(size_t c, size_t offset, const unsigned char* data, size_t n);
  void merge_ready();

  DType dtype_;
  size_t esize_;
  bool numeric_;
  size_t count_, chunks_;
  mutable std::mutex mu_;
  size_t added_ = 0;  // elements
  size_t next_ = 0;   // chunks [0, next_) are merged into total_
  StatsPart total_;
  // Runs of consecutive chunks computed and not yet merged, by their first chunk: a
  // block's chunks in one node, not one node each (a node per chunk cost 5% of a float16
  // printing run); merge_ready takes each run whose first chunk is next_.
  std::map<size_t, std::vector<StatsPart>> ready_;
  std::map<size_t, Partial> partial_;
};

TensorStats tensor_stats(const Tensor& t, ThreadPool* pool = nullptr);

}  // namespace onnxrun
