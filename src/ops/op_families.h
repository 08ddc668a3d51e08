// The list of operator families, and the helper their files write rows with.
//
// An op family file (ops/mul.cc, ...) defines `std::vector<OpDef> <family>_ops()`: one
// row per version of each operator it holds. ONNXRUN_OP_FAMILIES is the one list that
// registers them (builtin_registry.cc); a family missing from it is caught by
// tests/unit/op_table_test.cc, which finds every `.op_type = "..."` row in src/ops/ and
// looks it up in the registry. (Explicit calls, not static initialisers, which a static
// library would drop.)
#pragma once

#include <initializer_list>
#include <vector>

#include "ops/registry.h"

// Adding an operator: its file, one name here, and the file in src/CMakeLists.txt.
#define ONNXRUN_OP_FAMILIES(X)    \
  X(leaky_relu)                   \
  X(constant)                     \
  X(cast) /* Cast and CastLike */ \
  X(less)                         \
  X(mul)                          \
  X(where)

namespace onnxrun {

#define ONNXRUN_DECLARE_OP_FAMILY(family) std::vector<OpDef> family##_ops();
ONNXRUN_OP_FAMILIES(ONNXRUN_DECLARE_OP_FAMILY)
#undef ONNXRUN_DECLARE_OP_FAMILY

// The rows of one operator: each row holds what its version has of its own (since, the
// attributes it defines beyond `common`'s, its type constraints, and any field `common`
// leaves unset); `common` holds what every version shares (op_type, formal inputs and
// outputs, kernel factory, attributes every version defines, elementwise, in_place).
// A row's constraint replaces `common`'s of the same name; a row's flag adds to
// `common`'s. until is never written: the registry derives it.
std::vector<OpDef> op_versions(const OpDef& common, std::vector<OpDef> rows);

// Concatenation of attribute lists, for rows that extend a shared list.
inline std::vector<AttrSpec> join_attrs(std::initializer_list<std::vector<AttrSpec>> lists) {
  std::vector<AttrSpec> out;
  for (const auto& l : lists) out.insert(out.end(), l.begin(), l.end());
  return out;
}

}  // namespace onnxrun
