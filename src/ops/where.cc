// Where, versions 9 and 16: output = condition ? X : Y with numpy-style broadcasting
// across all three inputs. Selection copies elements, so one loop per element size
// serves every type (bits pass through untouched: NaN payloads, -0.0).
#include "core/error.h"
#include "ops/dtype_dispatch.h"
#include "ops/elementwise.h"
#include "ops/op_families.h"
#include "ops/registry.h"

namespace onnxrun {
namespace {

class WhereKernel final : public OpKernel {
 public:
  void compute(OpContext& ctx) const override {
    const Tensor& c = ctx.inputs[0];
    const Tensor& x = ctx.inputs[1];
    const Tensor& y = ctx.inputs[2];
    const Shape out_shape = broadcast_shapes({c.shape(), x.shape(), y.shape()});
    Tensor out = reuse_or_allocate(x.dtype(), out_shape, {&x, &y});
    switch (dtype_size(x.dtype())) {
      case 1: broadcast_select<uint8_t>(c, x, y, out); break;
      case 2: broadcast_select<uint16_t>(c, x, y, out); break;
      case 4: broadcast_select<uint32_t>(c, x, y, out); break;
      case 8: broadcast_select<uint64_t>(c, x, y, out); break;
      default:
        fail_unsupported(Cause{Cause::Kind::kType, "Where", "", 0, std::string(dtype_name(x.dtype())), ""},
                         "Where has no kernel for {}", dtype_name(x.dtype()));
    }
    ctx.outputs[0] = std::move(out);
  }
};

}  // namespace

std::vector<OpDef> where_ops() {
  const std::vector<DType> v9 = join_types({kFloatTypes, kSignedIntTypes, kUnsignedIntTypes, {DType::kBool}});
  return op_versions({.op_type = "Where",
                      .constraints = {{"B", {DType::kBool}}},
                      .inputs = {"B", "T", "T"},
                      .min_inputs = 3,
                      .outputs = {"T"},
                      .make_kernel = [](const OpDef&, const AttributeMap&) { return std::make_unique<WhereKernel>(); },
                      .pointwise = true,
                      .in_place = true},
                     {
                         {.since = 9, .constraints = {{"T", v9}}},
                         {.since = 16, .constraints = {{"T", join_types({v9, {DType::kBFloat16}})}}},
                     });
}

}  // namespace onnxrun
