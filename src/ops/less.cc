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
  if constexpr (std::is_same_v<T, Float16>)
    return float16_to_float(a.bits) < float16_to_float(b.bits);
  else if constexpr (std::is_same_v<T, BFloat16>)
    return bfloat16_to_float(a.bits) < bfloat16_to_float(b.bits);
  else
    return a < b;
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

std::unique_ptr<OpKernel> make_less_numpy(const AttributeMap&) { return std::make_unique<LessKernel>(std::nullopt); }

std::unique_ptr<OpKernel> make_less_legacy(const AttributeMap& attrs) {
  LegacyBroadcast l;
  l.broadcast = attr_int(attrs, "broadcast").value_or(0);
  l.axis = attr_int(attrs, "axis");
  if (l.broadcast != 0 && l.broadcast != 1) fail(ErrorKind::kInvalid, "attribute broadcast must be 0 or 1, got {}", l.broadcast);
  return std::make_unique<LessKernel>(l);
}

OpDef less_def(int since, int until, std::vector<AttrSpec> attrs, std::vector<DType> types, KernelFactory make) {
  OpDef d;
  d.op_type = "Less";
  d.since = since;
  d.until = until;
  d.attrs = std::move(attrs);
  d.constraints = {{"T", std::move(types)}, {"T1", {DType::kBool}}};
  d.inputs = {"T", "T"};
  d.min_inputs = 2;
  d.outputs = {"T1"};
  d.make_kernel = std::move(make);
  return d;
}

}  // namespace

void register_less(OpRegistry& r) {
  const std::vector<DType> v9 = join_types({kFloatTypes, kSignedIntTypes, kUnsignedIntTypes});
  const std::vector<DType> v13 = join_types({v9, {DType::kBFloat16}});
  r.add(less_def(1, 6, {{"broadcast", AttrKind::kInt}, {"axis", AttrKind::kInt}}, kFloatTypes, make_less_legacy));
  r.add(less_def(7, 8, {}, kFloatTypes, make_less_numpy));
  r.add(less_def(9, 12, {}, v9, make_less_numpy));
  r.add(less_def(13, kOpenEnded, {}, v13, make_less_numpy));
}

}  // namespace onnxrun
