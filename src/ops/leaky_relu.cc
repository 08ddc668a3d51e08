// LeakyRelu, versions 1, 6 and 16. All three compute what v16's function body defines,
// Where(X < 0, CastLike(alpha, X) * X, X); they differ only in the attributes they
// accept (v1's legacy consumed_inputs) and in their types (bfloat16 from v16).
#include <algorithm>

#include "core/error.h"
#include "core/fail.h"
#include "core/half.h"
#include "core/thread_pool.h"
#include "ops/dtype_dispatch.h"
#include "ops/leaky_relu_paths.h"
#include "ops/op_families.h"
#include "ops/registry.h"

namespace onnxrun {
namespace {

constexpr float kDefaultAlpha = 0.01f;  // in every version; the kernel and the v16 body read it

// Runs kernel(x, y, n, alpha) in pieces across ctx.pool, pieces 64-byte aligned and
// each worth a thread on this machine (core/thread_pool.h worthwhile_piece). A tensor big
// enough for streaming stores (kLeakyReluStreamBytes) is cut into pieces no smaller than
// that, since the kernels decide to stream by the size of their piece.
template <typename T, typename A>
void split(ThreadPool* pool, size_t n, const T* x, T* y, void (*kernel)(const T*, T*, size_t, A), A alpha) {
  const size_t min_piece =
      n * sizeof(T) >= kLeakyReluStreamBytes ? kLeakyReluStreamBytes / sizeof(T) : worthwhile_piece(pool, n, sizeof(T));
  // One piece: called straight, as the std::function below would hold its captures on
  // the heap (a malloc and a free per run of a small tensor).
  if (n <= min_piece) return kernel(x, y, n, alpha);
  parallel_for(pool, n, min_piece, 64 / sizeof(T), [&](size_t b, size_t e) { kernel(x + b, y + b, e - b, alpha); });
}

// LeakyRelus one after the other (a fused chain, OpKernel::then), alphas[0] first.
// float and double go through every alpha in registers; float16 and bfloat16 round to
// their type after each alpha, so they run alpha by alpha over blocks that stay in L1.
class LeakyReluChainKernel final : public OpKernel {
 public:
  explicit LeakyReluChainKernel(std::vector<float> alphas) : alphas_(std::move(alphas)) {
    for (float a : alphas_) doubles_.push_back(a);  // exact widening, as each kernel does
  }
  const std::vector<float>& alphas() const { return alphas_; }

  void compute(OpContext& ctx) const override {
    Tensor& x = ctx.inputs[0];
    const DType dtype = x.dtype();
    const void* src = x.raw();
    const auto n = static_cast<size_t>(x.numel());
    Tensor y = overwrite_or_allocate(x);
    compute_elements(dtype, src, y.mutable_raw(), n);
    ctx.outputs[0] = std::move(y);
  }

  void compute_elements(DType dtype, const void* x, void* y, size_t n) const override {
    switch (dtype) {
      case DType::kFloat:
        leaky_relu_active_path().chain_f32(static_cast<const float*>(x), static_cast<float*>(y), n, alphas_.data(),
                                           alphas_.size());
        return;
      case DType::kDouble:
        leaky_relu_active_path().chain_f64(static_cast<const double*>(x), static_cast<double*>(y), n, doubles_.data(),
                                           doubles_.size());
        return;
      case DType::kFloat16:
      case DType::kBFloat16: {
        const LeakyReluPath& path = leaky_relu_active_path();
        const bool f16 = dtype == DType::kFloat16;
        const auto* src = static_cast<const uint16_t*>(x);
        auto* dst = static_cast<uint16_t*>(y);
        constexpr size_t kBlock = 4096;  // 8 KiB: in L1 from the first alpha to the last
        for (size_t i = 0; i < n; i += kBlock) {
          const size_t len = std::min(kBlock, n - i);
          for (size_t k = 0; k < alphas_.size(); ++k) {
            const uint16_t bits = f16 ? float_to_float16(alphas_[k]) : float_to_bfloat16(alphas_[k]);
            (f16 ? path.f16 : path.bf16)(k == 0 ? src + i : dst + i, dst + i, len, bits);
          }
        }
        return;
      }
      default:
        fail_unsupported(Cause{Cause::Kind::kType, "LeakyRelu", "", 0, std::string(dtype_name(dtype)), ""},
                         "LeakyRelu has no kernel for {}", dtype_name(dtype));
    }
  }

