// The operator registry: ONE table of (domain, op_type, since..until, attributes,
// type constraints, kernel factory, and the facts others need: elementwise, in place,
// function body). "Which kernel serves opset N" is a lookup here and nowhere else;
// builders never branch on the opset. Knows nothing of protobuf or files.
#pragma once

#include <climits>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/attribute.h"
#include "core/dtype.h"
#include "core/tensor.h"

namespace onnxrun {

class ThreadPool;

// What a kernel gets for one run. Inputs are handed over by value: when the executor
// passes the last reference to a value, inputs[i].can_overwrite() is true and the kernel
// may reuse that buffer for its output.
struct OpContext {
  std::vector<Tensor> inputs;   // absent optional inputs are !valid(); the first min_inputs always valid()
  std::vector<Tensor> outputs;  // filled by the kernel, one per node output
  ThreadPool* pool = nullptr;   // may be null: run on the calling thread
};

// A kernel instance is built once per node (attributes parsed then) and may run many
// times, from one thread at a time.
class OpKernel {
 public:
  virtual ~OpKernel() = default;
  virtual void compute(OpContext& ctx) const = 0;
  // For an op whose row says it is elementwise: y[0..n) from x[0..n), both of element
  // type `dtype`, exactly as compute() would produce them; y may equal x, no other overlap.
  // A fused chain (exec/fused_chain.h) runs its nodes through this, a cache-sized block at a
  // time. Throws Error(kUnsupported) for a type the op has no kernel for; the default
  // throws Error(kInternal) (a row that says elementwise must override it).
  virtual void compute_elements(DType dtype, const void* x, void* y, size_t n) const;
  // For an elementwise kernel: one elementwise kernel that computes next(this(x)) in one
  // pass over registers, with the bits of the two run one after the other; null when the
  // op knows no such kernel (then a fused chain runs the two block by block).
  virtual std::unique_ptr<OpKernel> then(const OpKernel& next) const;
};

struct AttrSpec {
  std::string name;
  AttrKind kind;
};

struct TypeConstraint {
  std::string name;          // "T"
  std::vector<DType> types;  // allowed element types
};

// A function body (what ONNX's schemas hold as a FunctionProto), as plain data: the
// nodes that define an operator version. A value is named by one of the body's formals
// (`inputs`, `outputs`, one per input / output of the operator) or by the output of an
// earlier node. model/ turns a body into Graph nodes (--expand-functions); exec's fused
// kernel computes the same bits.
struct BodyAttr {
  std::string name;  // the body node's attribute ("value_float")
  std::string ref;   // the caller's attribute it takes ("alpha"); empty: always `value`
  Attribute value;   // the literal, or what `ref` takes when the caller does not set it
};

struct BodyNode {
  std::string op_type;  // in the default domain, at the caller's opset
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;  // the first also names the node
  std::vector<BodyAttr> attrs = {};
};

struct FunctionBody {
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
  std::vector<BodyNode> nodes;  // in topological order
};

// A subgraph that computes, bit for bit, what an operator version computes, so that the
// executor may run it by that operator's kernel (model/recognise_functions.h): the
// version's function body, or an idiom exporters write for it. Plain data, matched
// against graphs by model/ and naming no operator outside ops/.
struct PatternNode {
  std::string op_type;              // in the default domain, written with no attributes
  std::vector<std::string> inputs;  // pattern values
  std::string output;
  bool commutative = false;  // its two inputs may come in either order (one product either way)
};

// A pattern value that must be a 0-d constant: an initializer no input can replace, or
// the output of a node whose row says its value is fixed (OpDef::constant). NaN never
// matches.
struct PatternConstant {
  std::string value;
  bool like_input = false;  // of input 0's element type; else float32
  // The caller's float attribute this constant gives, when a float32 holds its value
  // exactly (else the pattern does not match); empty: the constant must equal `equals`.
  std::string attr;
  double equals = 0;
};

struct OpPattern {
  std::string what;                 // "function body", for info and --print-graph
  std::vector<std::string> inputs;  // one per input of the operator
  std::string output;               // the operator's output
  std::vector<PatternConstant> constants;
  std::vector<PatternNode> nodes;  // any order
};

struct OpDef;
// Builds the kernel of one node: `def` is the row the node resolved to.
using KernelFactory = std::function<std::unique_ptr<OpKernel>(const OpDef& def, const AttributeMap& attrs)>;
// Element types of the outputs from those of the inputs (unknown inputs are nullopt),
// for ops whose output type is not simply a constraint bound by an input.
using TypeInference = std::function<std::vector<std::optional<DType>>(
    const OpDef& def, const std::vector<std::optional<DType>>& inputs, const AttributeMap& attrs)>;

inline constexpr int kOpenEnded = INT_MAX;

// One version of one operator: a row of the table, written with designated initializers
// (ops/op_families.h fills in what every version of an operator shares). Everything
// the rest of onnx-run needs to know about an operator is here; nothing outside ops/
// names one.
struct OpDef {
  std::string domain;  // "" for the default ONNX domain
  std::string op_type;
  int since = 0;
  std::vector<AttrSpec> attrs;  // every attribute this version defines
  std::vector<TypeConstraint> constraints;
  // Per formal input / output: the name of its constraint, or a fixed type name via
  // a one-type constraint. Inputs beyond min_inputs are optional.
  std::vector<std::string> inputs;
  size_t min_inputs = 0;
  std::vector<std::string> outputs;
  KernelFactory make_kernel;
  TypeInference infer_types;  // optional
  // One input, one output of its type, and output element i a function of input element
  // i alone, whatever the shape: a chain of such nodes may run block by block.
  bool elementwise = false;
  // Output element i a function of the inputs' elements at i when the inputs have one
  // shape or a single element (so broadcasting only repeats scalars): a graph of such
  // nodes over same-shape inputs may run block by block (exec/block_run.h). Implied by
  // elementwise.
  bool pointwise = false;
  // How many of the inputs, from the first, broadcast into the outputs' shape; those after
  // give only a type (CastLike's second input: its output has its first input's shape).
  size_t shaping_inputs = SIZE_MAX;
  // The kernel may write its output into an input the executor hands over (the input's
  // last use). Without it the executor never hands an input over.
  bool in_place = false;
  std::optional<FunctionBody> body;  // the version's ONNX function body, if it has one
  // Its outputs depend on its attributes alone (it takes no inputs): the loader may
  // compute them to see a constant.
  bool constant = false;
  // Subgraphs equal to this version, bit for bit, in every type it allows (the caller
  // checks the type of input 0 against its constraint): run by its kernel when found.
  std::vector<OpPattern> patterns;
  // Not written in a row: the registry sets it to the next row's since - 1 (inclusive;
  // kOpenEnded for the newest row).
  int until = kOpenEnded;

