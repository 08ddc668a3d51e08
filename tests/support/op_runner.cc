#include "support/op_runner.h"

#include "core/error.h"
#include "core/fail.h"
#include "ops/registry.h"

namespace onnxrun::test {

std::vector<Tensor> run_op(const std::string& op_type, int64_t opset, const AttributeMap& attrs,
                           std::vector<Tensor> inputs) {
  const OpDef* def = OpRegistry::builtin().find("", op_type, opset);
  if (!def) fail(ErrorKind::kUnsupported, "no {} for opset {}", op_type, opset);
  check_attributes(*def, attrs);
  std::vector<std::optional<DType>> types;
  for (const Tensor& t : inputs) types.push_back(t.valid() ? std::optional<DType>(t.dtype()) : std::nullopt);
  check_and_infer_types(*def, types, attrs);
  auto kernel = def->make_kernel(*def, attrs);
  OpContext ctx;
  ctx.inputs = std::move(inputs);
  ctx.outputs.resize(def->outputs.size());
  kernel->compute(ctx);
  return ctx.outputs;
}

}  // namespace onnxrun::test
