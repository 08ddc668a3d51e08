#include "ops/op_families.h"
#include "ops/registry.h"

namespace onnxrun {

const OpRegistry& OpRegistry::builtin() {
  static const OpRegistry registry = [] {
    OpRegistry r;
    register_leaky_relu(r);
    return r;
  }();
  return registry;
}

}  // namespace onnxrun
