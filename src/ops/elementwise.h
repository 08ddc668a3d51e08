// Elementwise loops over broadcast inputs, written once as templates over the element
// functor. Each has a fast path for inputs laid out like the output (equal shapes up to
// leading 1s) and for one-element operands, and otherwise walks rows (broadcast.h).
// The output may share its buffer with an input whose elements line up with it one for
// one (see reuse_or_allocate): each element is read before it is written.
#pragma once

#include <array>
#include <functional>
#include <initializer_list>

#include "core/tensor.h"
#include "ops/broadcast.h"
#include "ops/elementwise_paths.h"
#include "ops/registry.h"

namespace onnxrun {

// The attributes of the legacy broadcast (Less-1, Mul-1 and Mul-6).
inline const std::vector<AttrSpec> kLegacyBroadcastAttrs = {{"broadcast", AttrKind::kInt}, {"axis", AttrKind::kInt}};

// How a node of a binary op broadcasts: the legacy way when its version defines the
// `broadcast` attribute (read and checked here), else numpy style (nullopt).
std::optional<LegacyBroadcast> binary_broadcast_rule(const OpDef& def, const AttributeMap& attrs);

// The kernel factory of a binary op (Mul, Less) whose kernel takes its broadcast rule.
template <typename Kernel>
std::unique_ptr<OpKernel> make_binary_kernel(const OpDef& def, const AttributeMap& attrs) {
  return std::make_unique<Kernel>(binary_broadcast_rule(def, attrs));
}

// A tensor of `dtype` and `shape` for an op's output. Reuses the buffer of the first
// donor that the executor handed over (can_overwrite), has `dtype` and exactly as many
// elements as the output; else allocates. Only inputs whose shape broadcasts to `shape`
// may be donors: with equal counts their elements then line up with the output's.
Tensor reuse_or_allocate(DType dtype, const Shape& shape, std::initializer_list<const Tensor*> donors);

// How the vectorized loops of elementwise_paths.h can run a binary op into `out`: a and b
// laid out like it (kNone), or one of them a single element (kA, kB); nullopt for any
// other broadcast. REQUIRES: out has the broadcast shape of a and b.
std::optional<Repeat> contiguous_repeat(const Tensor& a, const Tensor& b, const Tensor& out);

// Runs fn(begin, end) over [0, n) elements of `elem_bytes` each, in pieces across `pool`
// (may be null) for large tensors, as LeakyRelu splits (pieces of at least 4 MiB).
void split_elements(ThreadPool* pool, size_t n, size_t elem_bytes, const std::function<void(size_t, size_t)>& fn);

// out[i] = f(a[i'], b[i'']) over the broadcast of a and b. REQUIRES: out has the
// broadcast shape of a and b.
template <typename TA, typename TB, typename TO, typename F>
void broadcast_binary(const Tensor& a, const Tensor& b, Tensor& out, F f) {
  const int64_t n = out.numel();
  if (n == 0) return;
  const TA* pa = a.data<TA>();
  const TB* pb = b.data<TB>();
  TO* po = out.mutable_data<TO>();
  const int64_t na = a.numel();
  const int64_t nb = b.numel();
  if (na == n && nb == n) {
    for (int64_t i = 0; i < n; ++i) po[i] = f(pa[i], pb[i]);
    return;
  }
  if (nb == 1 && na == n) {
    const TB s = pb[0];
    for (int64_t i = 0; i < n; ++i) po[i] = f(pa[i], s);
    return;
  }
  if (na == 1 && nb == n) {
    const TA s = pa[0];
    for (int64_t i = 0; i < n; ++i) po[i] = f(s, pb[i]);
    return;
  }
  const BroadcastWalk<2> walk(out.shape(), {&a.shape(), &b.shape()});
  const int64_t len = walk.row_length();
  // Not a structured binding: clang 14 (the fuzz build) cannot capture one in a lambda.
  const auto strides = walk.inner_strides();
  const int64_t sa = strides[0], sb = strides[1];
  walk.for_each_row([&](int64_t oo, const std::array<int64_t, 2>& io) {
    const TA* ra = pa + io[0];
    const TB* rb = pb + io[1];
    TO* ro = po + oo;
    if (sa && sb) {
      for (int64_t i = 0; i < len; ++i) ro[i] = f(ra[i], rb[i]);
    } else if (sa) {
      const TB s = rb[0];
      for (int64_t i = 0; i < len; ++i) ro[i] = f(ra[i], s);
    } else if (sb) {
      const TA s = ra[0];
      for (int64_t i = 0; i < len; ++i) ro[i] = f(s, rb[i]);
    } else {
      const TO v = f(ra[0], rb[0]);
      for (int64_t i = 0; i < len; ++i) ro[i] = v;
    }
  });
}

// out[i] = c[i'] ? x[i''] : y[i'''] over the broadcast of all three, for any element
// type of x/y given by its storage T; c holds bytes, nonzero meaning true.
template <typename T>
void broadcast_select(const Tensor& c, const Tensor& x, const Tensor& y, Tensor& out) {
  const int64_t n = out.numel();
  if (n == 0) return;
  const uint8_t* pc = c.data<uint8_t>();
  const T* px = x.data<T>();
  const T* py = y.data<T>();
  T* po = out.mutable_data<T>();
  if (c.numel() == n && x.numel() == n && y.numel() == n) {
    for (int64_t i = 0; i < n; ++i) po[i] = pc[i] ? px[i] : py[i];
    return;
  }
  const BroadcastWalk<3> walk(out.shape(), {&c.shape(), &x.shape(), &y.shape()});
  const int64_t len = walk.row_length();
  const auto strides = walk.inner_strides();
  const int64_t sc = strides[0], sx = strides[1], sy = strides[2];
  walk.for_each_row([&](int64_t oo, const std::array<int64_t, 3>& io) {
    const uint8_t* rc = pc + io[0];
    const T* rx = px + io[1];
    const T* ry = py + io[2];
    T* ro = po + oo;
    if (sc && sx && sy) {
      for (int64_t i = 0; i < len; ++i) ro[i] = rc[i] ? rx[i] : ry[i];
    } else {
      for (int64_t i = 0; i < len; ++i) ro[i] = rc[i * sc] ? rx[i * sx] : ry[i * sy];
    }
  });
}

}  // namespace onnxrun