  std::unique_ptr<OpKernel> then(const OpKernel& next) const override;

 private:
  std::vector<float> alphas_;
  std::vector<double> doubles_;
};

class LeakyReluKernel final : public OpKernel {
 public:
  explicit LeakyReluKernel(float alpha) : alpha_(alpha) {}
  float alpha() const { return alpha_; }

  std::unique_ptr<OpKernel> then(const OpKernel& next) const override {
    return LeakyReluChainKernel({alpha_}).then(next);
  }

  void compute(OpContext& ctx) const override {
    Tensor& x = ctx.inputs[0];
    const DType dtype = x.dtype();
    const void* src = x.raw();
    const auto n = static_cast<size_t>(x.numel());
    // In place when the executor handed over the last reference to X.
    Tensor y = overwrite_or_allocate(x);
    run(dtype, src, y.mutable_raw(), n, ctx.pool);
    ctx.outputs[0] = std::move(y);
  }

  void compute_elements(DType dtype, const void* x, void* y, size_t n) const override { run(dtype, x, y, n, nullptr); }

 private:
  void run(DType dtype, const void* x, void* y, size_t n, ThreadPool* pool) const {
    const LeakyReluPath& path = leaky_relu_active_path();
    switch (dtype) {
      case DType::kFloat: split(pool, n, static_cast<const float*>(x), static_cast<float*>(y), path.f32, alpha_); break;
      case DType::kDouble:
        // Exact widening: alpha=0.1 multiplies by (double)0.1f, as CastLike does.
        split(pool, n, static_cast<const double*>(x), static_cast<double*>(y), path.f64, static_cast<double>(alpha_));
        break;
      case DType::kFloat16:
        split(pool, n, static_cast<const uint16_t*>(x), static_cast<uint16_t*>(y), path.f16, float_to_float16(alpha_));
        break;
      case DType::kBFloat16:
        split(pool, n, static_cast<const uint16_t*>(x), static_cast<uint16_t*>(y), path.bf16,
              float_to_bfloat16(alpha_));
        break;
      default:
        fail_unsupported(Cause{Cause::Kind::kType, "LeakyRelu", "", 0, std::string(dtype_name(dtype)), ""},
                         "LeakyRelu has no kernel for {}", dtype_name(dtype));
    }
  }

