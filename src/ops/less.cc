// Less, versions 1, 7, 9, 13: C = A < B as bool. v1 broadcasts the legacy way
// (attributes `broadcast`, `axis`); v7+ numpy style. 16-bit floats compare as the
// float32 values they denote; NaN compares false, -0.0 < 0.0 is false.
#include <type_traits>

#include "core/error.h"
#include "core/fail.h"
#include "core/half.h"
#include "ops/dtype_dispatch.h"
#include "ops/elementwise.h"
#include "ops/op_families.h"
#include "ops/registry.h"

namespace onnxrun {
namespace {

template <typename T>
uint8_t less_scalar(T a, T b) {
  if constexpr (std::is_same_v<T, Float16>) return float16_to_float(a.bits) < float16_to_float(b.bits);
  else if constexpr (std::is_same_v<T, BFloat16>) return bfloat16_to_float(a.bits) < bfloat16_to_float(b.bits);
  else return a < b;
}

// The vectorized loop (elementwise_paths.h), split across threads when large.
template <typename T>
void less_contiguous(ThreadPool* pool, const T* a, const T* b, uint8_t* out, int64_t n, Repeat r) {
  const ElementwisePath& path = elementwise_active_path();
  auto loop = [&] {
    if constexpr (std::is_same_v<T, float>) return path.less_f32;
    else return path.less_f64;
  }();
  split_elements(pool, static_cast<size_t>(n), sizeof(T), [&](size_t begin, size_t end) {
    loop(r == Repeat::kA ? a : a + begin, r == Repeat::kB ? b : b + begin, out + begin, end - begin, r);
  });
}

class LessKernel final : public OpKernel {
 public:
  explicit LessKernel(std::optional<LegacyBroadcast> legacy) : legacy_(legacy) {}

  void compute(OpContext& ctx) const override {
    Tensor& a = ctx.inputs[0];
    Tensor& b = ctx.inputs[1];
    const Shape out_shape = prepare_binary_broadcast(a, b, legacy_);
    Tensor out(DType::kBool, out_shape);
    visit_dtype(a.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_same_v<T, BoolByte>) {
        fail_unsupported(Cause{Cause::Kind::kType, "Less", "", 0, "bool", ""}, "Less has no kernel for bool");
      } else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
        if (const std::optional<Repeat> r = contiguous_repeat(a, b, out)) {
          less_contiguous(ctx.pool, a.data<T>(), b.data<T>(), out.mutable_data<uint8_t>(), out.numel(), *r);
        } else {
          broadcast_binary<T, T, uint8_t>(a, b, out, [](T x, T y) { return less_scalar(x, y); });
        }
      } else if constexpr (std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>) {
        if (const std::optional<Repeat> r = contiguous_repeat(a, b, out)) {
          const ElementwisePath& path = elementwise_active_path();
          auto loop = std::is_same_v<T, Float16> ? path.less_f16 : path.less_bf16;
          const uint16_t* pa = a.data<uint16_t>();
          const uint16_t* pb = b.data<uint16_t>();
          uint8_t* po = out.mutable_data<uint8_t>();
          split_elements(ctx.pool, static_cast<size_t>(out.numel()), sizeof(uint16_t), [&](size_t s, size_t e) {
            loop(*r == Repeat::kA ? pa : pa + s, *r == Repeat::kB ? pb : pb + s, po + s, e - s, *r);
          });
        } else {
          broadcast_binary<T, T, uint8_t>(a, b, out, [](T x, T y) { return less_scalar(x, y); });
        }
      } else {
        broadcast_binary<T, T, uint8_t>(a, b, out, [](T x, T y) { return less_scalar(x, y); });
      }
    });
    ctx.outputs[0] = std::move(out);
  }

 private:
  std::optional<LegacyBroadcast> legacy_;
};

}  // namespace

std::vector<OpDef> less_ops() {
  const std::vector<DType> v9 = join_types({kFloatTypes, kSignedIntTypes, kUnsignedIntTypes});
  return op_versions({.op_type = "Less",
                      .constraints = {{"T1", {DType::kBool}}},
                      .inputs = {"T", "T"},
                      .min_inputs = 2,
                      .outputs = {"T1"},
                      .make_kernel = make_binary_kernel<LessKernel>,
                      .pointwise = true},
                     {
                         {.since = 1, .attrs = kLegacyBroadcastAttrs, .constraints = {{"T", kFloatTypes}}},
                         {.since = 7, .constraints = {{"T", kFloatTypes}}},
                         {.since = 9, .constraints = {{"T", v9}}},
                         {.since = 13, .constraints = {{"T", join_types({v9, {DType::kBFloat16}})}}},
                     });
}

}  // namespace onnxrun
