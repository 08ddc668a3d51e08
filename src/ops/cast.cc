// Cast (versions 1, 6, 9, 13, 19, 21, 23, 24, 25) and CastLike (15, 19, 21, 23, 24, 25):
// one family, since CastLike converts exactly as Cast does (cast_kernels.h), taking the
// target type from its second input instead of the `to` attribute. Cast-1 names the
// type as a string ("FLOAT"), later versions by its TensorProto code. `saturate` (v19+)
// and `round_mode` (v24+) only affect float8 targets, which onnx-run does not implement:
// they are accepted and have no effect.
#include <algorithm>
#include <cctype>

#include "core/error.h"
#include "core/fail.h"
#include "ops/cast_kernels.h"
#include "ops/dtype_dispatch.h"
#include "ops/elementwise.h"
#include "ops/op_families.h"
#include "ops/registry.h"

namespace onnxrun {
namespace {

// Every type the two ops convert between in onnx-run (bfloat16 from Cast-13/CastLike-15).
std::vector<DType> cast_types(bool with_bfloat16) {
  std::vector<DType> t = join_types({kFloatTypes, kSignedIntTypes, kUnsignedIntTypes, {DType::kBool}});
  if (with_bfloat16) t.push_back(DType::kBFloat16);
  return t;
}

Tensor convert(const Tensor& in, DType to, ThreadPool* pool) {
  if (in.dtype() == to) return in;  // nothing to do; bits (NaN payloads) kept
  Tensor out(to, in.shape());
  const size_t n = static_cast<size_t>(in.numel());
  const ElementwisePath& path = elementwise_active_path();
  // float <-> double, vectorized: widening is exact, narrowing one rounding to nearest.
  if (in.dtype() == DType::kFloat && to == DType::kDouble) {
    const float* src = in.data<float>();
    double* dst = out.mutable_data<double>();
    split_elements(pool, n, sizeof(double), [&](size_t b, size_t e) { path.cast_f32_f64(src + b, dst + b, e - b); });
  } else if (in.dtype() == DType::kDouble && to == DType::kFloat) {
    const double* src = in.data<double>();
    float* dst = out.mutable_data<float>();
    split_elements(pool, n, sizeof(double), [&](size_t b, size_t e) { path.cast_f64_f32(src + b, dst + b, e - b); });
  } else {
    cast_elements(in, out);
  }
  return out;
}

class CastLikeKernel final : public OpKernel {
 public:
  void compute(OpContext& ctx) const override {
    ctx.outputs[0] = convert(ctx.inputs[0], ctx.inputs[1].dtype(), ctx.pool);
  }
};

class CastKernel final : public OpKernel {
 public:
  explicit CastKernel(DType to) : to_(to) {}
  void compute(OpContext& ctx) const override { ctx.outputs[0] = convert(ctx.inputs[0], to_, ctx.pool); }

 private:
  DType to_;
};

// The target type named by Cast's `to`: a TensorProto code, or for Cast-1 its name.
DType cast_target(const AttributeMap& attrs, const std::vector<DType>& allowed) {
  auto it = attrs.find("to");
  if (it == attrs.end()) fail(ErrorKind::kInvalid, "Cast needs the attribute 'to'");
  const Attribute& a = it->second;
  std::optional<DType> t;
  std::string shown;
  if (a.kind == AttrKind::kString) {
    std::string lower;
    for (char c : a.s) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    t = dtype_from_name(lower);
    shown = "'" + a.s + "'";
  } else if (a.kind == AttrKind::kInt) {
    t = a.i >= INT32_MIN && a.i <= INT32_MAX ? dtype_from_onnx(static_cast<int32_t>(a.i)) : std::nullopt;
    shown = std::to_string(a.i);
  } else {
    fail(ErrorKind::kInvalid, "attribute 'to' must be an int, got {}", attr_kind_name(a.kind));
  }
  if (!t) fail(ErrorKind::kInvalid, "attribute 'to' = {} names no ONNX element type", shown);
  if (std::find(allowed.begin(), allowed.end(), *t) == allowed.end()) {
    if (dtype_out_of_scope(*t))
      fail_unsupported(
          Cause{Cause::Kind::kType, "", "", 0, std::string(dtype_name(*t)), ""},
          "cast to {} is not implemented (onnx-run has no float8, 4-bit, 2-bit, string or complex tensors)",
          dtype_name(*t));
    fail_unsupported(Cause{Cause::Kind::kType, "", "", 0, std::string(dtype_name(*t)), ""},
                     "cast to {} is not allowed by this version", dtype_name(*t));
  }
  return *t;
}

// The types a row allows as its target (constraint T2).
const std::vector<DType>& targets(const OpDef& def) { return def.constraint("T2")->types; }

}  // namespace

std::vector<OpDef> cast_ops() {
  const AttrSpec to_int{"to", AttrKind::kInt};
  const AttrSpec saturate{"saturate", AttrKind::kInt};
  const AttrSpec round_mode{"round_mode", AttrKind::kString};
  // Every version converts between all of its types (T1 to T2): bfloat16 from Cast-13.
  const std::vector<TypeConstraint> old_types = {{"T1", cast_types(false)}, {"T2", cast_types(false)}};
  const std::vector<TypeConstraint> types = {{"T1", cast_types(true)}, {"T2", cast_types(true)}};
  std::vector<OpDef> rows = op_versions(
      {.op_type = "Cast",
       .inputs = {"T1"},
       .min_inputs = 1,
       .outputs = {"T2"},
       .make_kernel = [](const OpDef& d,
                         const AttributeMap& a) { return std::make_unique<CastKernel>(cast_target(a, targets(d))); },
       .infer_types =
           [](const OpDef& d, const std::vector<std::optional<DType>>&, const AttributeMap& a) {
             return std::vector<std::optional<DType>>{cast_target(a, targets(d))};
           },
       .pointwise = true},
      {
          {.since = 1, .attrs = {{"to", AttrKind::kString}}, .constraints = old_types},
          {.since = 6, .attrs = {to_int}, .constraints = old_types},
          {.since = 9, .attrs = {to_int}, .constraints = old_types},
          {.since = 13, .attrs = {to_int}, .constraints = types},
          {.since = 19, .attrs = {to_int, saturate}, .constraints = types},
          {.since = 21, .attrs = {to_int, saturate}, .constraints = types},
          {.since = 23, .attrs = {to_int, saturate}, .constraints = types},
          {.since = 24, .attrs = {to_int, saturate, round_mode}, .constraints = types},
          {.since = 25, .attrs = {to_int, saturate, round_mode}, .constraints = types},
      });
  std::vector<OpDef> cast_like =
      op_versions({.op_type = "CastLike",
                   .constraints = types,
                   .inputs = {"T1", "T2"},
                   .min_inputs = 2,
                   .outputs = {"T2"},
                   .make_kernel = [](const OpDef&, const AttributeMap&) { return std::make_unique<CastLikeKernel>(); },
                   .pointwise = true,
                   .shaping_inputs = 1},
                  {
                      {.since = 15},
                      {.since = 19, .attrs = {saturate}},
                      {.since = 21, .attrs = {saturate}},
                      {.since = 23, .attrs = {saturate}},
                      {.since = 24, .attrs = {saturate, round_mode}},
                      {.since = 25, .attrs = {saturate, round_mode}},
                  });
  rows.insert(rows.end(), cast_like.begin(), cast_like.end());
  return rows;
}

}  // namespace onnxrun
