#include "ops/op_families.h"

#include <algorithm>

#include "ops/registry.h"

namespace onnxrun {

std::vector<OpDef> op_versions(const OpDef& common, std::vector<OpDef> rows) {
  for (OpDef& row : rows) {
    if (row.domain.empty()) row.domain = common.domain;
    if (row.op_type.empty()) row.op_type = common.op_type;
    row.attrs.insert(row.attrs.begin(), common.attrs.begin(), common.attrs.end());
    for (const TypeConstraint& c : common.constraints)
      if (!row.constraint(c.name)) row.constraints.push_back(c);
    if (row.inputs.empty()) row.inputs = common.inputs;
    if (row.min_inputs == 0) row.min_inputs = common.min_inputs;
    if (row.outputs.empty()) row.outputs = common.outputs;
    if (!row.make_kernel) row.make_kernel = common.make_kernel;
    if (!row.infer_types) row.infer_types = common.infer_types;
    row.elementwise = row.elementwise || common.elementwise;
    row.pointwise = row.pointwise || common.pointwise || row.elementwise;
    row.in_place = row.in_place || common.in_place;
    row.shaping_inputs = std::min(row.shaping_inputs, common.shaping_inputs);
    row.constant = row.constant || common.constant;
    if (!row.body) row.body = common.body;
    if (row.patterns.empty()) row.patterns = common.patterns;
  }
  return rows;
}

const OpRegistry& OpRegistry::builtin() {
  static const OpRegistry registry = [] {
    std::vector<OpDef> rows;
#define ONNXRUN_ADD_OP_FAMILY(family) \
  for (OpDef & d : family##_ops()) rows.push_back(std::move(d));
    ONNXRUN_OP_FAMILIES(ONNXRUN_ADD_OP_FAMILY)
#undef ONNXRUN_ADD_OP_FAMILY
    return OpRegistry(std::move(rows));
  }();
  return registry;
}

}  // namespace onnxrun
