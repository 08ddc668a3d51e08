#include "ops/op_families.h"
#include "ops/registry.h"

namespace onnxrun {

const OpRegistry& OpRegistry::builtin() {
  static const OpRegistry registry = [] {
    OpRegistry r;
    register_leaky_relu(r);
    register_constant(r);
    register_cast(r);
    register_less(r);
    register_mul(r);
    register_where(r);
    return r;
  }();
  return registry;
}

}  // namespace onnxrun
