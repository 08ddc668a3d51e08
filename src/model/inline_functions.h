// Inlining model-local functions (ModelProto.functions) at load. Every node of the main
// graph whose (domain, op_type, overload) names a model function is replaced by the
// function's body:
//  - formal inputs and outputs bind to the call's by position (a missing or empty
//    actual input is an absent optional input; an output the call does not ask for
//    gets a fresh name);
//  - attributes with ref_attr_name take the call's attribute of that name, else the
//    function's default (IR 9+), else are left out, as ONNX specifies;
//  - every other value and node name is made unique (NameScope, prefixed with the call
//    node's name), so bodies never clash with the graph or with other calls;
//  - body nodes resolve against the function's own opset_import;
//  - calls inside bodies are inlined in turn.
// A function that calls itself, directly or through others, is refused; so is nesting
// deeper than kMaxFunctionDepth and an expansion beyond kMaxInlinedNodes nodes (a small
// file can otherwise describe an exponentially large graph). A main-graph attribute with
// ref_attr_name (meaningful only inside a function) is refused.
#pragma once

#include <cstddef>

#include "model/graph.h"

namespace onnxrun {

inline constexpr size_t kMaxFunctionDepth = 64;
inline constexpr size_t kMaxInlinedNodes = size_t{1} << 20;

// Throws Error(kInvalid) for malformed calls or bodies, Error(kSecurity) past the limits.
void inline_functions(Model& m);

}  // namespace onnxrun
