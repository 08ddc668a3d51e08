#include "core/tensor_stats_chunk.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/element.h"
#include "core/half.h"

namespace onnxrun {

template <class T>
StatsPart plain_stats(const T* x, size_t n) {
  StatsPart p;
  p.count = static_cast<int64_t>(n);
  double sum = 0, biggest = 0;
  for (size_t i = 0; i < n; ++i) {
    const double v = x[i];
    if (std::isnan(v)) {
      ++p.nan;
      continue;
    }
    if (!p.any || v < p.min) p.min = v;
    if (!p.any || v > p.max) p.max = v;
    p.any = true;
    if (std::isinf(v)) {
      ++(v > 0 ? p.pos_inf : p.neg_inf);
      continue;
    }
    ++p.finite;
    sum += v;
    biggest = std::max(biggest, std::fabs(v));
  }
  if (p.finite == 0) return p;
  p.mean = sum / static_cast<double>(p.finite);
  if (!std::isfinite(p.mean)) {  // the sum overflowed (doubles near the top of the range)
    // The same sum of the values times 2^-13: a chunk's at most 2^12 of them then add up
    // below the largest double. (A running mean overflowed in x - mean for x and mean of
    // opposite signs: the mean of [1.5e308, 1.5e308, -1.5e308, ...] was NaN.)
    static_assert(kStatsChunk <= 4096);
    double scaled = 0;
    for (size_t i = 0; i < n; ++i)
      if (std::isfinite(static_cast<double>(x[i]))) scaled += std::ldexp(static_cast<double>(x[i]), -13);
    p.mean = std::ldexp(scaled / static_cast<double>(p.finite), 13);
  }
  if (squares_in_range(biggest)) {
    for (size_t i = 0; i < n; ++i) {
      const double v = x[i];
      if (std::isfinite(v)) p.m2 += (v - p.mean) * (v - p.mean);
    }
    return p;
  }
  // Doubles whose squares leave the range: deviations of the values divided by 2^scale,
  // which puts the largest in [1, 2) (exact: a power of two).
  p.scale = std::ilogb(biggest);
  const double mean = std::ldexp(p.mean, -p.scale);
  for (size_t i = 0; i < n; ++i) {
    const double v = x[i];
    if (std::isfinite(v)) p.m2 += (std::ldexp(v, -p.scale) - mean) * (std::ldexp(v, -p.scale) - mean);
  }
  return p;
}

template StatsPart plain_stats<float>(const float*, size_t);
template StatsPart plain_stats<double>(const double*, size_t);

template <float (*to_float)(uint16_t)>
StatsPart plain_stats16(const uint16_t* x, size_t n) {
  float w[kStatsChunk];
  for (size_t i = 0; i < n; ++i) w[i] = to_float(x[i]);
  return plain_stats(w, n);
}

template StatsPart plain_stats16<float16_to_float>(const uint16_t*, size_t);
template StatsPart plain_stats16<bfloat16_to_float>(const uint16_t*, size_t);

StatsPart finite_part(size_t n, double mean, double mn, double mx, double m2) {
  StatsPart p;
  p.count = p.finite = static_cast<int64_t>(n);
  p.any = true;
  p.min = mn;
  p.max = mx;
  p.mean = mean;
  p.m2 = m2;
  return p;
}

namespace {

template <class T>
StatsPart portable_lanes(const T* x, size_t n) {
  constexpr size_t L = kStatsLanes;
  const double k = static_cast<double>(x[0]);
  double s[L] = {}, q[L] = {};
  T mn[L], mx[L];
  for (size_t l = 0; l < L; ++l) mn[l] = mx[l] = x[0];
  size_t i = 0;
  for (; i + L <= n; i += L)
    for (size_t l = 0; l < L; ++l) add_to_lane(x[i + l], k, s[l], q[l], mn[l], mx[l]);
  if (const std::optional<StatsPart> p = finish_lanes(x + i, n - i, n, k, s, q, mn, mx)) return *p;
  return plain_stats(x, n);
}

StatsPart portable_f32(const float* x, size_t n) { return portable_lanes(x, n); }
StatsPart portable_f64(const double* x, size_t n) { return portable_lanes(x, n); }

// A chunk of 16-bit floats: sixteen lanes of sums over the values widened (exactly), min
// and max by their bits' keys; the plain loop over the widened chunk when a sum is not
// finite.
template <float (*to_float)(uint16_t)>
StatsPart portable_16bit(const uint16_t* x, size_t n) {
  constexpr size_t L = kStatsLanes16;
  const double k = static_cast<double>(to_float(x[0]));
  double s[L] = {}, q[L] = {};
  int16_t lo = half_order_key(x[0]), hi = lo;
  size_t i = 0;
  for (; i + L <= n; i += L)
    for (size_t l = 0; l < L; ++l) {
      add_to_sums(static_cast<double>(to_float(x[i + l])), k, s[l], q[l]);
      const int16_t key = half_order_key(x[i + l]);
      lo = key < lo ? key : lo;
      hi = key > hi ? key : hi;
    }
  if (const std::optional<StatsPart> p = finish_lanes16<to_float>(x + i, n - i, n, k, s, q, lo, hi)) return *p;
  return plain_stats16<to_float>(x, n);
}

// Integer, bool and 8-bit float types: widened to double one by one (exact below 2^53).
StatsPart other_stats(DType dtype, const void* data, size_t n) {
  const size_t esize = dtype_size(dtype);
  const Tensor view(dtype, Shape{static_cast<int64_t>(n)}, Buffer::borrow(data, n * esize, nullptr, false));
  double w[kStatsChunk];
  for (size_t i = 0; i < n; ++i) w[i] = element_as_double(view, static_cast<int64_t>(i));
  return plain_stats(w, n);
}

}  // namespace

const StatsKernels& stats_portable_kernels() {
  static const StatsKernels k{"portable",
                              IsaLevel::kScalar,
                              portable_f32,
                              portable_f64,
                              portable_16bit<float16_to_float>,
                              portable_16bit<bfloat16_to_float>};
  return k;
}

const StatsKernels& stats_kernels_for(const HardwareConfig& config) {
  for (const StatsKernels* p : {&stats_avx512_kernels(), &stats_avx2_kernels()})
    if (config.has(p->level)) return *p;
  return stats_portable_kernels();
}

const StatsKernels& stats_active_kernels() { return stats_kernels_for(hardware_config()); }

StatsPart chunk_stats(DType dtype, const void* data, size_t n) {
  const StatsKernels& p = stats_active_kernels();
  switch (dtype) {
    case DType::kFloat: return p.f32(static_cast<const float*>(data), n);
    case DType::kDouble: return p.f64(static_cast<const double*>(data), n);
    case DType::kFloat16: return p.f16(static_cast<const uint16_t*>(data), n);
    case DType::kBFloat16: return p.bf16(static_cast<const uint16_t*>(data), n);
    default: return other_stats(dtype, data, n);
  }
}

}  // namespace onnxrun
