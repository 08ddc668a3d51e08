// One registration function per op family file; builtin_registry.cc calls them all.
// (Explicit calls, not static initialisers, which a static library would drop.)
#pragma once

namespace onnxrun {

class OpRegistry;

void register_leaky_relu(OpRegistry& r);
void register_constant(OpRegistry& r);
void register_cast(OpRegistry& r);  // Cast and CastLike
void register_less(OpRegistry& r);
void register_mul(OpRegistry& r);
void register_where(OpRegistry& r);

}  // namespace onnxrun
