// One registration function per op family file; builtin_registry.cc calls them all.
// (Explicit calls, not static initialisers, which a static library would drop.)
#pragma once

namespace onnxrun {

class OpRegistry;

void register_leaky_relu(OpRegistry& r);

}  // namespace onnxrun
