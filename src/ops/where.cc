// Where, versions 9 and 16: output = condition ? X : Y with numpy-style broadcasting
// across all three inputs. Selection copies elements, so one loop per element size
// serves every type (bits pass through untouched: NaN payloads, -0.0).
#include "core/error.h"
#include "core/fail.h"
#include "ops/dtype_dispatch.h"
#include "ops/elementwise.h"
#include "ops/op_families.h"
#include "ops/registry.h"

namespace onnxrun {
namespace {

template <typename T>
void select_split(ThreadPool* pool, void (*loop)(const uint8_t*, const T*, const T*, T*, size_t), const Tensor& c,
                  const Tensor& x, const Tensor& y, Tensor& out) {
  const uint8_t* pc = c.data<uint8_t>();
  const T* px = x.data<T>();
  const T* py = y.data<T>();
  T* po = out.mutable_data<T>();
  split_elements(pool, static_cast<size_t>(out.numel()), sizeof(T),
                 [&](size_t b, size_t e) { loop(pc + b, px + b, py + b, po + b, e - b); });
}

// All operands laid out like the output: the vectorized loops (elementwise_paths.h).
// False for an element size they do not have.
bool select_contiguous(ThreadPool* pool, const Tensor& c, const Tensor& x, const Tensor& y, Tensor& out) {
  const ElementwisePath& path = elementwise_active_path();
  switch (dtype_size(x.dtype())) {
    case 2: select_split<uint16_t>(pool, path.where_16, c, x, y, out); return true;
    case 4: select_split<uint32_t>(pool, path.where_32, c, x, y, out); return true;
    case 8: select_split<uint64_t>(pool, path.where_64, c, x, y, out); return true;
    default: return false;
  }
}

class WhereKernel final : public OpKernel {
 public:
  void compute(OpContext& ctx) const override {
    const Tensor& c = ctx.inputs[0];
    const Tensor& x = ctx.inputs[1];
    const Tensor& y = ctx.inputs[2];
    const Shape out_shape = broadcast_shapes({c.shape(), x.shape(), y.shape()});
    Tensor out = reuse_or_allocate(x.dtype(), out_shape, {&x, &y});
    const int64_t n = out.numel();
    if (c.numel() == n && x.numel() == n && y.numel() == n && select_contiguous(ctx.pool, c, x, y, out)) {
      ctx.outputs[0] = std::move(out);
      return;
    }
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
