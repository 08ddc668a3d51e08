// Broadcasting for elementwise ops.
//
// Numpy-style ("multidirectional", ONNX opset 7+): shapes align on the right, a missing
// leading dim counts as 1, each pair of dims must be equal or one of them 1, and the
// result takes the larger. The legacy form (Less-1, Mul-1/6: attributes `broadcast` and
// `axis`) broadcasts B onto A only; legacy_b_shape() turns it into the numpy form.
//
// BroadcastWalk splits the output into rows along its innermost dimension (after merging
// dimensions that are contiguous for every input), so kernels run plain inner loops in
// which each input either advances (stride 1) or stays (stride 0).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/tensor.h"

namespace onnxrun {

// The broadcast result of `shapes`. Throws Error(kInvalid) naming the shapes when two
// dims are neither equal nor 1.
Shape broadcast_shapes(const std::vector<Shape>& shapes);

// B's shape as numpy broadcasting should see it under the legacy rule:
// broadcast == 0: B must have A's shape. broadcast == 1: B has one element, or B's shape
// equals A's dims [axis, axis + rank(B)) (axis defaults to the suffix; negative counts
// from the end); the result is rank(A) with B's dims in place and 1 elsewhere.
// Throws Error(kInvalid) explaining the rule on any other pair.
Shape legacy_b_shape(const Shape& a, const Shape& b, int64_t broadcast, std::optional<int64_t> axis);

// The flat index, in a tensor of shape `in`, of the element that element `flat` of the
// broadcast result of shape `out` reads (numpy style); -1 when `in` does not broadcast
// to `out`.
int64_t broadcast_source_index(const Shape& out, int64_t flat, const Shape& in);

// The legacy attributes of Less-1 and Mul-1/6, read once per node.
struct LegacyBroadcast {
  int64_t broadcast = 0;
  std::optional<int64_t> axis;
};

// The output shape of a binary elementwise op. Numpy style when `legacy` is empty; under
// `legacy`, `b` is replaced by a view of its data with legacy_b_shape() and the result
// is A's shape.
Shape prepare_binary_broadcast(const Tensor& a, Tensor& b, const std::optional<LegacyBroadcast>& legacy);

template <size_t N>
class BroadcastWalk {
 public:
  // REQUIRES: every input shape broadcasts to `out`.
  BroadcastWalk(const Shape& out, const std::array<const Shape*, N>& ins);

  int64_t row_length() const { return row_len_; }
  // Per input: 1 if it advances along a row, 0 if one element serves the whole row.
  const std::array<int64_t, N>& inner_strides() const { return inner_; }

  // Calls fn(out_offset, in_offsets) for each row, in output order.
  template <typename Fn>
  void for_each_row(Fn&& fn) const;

 private:
  int64_t row_len_ = 1;
  int64_t rows_ = 1;
  std::array<int64_t, N> inner_{};
  std::vector<int64_t> outer_dims_;                    // outermost first
  std::array<std::vector<int64_t>, N> outer_strides_;  // element strides per outer dim
};

// ---- implementation ----

template <size_t N>
BroadcastWalk<N>::BroadcastWalk(const Shape& out, const std::array<const Shape*, N>& ins) {
  const size_t rank = out.size();
  // Strides of each input in the output's coordinates (0 where it broadcasts).
  std::array<std::vector<int64_t>, N> strides;
  for (size_t k = 0; k < N; ++k) {
    const Shape& s = *ins[k];
    strides[k].assign(rank, 0);
    int64_t st = 1;
    for (size_t j = 0; j < s.size(); ++j) {
      const size_t in_dim = s.size() - 1 - j;
      const size_t out_dim = rank - 1 - j;
      strides[k][out_dim] = s[in_dim] == 1 ? 0 : st;
      st *= s[in_dim];
    }
  }
  // Merge neighbouring dims (dropping those of size 1) where every input steps through
  // them as one: stride[d] == stride[d+1] * size[d+1].
  std::vector<int64_t> dims;
  std::array<std::vector<int64_t>, N> mstrides;
  for (size_t d = 0; d < rank; ++d) {
    if (out[d] == 1) continue;
    bool merge = !dims.empty();
    for (size_t k = 0; k < N && merge; ++k) merge = mstrides[k].back() == strides[k][d] * out[d];
    if (merge) {
      dims.back() *= out[d];
      for (size_t k = 0; k < N; ++k) mstrides[k].back() = strides[k][d];
    } else {
      dims.push_back(out[d]);
      for (size_t k = 0; k < N; ++k) mstrides[k].push_back(strides[k][d]);
    }
  }
  if (dims.empty()) {
    row_len_ = 1;
    for (size_t k = 0; k < N; ++k) inner_[k] = 0;
    return;
  }
  row_len_ = dims.back();
  for (size_t k = 0; k < N; ++k) {
    inner_[k] = mstrides[k].back();
    mstrides[k].pop_back();
    outer_strides_[k] = std::move(mstrides[k]);
  }
  dims.pop_back();
  outer_dims_ = std::move(dims);
  for (int64_t d : outer_dims_) rows_ *= d;
}

template <size_t N>
template <typename Fn>
void BroadcastWalk<N>::for_each_row(Fn&& fn) const {
  const size_t depth = outer_dims_.size();
  std::vector<int64_t> index(depth, 0);
  std::array<int64_t, N> off{};
  int64_t out_off = 0;
  for (int64_t r = 0; r < rows_; ++r) {
    fn(out_off, off);
    out_off += row_len_;
    // Odometer step over the outer dims, innermost first.
    for (size_t d = depth; d-- > 0;) {
      if (++index[d] < outer_dims_[d]) {
        for (size_t k = 0; k < N; ++k) off[k] += outer_strides_[k][d];
        break;
      }
      index[d] = 0;
      for (size_t k = 0; k < N; ++k) off[k] -= outer_strides_[k][d] * (outer_dims_[d] - 1);
    }
  }
}

}  // namespace onnxrun
