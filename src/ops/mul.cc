// Mul, versions 1, 6, 7, 13, 14. v1 and v6 broadcast the legacy way (attributes
// `broadcast`, `axis`; v1 also the no-op `consumed_inputs`); v7+ numpy style.
// Floats: one correctly rounded product in the tensor's type (16-bit floats computed in
// float32, where one rounding is exact, see mul_scalar). Integers wrap as two's
// complement: the product is formed in unsigned arithmetic, where overflow is defined,
// and narrowed.
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
T mul_scalar(T a, T b) {
  if constexpr (std::is_same_v<T, Float16>) {
    // 11-bit significands: the product is exact in float32, so one rounding.
    return Float16{float_to_float16(float16_to_float(a.bits) * float16_to_float(b.bits))};
  } else if constexpr (std::is_same_v<T, BFloat16>) {
    // 8-bit significands: float32 and one rounding give the exact product's rounding,
    // even below FLT_MIN (leaky_relu_kernels.cc says why).
    return BFloat16{float_to_bfloat16(bfloat16_to_float(a.bits) * bfloat16_to_float(b.bits))};
  } else if constexpr (std::is_integral_v<T>) {
    // Unsigned arithmetic at least as wide as unsigned int (uint16 * uint16 would
    // promote to signed int and could overflow).
    using U = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) * static_cast<U>(b)));
  } else {
    return a * b;
  }
}

// The vectorized loop (elementwise_paths.h), split across threads when large.
template <typename T>
void mul_contiguous(ThreadPool* pool, const T* a, const T* b, T* out, int64_t n, Repeat r) {
  const ElementwisePath& path = elementwise_active_path();
  auto loop = [&] {
    if constexpr (std::is_same_v<T, float>) return path.mul_f32;
    else return path.mul_f64;
  }();
  split_elements(pool, static_cast<size_t>(n), sizeof(T), [&](size_t begin, size_t end) {
    loop(r == Repeat::kA ? a : a + begin, r == Repeat::kB ? b : b + begin, out + begin, end - begin, r);
  });
}

class MulKernel final : public OpKernel {
 public:
  explicit MulKernel(std::optional<LegacyBroadcast> legacy) : legacy_(legacy) {}

  void compute(OpContext& ctx) const override {
    Tensor& a = ctx.inputs[0];
    Tensor& b = ctx.inputs[1];
    const Shape out_shape = prepare_binary_broadcast(a, b, legacy_);
    Tensor out = reuse_or_allocate(a.dtype(), out_shape, {&a, &b});
    visit_dtype(a.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_same_v<T, BoolByte>) {
        fail_unsupported(Cause{Cause::Kind::kType, "Mul", "", 0, "bool", ""}, "Mul has no kernel for bool");
      } else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
        if (const std::optional<Repeat> r = contiguous_repeat(a, b, out)) {
          mul_contiguous(ctx.pool, a.data<T>(), b.data<T>(), out.mutable_data<T>(), out.numel(), *r);
        } else {
          broadcast_binary<T, T, T>(a, b, out, [](T x, T y) { return mul_scalar(x, y); });
        }
      } else if constexpr (std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>) {
        if (const std::optional<Repeat> r = contiguous_repeat(a, b, out)) {
          const ElementwisePath& path = elementwise_active_path();
          auto loop = std::is_same_v<T, Float16> ? path.mul_f16 : path.mul_bf16;
          const uint16_t* pa = a.data<uint16_t>();
          const uint16_t* pb = b.data<uint16_t>();
          uint16_t* po = out.mutable_data<uint16_t>();
          split_elements(ctx.pool, static_cast<size_t>(out.numel()), sizeof(uint16_t), [&](size_t s, size_t e) {
            loop(*r == Repeat::kA ? pa : pa + s, *r == Repeat::kB ? pb : pb + s, po + s, e - s, *r);
          });
        } else {
          broadcast_binary<T, T, T>(a, b, out, [](T x, T y) { return mul_scalar(x, y); });
        }
      } else {
        broadcast_binary<T, T, T>(a, b, out, [](T x, T y) { return mul_scalar(x, y); });
      }
    });
    ctx.outputs[0] = std::move(out);
  }

 private:
  std::optional<LegacyBroadcast> legacy_;
};

}  // namespace

std::vector<OpDef> mul_ops() {
  const std::vector<DType> v6 =
      join_types({kFloatTypes, {DType::kInt32, DType::kInt64, DType::kUInt32, DType::kUInt64}});
  const std::vector<DType> v13 = join_types({v6, {DType::kBFloat16}});
  const std::vector<DType> v14 = join_types({kFloatTypes, {DType::kBFloat16}, kSignedIntTypes, kUnsignedIntTypes});
  return op_versions({.op_type = "Mul",
                      .inputs = {"T", "T"},
                      .min_inputs = 2,
                      .outputs = {"T"},
                      .make_kernel = make_binary_kernel<MulKernel>,
                      .pointwise = true,
                      .in_place = true},
                     {
                         {.since = 1,
                          .attrs = join_attrs({kLegacyBroadcastAttrs, {{"consumed_inputs", AttrKind::kInts}}}),
                          .constraints = {{"T", kFloatTypes}}},
                         {.since = 6, .attrs = kLegacyBroadcastAttrs, .constraints = {{"T", v6}}},
                         {.since = 7, .constraints = {{"T", v6}}},
                         {.since = 13, .constraints = {{"T", v13}}},
                         {.since = 14, .constraints = {{"T", v14}}},
                     });
}

}  // namespace onnxrun
