// `onnx-run verify MODEL VALUES...`: another runtime's dumped values checked node by node
// against the definition. For every node onnx-run runs (after model-local functions are
// inlined) whose inputs and outputs are all in VALUES, the node is computed again on
// exactly the dumped inputs and its outputs compared with the dumped ones, as a run's
// outputs are (suite/compare.h; bit-exact unless the tolerance says otherwise). A node
// that cannot be checked says why: an operator onnx-run does not run, a value VALUES
// lacks, or a value whose type or shape is not the graph's.
//
// Memory: values are read per node (io/value_index.h) and let go after it, so verify holds
// one node's inputs and outputs at a time. An elementwise node (the operator table's
// fact) is computed and compared a block at a time, so beside its mapped input and
// expected output it holds a block, not a third tensor.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/graph.h"
#include "suite/compare.h"
#include "suite/tolerance.h"

namespace onnxrun {

class ValueIndex;

struct VerifyValue {
  std::string name;  // the graph's value name
  std::string file;  // where it was read: "dump/y.pb", "v.npz:y", "(initializer)"
};

struct VerifiedOutput {
  VerifyValue value;
  Comparison comparison;
  // At the worst element of a differing output: each input's element it was computed
  // from, at the input's own index ("x[0,3] = -1.5 (0xbe00)"; a broadcast input "b[3] =
  // ...", a single element without an index).
  std::vector<std::string> worst_inputs;
};

struct NodeCheck {
  size_t index = 0;  // in graph order
  std::string name;  // the node's name ("#k" when the file gives none)
  std::string op_type;
  std::string domain;
  std::string version;  // the operator version that checked it, "v16 (16+)"; empty when none serves it
  bool checked = false;
  std::string reason;               // not checked: why, one line
  bool runnable = false;            // onnx-run runs its operator (whatever VALUES holds)
  bool hides_runnable = false;      // its subgraphs (an If's branches) hold nodes onnx-run runs
  bool reads_values = false;        // it takes inputs (a Constant does not)
  std::vector<VerifyValue> inputs;  // read from VALUES or the model
  std::vector<VerifiedOutput> outputs;
  double seconds = 0;

  // What --require-all wants checked: a node onnx-run runs, or one holding such nodes
  // that verify does not reach, that reads values.
  bool required() const { return (runnable || hides_runnable) && reads_values; }
  bool agrees() const;  // checked, and every output within the tolerance
  bool exact() const;   // checked, and every output bit-identical
  uint64_t max_ulp() const;
  // "exact", "agrees (max ulp 1)", "differs (...)", "not checked: why".
  std::string verdict() const;
};

struct VerifyReport {
  std::string model;
  std::vector<std::string> sources;
  size_t values = 0;             // values the sources hold
  std::vector<NodeCheck> nodes;  // graph order
  std::optional<size_t> first_differing;
  bool require_all = false;

  size_t checked() const;
  // Checked nodes that read values: a Constant reads none, so checking it verifies nothing.
  size_t verified() const;
  size_t differing() const;
  // Nodes onnx-run runs, reading inputs, that were not checked (what --require-all refuses).
  std::vector<size_t> unchecked_runnable() const;
  // Some node that reads values checked, nothing differs, and with require_all nothing runnable is unchecked.
  bool passed() const;
  // Why not, as one line: "node 'lr1' (LeakyRelu) differs: y1: 1 of 60 elements ..., and 1
  // more node differs", or none_checked_summary(); empty when passed.
  std::string failure_summary() const;
  // "no node could be checked: of 2 nodes, 1 of an operator onnx-run does not run, 1 whose
  // values ...; node 'lr' (LeakyRelu): not in VALUES: input 'c'".
  std::string none_checked_summary() const;
};

struct VerifyOptions {
  Tolerance tolerance;  // as compare's: global and per output
  // An output with no tolerance of its own (--atol NAME:V, --rtol NAME:V, --max-ulp NAME:N)
  // is compared bit-exactly: the definition leaves no room. Off when a global tolerance is
  // given, which then applies to every output without one of its own.
  bool exact_by_default = true;
  bool require_all = false;  // unchecked runnable nodes fail the verdict
  // The tolerance output `name` is compared with: its own atol/rtol or max_ulp where given
  // (either wins over a global tolerance of the other kind), else the global one, else exact.
  Tolerance for_output(const std::string& name) const;
};

// What verify would do with each node of `m` (loaded with LoadOptions::keep_unsupported),
// before any value is read: for `info`. Fills index, name, op, version, runnable,
// reads_values, inputs/outputs (names only: the values it needs) and, for a node whose
// operator onnx-run does not run, reason.
std::vector<NodeCheck> plan_verify(const Model& m);

// Throws what load_model and ValueIndex::add throw (kInvalid, kIo, kUnsupported): the
// model or a value file rejected. A value that cannot be read when its node is checked
// throws too, naming the file.
VerifyReport verify_model(const std::string& model, const std::vector<std::string>& sources,
                          const VerifyOptions& options);
// The same on a loaded model and an index.
VerifyReport verify_graph(const Model& m, const ValueIndex& values, const VerifyOptions& options);

}  // namespace onnxrun