  const TypeConstraint* constraint(const std::string& name) const;
  std::string version_range() const;  // "v6 (6-15)", "v16 (16+)"
};

class OpRegistry {
 public:
  // The registry with every operator onnx-run implements (ops/op_families.h lists them).
  static const OpRegistry& builtin();

  // Every row of every operator, in any order. Derives each row's until from the next
  // row of its operator. Throws Error(kInternal) on a row without op_type or since, two
  // rows with one since, or a row that writes until.
  explicit OpRegistry(std::vector<OpDef> rows);

  // The version serving `opset` for (domain, op_type), or null.
  const OpDef* find(const std::string& domain, const std::string& op_type, int64_t opset) const;
  // Every implemented version of (domain, op_type), oldest first.
  std::vector<const OpDef*> versions(const std::string& domain, const std::string& op_type) const;
  bool has_domain(const std::string& domain) const;
  std::vector<std::string> domains() const;
  // Every row, ordered by (domain, op_type, since).
  const std::vector<OpDef>& rows() const { return defs_; }

 private:
  std::vector<OpDef> defs_;
};

// The default domain is written "" or "ai.onnx"; both become "".
std::string canonical_domain(const std::string& domain);

// Checks the element types of a node's inputs against `def`. Throws, naming the input,
// its type and the allowed types, Error(kInvalid) for a type ONNX does not allow there
// either (a row's types are ONNX's but for float8, 4-bit, 2-bit, string and complex), and
// Error(kUnsupported) for one of those; Error(kInvalid) when inputs of one constraint
// disagree. Unknown input types are skipped. Allocates nothing unless it throws.
void check_input_types(const OpDef& def, const std::vector<std::optional<DType>>& inputs);

// check_input_types, then the element types of the node's outputs (nullopt where not known).
std::vector<std::optional<DType>> check_and_infer_types(const OpDef& def,
                                                        const std::vector<std::optional<DType>>& inputs,
                                                        const AttributeMap& attrs);

// Checks that every attribute is one the version defines, with the right kind.
void check_attributes(const OpDef& def, const AttributeMap& attrs);

}  // namespace onnxrun
