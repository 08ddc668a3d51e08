// Mul, versions 1, 6, 7, 13, 14. v1 and v6 broadcast the legacy way (attributes
// `broadcast`, `axis`; v1 also the no-op `consumed_inputs`); v7+ numpy style.
// Floats: one correctly rounded product in the tensor's type (16-bit floats computed in
// float32, where one rounding is exact, see mul_scalar). Integers wrap as two's
// complement: the product is formed in unsigned arithmetic, where overflow is defined,
// and narrowed.
#include <type_traits>

#include "core/error.h"
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
