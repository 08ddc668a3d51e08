// Less, versions 1, 7, 9, 13: C = A < B as bool. v1 broadcasts the legacy way
// (attributes `broadcast`, `axis`); v7+ numpy style. 16-bit floats compare as the
// float32 values they denote; NaN compares false, -0.0 < 0.0 is false.
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
uint8_t less_scalar(T a, T b) {
  if constexpr (std::is_same_v<T, Float16>) return float16_to_float(a.bits) < float16_to_float(b.bits);
  else if constexpr (std::is_same_v<T, BFloat16>) return bfloat16_to_float(a.bits) < bfloat16_to_float(b.bits);
  else return a < b;
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