  float alpha_;
};

std::unique_ptr<OpKernel> LeakyReluChainKernel::then(const OpKernel& next) const {
  std::vector<float> alphas = alphas_;
  if (const auto* one = dynamic_cast<const LeakyReluKernel*>(&next)) alphas.push_back(one->alpha());
  else if (const auto* many = dynamic_cast<const LeakyReluChainKernel*>(&next))
    alphas.insert(alphas.end(), many->alphas().begin(), many->alphas().end());
  else return nullptr;
  return std::make_unique<LeakyReluChainKernel>(std::move(alphas));
}

std::unique_ptr<OpKernel> make_leaky_relu(const OpDef&, const AttributeMap& attrs) {
  return std::make_unique<LeakyReluKernel>(attr_float(attrs, "alpha").value_or(kDefaultAlpha));
}

Attribute scalar_float_tensor_attr(float v) {
  Tensor t(DType::kFloat, {});
  *t.mutable_data<float>() = v;
  return tensor_attr(std::move(t));
}

// LeakyRelu-16's body, as ONNX's schema defines it (spec/README.md).
FunctionBody leaky_relu_16_body() {
  return {.inputs = {"X"},
          .outputs = {"Y"},
          .nodes = {
              {.op_type = "Constant",
               .outputs = {"Alpha"},
               .attrs = {{.name = "value_float", .ref = "alpha", .value = float_attr(kDefaultAlpha)}}},
              {.op_type = "CastLike", .inputs = {"Alpha", "X"}, .outputs = {"AlphaCast"}},
              {.op_type = "Constant",
               .outputs = {"Zero"},
               .attrs = {{.name = "value", .value = scalar_float_tensor_attr(0.0f)}}},
              {.op_type = "CastLike", .inputs = {"Zero", "X"}, .outputs = {"ZeroCast"}},
              {.op_type = "Less", .inputs = {"X", "ZeroCast"}, .outputs = {"XLessThanZero"}},
              {.op_type = "Mul", .inputs = {"AlphaCast", "X"}, .outputs = {"AlphaMulX"}},
              {.op_type = "Where", .inputs = {"XLessThanZero", "AlphaMulX", "X"}, .outputs = {"Y"}},
          }};
}

// The subgraphs that compute LeakyRelu-16 bit for bit, run by its kernel when found.
//  - Its function body (as inlined by onnx.inliner, written out by ONNX's *_expanded tests
//    and by --expand-functions): alpha and zero as float32 constants, CastLike to X's type.
//    The kernel converts alpha exactly as CastLike does, and is tested against the body
//    for every 16-bit pattern (tests/unit/model/leaky_relu_expanded_test.cc).
//  - The exporters' idiom Where(X < 0, X * a, X), with a and 0 constants of X's type:
//    a float32 alpha equal to a converts back to a exactly, so the kernel multiplies by
//    a, rounding once in X's type as Mul does; X < -0.0 is X < 0.0.
std::vector<OpPattern> leaky_relu_16_patterns() {
  return {
      {.what = "function body",
       .inputs = {"X"},
       .output = "Y",
       .constants = {{.value = "Alpha", .attr = "alpha"}, {.value = "Zero", .equals = 0.0}},
       .nodes = {{.op_type = "CastLike", .inputs = {"Alpha", "X"}, .output = "AlphaCast"},
                 {.op_type = "CastLike", .inputs = {"Zero", "X"}, .output = "ZeroCast"},
                 {.op_type = "Less", .inputs = {"X", "ZeroCast"}, .output = "XLessThanZero"},
                 {.op_type = "Mul", .inputs = {"AlphaCast", "X"}, .output = "AlphaMulX", .commutative = true},
                 {.op_type = "Where", .inputs = {"XLessThanZero", "AlphaMulX", "X"}, .output = "Y"}}},
      {.what = "Where(X < 0, X * alpha, X)",
       .inputs = {"X"},
       .output = "Y",
       .constants = {{.value = "Alpha", .like_input = true, .attr = "alpha"},
                     {.value = "Zero", .like_input = true, .equals = 0.0}},
       .nodes = {{.op_type = "Less", .inputs = {"X", "Zero"}, .output = "XLessThanZero"},
                 {.op_type = "Mul", .inputs = {"X", "Alpha"}, .output = "AlphaMulX", .commutative = true},
                 {.op_type = "Where", .inputs = {"XLessThanZero", "AlphaMulX", "X"}, .output = "Y"}}},
  };
}

}  // namespace

std::vector<OpDef> leaky_relu_ops() {
  const std::vector<DType> floats = {DType::kFloat16, DType::kFloat, DType::kDouble};
  return op_versions({.op_type = "LeakyRelu",
                      .attrs = {{"alpha", AttrKind::kFloat}},
                      .inputs = {"T"},
                      .min_inputs = 1,
                      .outputs = {"T"},
                      .make_kernel = make_leaky_relu,
                      .elementwise = true,
                      .in_place = true},
                     {
                         {.since = 1, .attrs = {{"consumed_inputs", AttrKind::kInts}}, .constraints = {{"T", floats}}},
                         {.since = 6, .constraints = {{"T", floats}}},
                         {.since = 16,
                          .constraints = {{"T", join_types({floats, {DType::kBFloat16}})}},
                          .body = leaky_relu_16_body(),
                          .patterns = leaky_relu_16_patterns()},
                     });
}

}  // namespace onnxrun
