// Cast (versions 1, 6, 9, 13, 19, 21, 23, 24, 25) and CastLike (15, 19, 21, 23, 24, 25):
// one family, since CastLike converts exactly as Cast does (cast_kernels.h), taking the
// target type from its second input instead of the `to` attribute. Cast-1 names the
// type as a string ("FLOAT"), later versions by its TensorProto code. `saturate` (v19+)
// and `round_mode` (v24+) only affect float8 targets, which onnx-run does not implement:
// they are accepted and have no effect.
#include <algorithm>
#include <cctype>

#include "core/error.h"
#include "ops/cast_kernels.h"
#include "ops/dtype_dispatch.h"
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

Tensor convert(const Tensor& in, DType to) {
  if (in.dtype() == to) return in;  // nothing to do; bits (NaN payloads) kept
  Tensor out(to, in.shape());
  cast_elements(in, out);
  return out;
}

class CastLikeKernel final : public OpKernel {
 public:
  void compute(OpContext& ctx) const override { ctx.outputs[0] = convert(ctx.inputs[0], ctx.inputs[1].dtype()); }
};

class CastKernel final : public OpKernel {
 public:
  explicit CastKernel(DType to) : to_(to) {}
  void compute(OpContext& ctx) const override { ctx.outputs[0] = convert(ctx.inputs[0], to_); }

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
      fail_unsupported(Cause{Cause::Kind::kType, "", "", 0, std::string(dtype_name(*t)), ""},
                       "cast to {} is not implemented (onnx-run has no float8, 4-bit, 2-bit, string or complex tensors)",
                       dtype_name(*t));
    fail_unsupported(Cause{Cause::Kind::kType, "", "", 0, std::string(dtype_name(*t)), ""},
                     "cast to {} is not allowed by this version", dtype_name(*t));
  }
  return *t;
}

OpDef cast_def(int since, int until, std::vector<AttrSpec> attrs, bool bf16) {
  OpDef d;
  d.op_type = "Cast";
  d.since = since;
  d.until = until;
  d.attrs = std::move(attrs);
  const std::vector<DType> types = cast_types(bf16);
  d.constraints = {{"T1", types}, {"T2", types}};
  d.inputs = {"T1"};
  d.min_inputs = 1;
  d.outputs = {"T2"};
  d.make_kernel = [types](const AttributeMap& a) { return std::make_unique<CastKernel>(cast_target(a, types)); };
  d.infer_types = [types](const std::vector<std::optional<DType>>&, const AttributeMap& a) {
    return std::vector<std::optional<DType>>{cast_target(a, types)};
  };
  return d;
}

OpDef cast_like_def(int since, int until, std::vector<AttrSpec> attrs) {
  OpDef d;
  d.op_type = "CastLike";
  d.since = since;
  d.until = until;
  d.attrs = std::move(attrs);
  const std::vector<DType> types = cast_types(true);
  d.constraints = {{"T1", types}, {"T2", types}};
  d.inputs = {"T1", "T2"};
  d.min_inputs = 2;
  d.outputs = {"T2"};
  d.make_kernel = [](const AttributeMap&) { return std::make_unique<CastLikeKernel>(); };
  return d;
}

}  // namespace

void register_cast(OpRegistry& r) {
  const AttrSpec to_int{"to", AttrKind::kInt};
  const AttrSpec saturate{"saturate", AttrKind::kInt};
  const AttrSpec round_mode{"round_mode", AttrKind::kString};
  r.add(cast_def(1, 5, {{"to", AttrKind::kString}}, false));
  r.add(cast_def(6, 8, {to_int}, false));
  r.add(cast_def(9, 12, {to_int}, false));
  r.add(cast_def(13, 18, {to_int}, true));
  r.add(cast_def(19, 20, {to_int, saturate}, true));
  r.add(cast_def(21, 22, {to_int, saturate}, true));
  r.add(cast_def(23, 23, {to_int, saturate}, true));
  r.add(cast_def(24, 24, {to_int, saturate, round_mode}, true));
  r.add(cast_def(25, kOpenEnded, {to_int, saturate, round_mode}, true));

  r.add(cast_like_def(15, 18, {}));
  r.add(cast_like_def(19, 20, {saturate}));
  r.add(cast_like_def(21, 22, {saturate}));
  r.add(cast_like_def(23, 23, {saturate}));
  r.add(cast_like_def(24, 24, {saturate, round_mode}));
  r.add(cast_like_def(25, kOpenEnded, {saturate, round_mode}));
}

}  // namespace onnxrun
