#include "suite/verify.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <set>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/element.h"
#include "core/error.h"
#include "core/fail.h"
#include "io/tensor_text.h"
#include "io/value_index.h"
#include "model/describe.h"
#include "model/load.h"
#include "ops/broadcast.h"
#include "ops/elementwise.h"
#include "ops/registry.h"
#include "suite/ulp.h"

namespace onnxrun {
namespace {

// Elements per block of an elementwise node: a few hundred KiB, well inside the caches.
constexpr int64_t kBlockElements = 64 * 1024;

// A node that cannot be checked: why, as the report says it.
struct NotChecked {
  std::string reason;
};

std::string operator_gap(const Node& n) {
  const std::string why = node_problem_reason(n);
  if (why == "operator not implemented")
    return fmt::format("onnx-run does not run {} ({})", n.op_type, domain_label(n.domain));
  return "onnx-run cannot run it: " + why;
}

// What the graph says of a value's type and shape: declared inputs and outputs,
// initializers, the element types the operator table infers from them, and value_info's.
struct GraphTypes {
  std::map<std::string, DType> dtype;
  std::map<std::string, const ValueInfo*> declared;
  ModelValueNames names;  // every value of the graph (ValueIndex::find)
};

GraphTypes graph_types(const Graph& g) {
  GraphTypes t;
  for (const std::vector<ValueInfo>* list : {&g.inputs, &g.outputs})
    for (const ValueInfo& v : *list) {
      t.declared.emplace(v.name, &v);
      if (v.dtype) t.dtype.emplace(v.name, *v.dtype);
    }
  for (const auto& [name, tensor] : g.initializers) t.dtype.emplace(name, tensor.dtype());
  // value_info's element types, for the values no operator here types: those made by
  // nodes onnx-run does not run (x -> Relu -> s). What the operators make of the declared
  // types wins over it, and its shapes are not held to: exporters leave stale ones ([1,4]
  // for a dynamic batch) that the run itself ignores.
  std::map<std::string, DType> noted;
  for (const ValueInfo& v : g.value_info)
    if (v.dtype) noted.emplace(v.name, *v.dtype);
  auto type_of = [&](const std::string& name) -> std::optional<DType> {
    if (const auto it = t.dtype.find(name); it != t.dtype.end()) return it->second;
    if (const auto it = noted.find(name); it != noted.end()) return it->second;
    return std::nullopt;
  };
  // Through the nodes in order, what each operator makes of its inputs' types: a value's
  // type must not depend on which values before it were dumped (a float32 dump of a
  // float16 chain was checked in float32 past a node left unchecked).
  for (const Node& n : g.nodes) {
    std::vector<std::optional<DType>> in;
    for (const std::string& name : n.inputs) {
      const std::optional<DType> type = name.empty() ? std::nullopt : type_of(name);
      if (!name.empty() && !type) break;
      in.push_back(type);
    }
    if (!n.op || in.size() != n.inputs.size()) continue;
    try {
      const std::vector<std::optional<DType>> out = check_and_infer_types(*n.op, in, n.attrs);
      for (size_t j = 0; j < n.outputs.size() && j < out.size(); ++j)
        if (out[j] && !n.outputs[j].empty()) t.dtype.emplace(n.outputs[j], *out[j]);
    } catch (const Error&) {  // the node is not checked, and says why when it is reached
    }
  }
  t.dtype.merge(noted);  // what is left of value_info: no operator here typed it
  // The values of the graph itself: a value_info entry no node uses names none.
  for (const auto& [name, v] : t.declared) t.names.insert(name);
  for (const auto& [name, tensor] : g.initializers) t.names.insert(name);
  for (const Node& n : g.nodes)
    for (const std::vector<std::string>* list : {&n.inputs, &n.outputs})
      for (const std::string& name : *list) t.names.insert(name);
  return t;
}

std::string shape_text(const Shape& s) { return shape_to_string(s); }

// Throws NotChecked when `t` is not of the type or shape the graph gives `name`.
void check_against_graph(const GraphTypes& types, const std::string& role, const std::string& name,
                         const std::string& file, const Tensor& t) {
  if (const auto it = types.dtype.find(name); it != types.dtype.end() && it->second != t.dtype())
    throw NotChecked{fmt::format("{} '{}' is {} in {}; the graph's is {}", role, name, dtype_name(t.dtype()), file,
                                 dtype_name(it->second))};
  const auto it = types.declared.find(name);
  if (it != types.declared.end() && !shape_fits(*it->second, t.shape()))
    throw NotChecked{fmt::format("{} '{}' has shape {} in {}; the graph declares {}", role, name, shape_text(t.shape()),
                                 file, describe(*it->second))};
}

// The value as the graph types it (numpy has no bfloat16: its uint16 stands for it).
Tensor typed(const ResultTensor& v, const GraphTypes& types, const std::string& name) {
  const auto it = types.dtype.find(name);
  try {
    return v.as_declared(it == types.dtype.end() ? std::nullopt : std::optional<DType>(it->second));
  } catch (const Error& e) {
    // A value of a type onnx-run reads nowhere (io/result_files.h): its node is not checked.
    if (e.kind() != ErrorKind::kUnsupported) throw;
    throw NotChecked{e.what()};
  }
}

// The shape node `n` broadcasts input `k` with: its own, or under a binary op's legacy
// rule (Mul-6's `broadcast` and `axis`) the view legacy_b_shape gives its second input;
// nullopt when the rule refuses the pair.
std::optional<Shape> broadcast_view(const Node& n, const std::vector<Tensor>& inputs, size_t k) {
  const std::optional<LegacyBroadcast> legacy = binary_broadcast_rule(*n.op, n.attrs);
  if (!legacy || k != 1) return inputs[k].shape();
  try {
    return legacy_b_shape(inputs[0].shape(), inputs[1].shape(), legacy->broadcast, legacy->axis);
  } catch (const Error&) {
    return std::nullopt;
  }
}

// `inputs` one per node input (absent optional ones invalid): each input's element that
// the output's worst element (of an output of shape `out`) was computed from, broadcast
// inputs included, at its own index (none for a single element).
std::vector<std::string> worst_inputs(const Comparison& c, const Node& n, const std::vector<Tensor>& inputs,
                                      const Shape& out) {
  std::vector<std::string> lines;
  if (c.worst_index < 0) return lines;
  for (size_t k = 0; k < inputs.size(); ++k) {
    const Tensor& t = inputs[k];
    if (!t.valid()) continue;
    const std::optional<Shape> view = broadcast_view(n, inputs, k);
    const int64_t at = view ? broadcast_source_index(out, c.worst_index, *view) : -1;
    if (at < 0) continue;
    const std::string bits = element_bits(t, at);
    lines.push_back(fmt::format("{}{} = {}{}", n.inputs[k], t.numel() == 1 ? "" : position_of(t.shape(), at),
                                format_element_shortest(t, at), bits.empty() ? "" : " (" + bits + ")"));
  }
  return lines;
}

// An elementwise node a block at a time: the dumped input and output stay where they lie
// (mapped), onnx-run's output exists one block at a time. onnx-run's value is the
// definition ("expected"), the other runtime's what is examined ("got"), as in every
// other comparison: relative errors and the tolerances that would pass are measured
// against onnx-run's value. REQUIRES: dumped has the dtype and shape of `in`.
Comparison compare_by_blocks(const OpKernel& kernel, const Tensor& in, const Tensor& dumped, const Tolerance& tol) {
  ComparisonBuilder builder(in.dtype(), in.shape(), dumped.dtype(), dumped.shape(), tol);
  const size_t size = dtype_size(in.dtype());
  const auto* x = static_cast<const std::byte*>(in.numel() ? in.raw() : nullptr);
  const auto* y = static_cast<const std::byte*>(dumped.numel() ? dumped.raw() : nullptr);
  // Blocks computed again for each pass the medians of the errors want.
  return builder.finish_in_passes([&](int) {
    for (int64_t begin = 0; begin < in.numel(); begin += kBlockElements) {
      const int64_t n = std::min(kBlockElements, in.numel() - begin);
      const size_t offset = static_cast<size_t>(begin) * size, bytes = static_cast<size_t>(n) * size;
      Tensor block(in.dtype(), Shape{n});
      kernel.compute_elements(in.dtype(), x + offset, block.mutable_raw(), static_cast<size_t>(n));
      // The dumped tensor's elements of this block, as a view (read through unaligned loads).
      builder.add(begin, block, Tensor(dumped.dtype(), Shape{n}, Buffer::borrow(y + offset, bytes, nullptr, false)));
    }
  });
}

// A call of one of the model's own functions left whole (nested too deep to inline, or
// recursive: the loader warns). What it wraps would run, had it been inlined: it counts
// as a node onnx-run runs for --require-all, not as an operator it lacks.
bool uninlined_call(const Model& m, const Node& n) {
  return std::any_of(m.functions.begin(), m.functions.end(),
                     [&](const Function& f) { return f.domain == n.domain && f.name == n.op_type; });
}

// Fills c.inputs and c.outputs (names) and the facts that need no value.
NodeCheck plan_node(const Model& m, const Node& n, size_t index) {
  NodeCheck c;
  c.index = index;
  c.name = n.name;
  c.op_type = n.op_type;
  c.domain = n.domain;
  const bool uninlined = !n.op && uninlined_call(m, n);
  c.runnable = n.op != nullptr || uninlined;
  c.reads_values = false;
  for (const std::string& in : n.inputs)
    if (!in.empty()) {
      c.inputs.push_back({in, ""});
      c.reads_values = true;
    }
  for (const std::string& out : n.outputs)
    if (!out.empty()) c.outputs.push_back({{out, ""}, {}, {}});
  if (n.op) c.version = n.op->version_range();
  else if (uninlined)
    c.reason =
        fmt::format("a call of model function '{}.{}' that was not inlined (see the warning)", n.domain, n.op_type);
  else c.reason = operator_gap(n);
  // A LeakyRelu in an If's branch is one nothing here checks: --require-all counts it.
  size_t inner = 0;
  std::set<std::string> ops;
  for (const auto& [domain, op_type] : n.subgraph_ops)
    if (!OpRegistry::builtin().versions(domain, op_type).empty()) ++inner, ops.insert(op_type);
  if (inner) {
    c.hides_runnable = true;
    c.reason += fmt::format("; its subgraphs hold {} node{} onnx-run runs ({}), which verify does not reach", inner,
                            inner == 1 ? "" : "s", fmt::join(ops, ", "));
  }
  return c;
}

// The values the model holds itself: its initializers, and what its Constant nodes make
// (they read nothing, and runtimes rarely dump them: a CastLike of the Constant alpha in
// LeakyRelu-16's body was never checked). A node reading one takes it from the model.
// A Constant that cannot be made is left out: its readers want it from VALUES.
std::map<std::string, Tensor> own_values(const Graph& g) {
  std::map<std::string, Tensor> own = g.initializers;
  for (const Node& n : g.nodes) {
    if (!n.op || !n.domain.empty() || n.op_type != "Constant" || !n.inputs.empty() || n.outputs.size() != 1 ||
        n.outputs[0].empty())
      continue;
    try {
      OpContext ctx;
      ctx.outputs.resize(1);
      n.op->make_kernel(*n.op, n.attrs)->compute(ctx);
      if (ctx.outputs[0].valid()) own.emplace(n.outputs[0], std::move(ctx.outputs[0]));
    } catch (const Error&) {
    }
  }
  return own;
}

void check_node(const Graph& g, const std::map<std::string, Tensor>& own, const Node& n, const ValueIndex& values,
                GraphTypes& types, const VerifyOptions& options, NodeCheck& c) {
  // An output with no name is no value VALUES can hold: with nothing to compare it with, the
  // node would be "exact" having compared nothing.
  for (size_t k = 0; k < n.outputs.size(); ++k)
    if (n.outputs[k].empty()) throw NotChecked{fmt::format("output {} has no name: nothing to compare it with", k)};
  // Every value first, by name alone: a node with one missing is not checked, and nothing
  // of it is read.
  std::vector<std::string> missing;
  std::vector<const ResultTensor*> in_values, out_values;
  for (VerifyValue& v : c.inputs) {
    const ResultTensor* iv = values.find(v.name, types.names);
    const bool owned = own.count(v.name) > 0;
    // A value of the model's own that no input can replace is the model's; an initializer
    // an input may replace is the dumped value where VALUES has it.
    if (owned && (!iv || !g.find_input(v.name))) iv = nullptr;
    if (!iv && !owned) missing.push_back(fmt::format("input '{}'", v.name));
    v.file = iv ? iv->file : !owned ? "" : g.initializers.count(v.name) ? "(initializer)" : "(Constant)";
    in_values.push_back(iv);
  }
  for (VerifiedOutput& o : c.outputs) {
    const ResultTensor* iv = values.find(o.value.name, types.names);
    if (!iv) missing.push_back(fmt::format("output '{}'", o.value.name));
    o.value.file = iv ? iv->file : "";
    out_values.push_back(iv);
  }
  if (!missing.empty()) throw NotChecked{fmt::format("not in VALUES: {}", fmt::join(missing, ", "))};

  std::vector<Tensor> inputs;  // one per node input, absent optional ones invalid
  std::vector<std::optional<DType>> input_types;
  size_t k = 0;
  for (const std::string& name : n.inputs) {
    if (name.empty()) {
      inputs.emplace_back();
      input_types.emplace_back();
      continue;
    }
    const ResultTensor* iv = in_values[k++];
    Tensor t = iv ? typed(*iv, types, name) : own.at(name);
    if (iv) check_against_graph(types, "input", name, iv->file, t);
    input_types.emplace_back(t.dtype());
    inputs.push_back(std::move(t));
  }
  std::vector<std::optional<DType>> output_types;
  try {
    output_types = check_and_infer_types(*n.op, input_types, n.attrs);
  } catch (const Error& e) {
    throw NotChecked{e.what()};
  }
  for (size_t j = 0; j < n.outputs.size() && j < output_types.size(); ++j)
    if (output_types[j] && !n.outputs[j].empty()) types.dtype.emplace(n.outputs[j], *output_types[j]);

  std::unique_ptr<OpKernel> kernel;
  try {
    kernel = n.op->make_kernel(*n.op, n.attrs);
  } catch (const Error& e) {
    throw NotChecked{e.what()};
  }

  std::vector<Tensor> dumped;
  for (size_t j = 0; j < c.outputs.size(); ++j) {
    const std::string& name = c.outputs[j].value.name;
    Tensor t = typed(*out_values[j], types, name);
    check_against_graph(types, "output", name, out_values[j]->file, t);
    dumped.push_back(std::move(t));
  }

  const Tolerance first = options.for_output(c.outputs.empty() ? "" : c.outputs.front().value.name);
  if (n.op->elementwise && inputs.size() == 1 && inputs[0].valid() && c.outputs.size() == 1 &&
      dumped[0].dtype() == inputs[0].dtype() && dumped[0].shape() == inputs[0].shape()) {
    try {
      c.outputs[0].comparison = compare_by_blocks(*kernel, inputs[0], dumped[0], first);
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::kUnsupported) throw;
      throw NotChecked{e.what()};
    }
  } else {
    OpContext ctx;
    ctx.inputs = inputs;  // shared, never overwritten: the worst element's inputs are read after
    ctx.outputs.resize(std::max(n.op->outputs.size(), n.outputs.size()));
    try {
      kernel->compute(ctx);
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::kUnsupported && e.kind() != ErrorKind::kInvalid) throw;
      throw NotChecked{e.what()};
    }
    size_t j = 0;
    for (size_t slot = 0; slot < n.outputs.size(); ++slot) {
      if (n.outputs[slot].empty()) continue;
      VerifiedOutput& o = c.outputs[j];
      o.comparison = compare_tensors(ctx.outputs[slot], dumped[j], options.for_output(o.value.name));
      ++j;
    }
  }
  for (size_t j = 0; j < c.outputs.size(); ++j) {
    VerifiedOutput& o = c.outputs[j];
    if (!o.comparison.ok || !o.comparison.bit_identical())
      o.worst_inputs = worst_inputs(o.comparison, n, inputs, dumped[j].shape());
  }
  c.checked = true;
}

}  // namespace

Tolerance VerifyOptions::for_output(const std::string& name) const {
  Tolerance t = tolerance.for_output(name);
  const bool own =
      tolerance.output_max_ulp.count(name) || tolerance.output_atol.count(name) || tolerance.output_rtol.count(name);
  if (exact_by_default && !own) t.exact = true;
  return t;
}

bool NodeCheck::agrees() const {
  return checked &&
         std::all_of(outputs.begin(), outputs.end(), [](const VerifiedOutput& o) { return o.comparison.ok; });
}

bool NodeCheck::exact() const {
  return checked && std::all_of(outputs.begin(), outputs.end(),
                                [](const VerifiedOutput& o) { return o.comparison.bit_identical(); });
}

uint64_t NodeCheck::max_ulp() const {
  uint64_t m = 0;
  for (const VerifiedOutput& o : outputs) m = std::max(m, o.comparison.max_ulp);
  return m;
}

std::string NodeCheck::verdict() const {
  if (!checked) return "not checked: " + reason;
  if (exact()) return "exact";
  if (agrees()) return fmt::format("agrees (max ulp {})", ulp_text(max_ulp()));
  std::vector<std::string> parts;
  for (const VerifiedOutput& o : outputs)
    if (!o.comparison.ok) parts.push_back(fmt::format("{}: {}", o.value.name, o.comparison.brief()));
  return fmt::format("differs ({})", fmt::join(parts, "; "));
}

size_t VerifyReport::checked() const {
  return std::count_if(nodes.begin(), nodes.end(), [](const NodeCheck& c) { return c.checked; });
}

size_t VerifyReport::verified() const {
  return std::count_if(nodes.begin(), nodes.end(), [](const NodeCheck& c) { return c.checked && c.reads_values; });
}

size_t VerifyReport::differing() const {
  return std::count_if(nodes.begin(), nodes.end(), [](const NodeCheck& c) { return c.checked && !c.agrees(); });
}

std::vector<size_t> VerifyReport::unchecked_runnable() const {
  std::vector<size_t> out;
  for (size_t k = 0; k < nodes.size(); ++k)
    if (nodes[k].required() && !nodes[k].checked) out.push_back(k);
  return out;
}

// Not one node checked but Constants: nothing was verified, whatever else the run says
// (values of another type than the graph's, names that match none of its values).
bool VerifyReport::passed() const {
  return verified() > 0 && !first_differing && (!require_all || unchecked_runnable().empty());
}

std::string VerifyReport::none_checked_summary() const {
  if (nodes.empty()) return "no node could be checked: the graph has no nodes";
  const auto count = [&](auto pred) { return std::count_if(nodes.begin(), nodes.end(), pred); };
  const size_t foreign = count([](const NodeCheck& c) { return !c.runnable; });
  const size_t constants = count([](const NodeCheck& c) { return c.runnable && !c.reads_values; });
  const size_t lacking = nodes.size() - foreign - constants;
  std::vector<std::string> counts;
  if (foreign) counts.push_back(fmt::format("{} of an operator onnx-run does not run", foreign));
  if (constants)
    counts.push_back(
        fmt::format("{} that read{} no value (a Constant does not count)", constants, constants == 1 ? "s" : ""));
  if (lacking) counts.push_back(fmt::format("{} whose values VALUES lacks or holds in another type or shape", lacking));
  // The first node onnx-run runs and that reads values says the likelier cause: the values.
  const auto first = std::find_if(nodes.begin(), nodes.end(), [](const NodeCheck& c) { return !c.reason.empty(); });
  const auto reader =
      std::find_if(nodes.begin(), nodes.end(), [](const NodeCheck& c) { return c.runnable && c.reads_values; });
  std::string line = fmt::format("no node could be checked: of {} node{}, {}", nodes.size(),
                                 nodes.size() == 1 ? "" : "s", fmt::join(counts, ", "));
  const auto why = reader != nodes.end() ? reader : first;
  if (why != nodes.end()) line += fmt::format("; node '{}' ({}): {}", why->name, why->op_type, why->reason);
  return line;
}

std::string VerifyReport::failure_summary() const {
  if (verified() == 0 && !first_differing) return none_checked_summary();
  std::vector<std::string> parts;
  if (first_differing) {
    const NodeCheck& c = nodes[*first_differing];
    const size_t more = differing() - 1;
    parts.push_back(fmt::format(
        "node '{}' ({}) {}{}", c.name, c.op_type, c.verdict(),
        more ? fmt::format(", and {} more node{} differ{}", more, more == 1 ? "" : "s", more == 1 ? "s" : "") : ""));
  }
  if (require_all) {
    const std::vector<size_t> unchecked = unchecked_runnable();
    if (!unchecked.empty()) {
      const NodeCheck& c = nodes[unchecked.front()];
      parts.push_back(fmt::format("{} node{} onnx-run runs not checked (--require-all): node '{}' ({}): {}",
                                  unchecked.size(), unchecked.size() == 1 ? "" : "s", c.name, c.op_type, c.reason));
    }
  }
  return fmt::format("{}", fmt::join(parts, "; "));
}

std::vector<NodeCheck> plan_verify(const Model& m) {
  std::vector<NodeCheck> out;
  for (size_t k = 0; k < m.graph.nodes.size(); ++k) out.push_back(plan_node(m, m.graph.nodes[k], k));
  return out;
}

VerifyReport verify_graph(const Model& m, const ValueIndex& values, const VerifyOptions& options) {
  VerifyReport r;
  r.require_all = options.require_all;
  r.values = values.size();
  GraphTypes types = graph_types(m.graph);
  const std::map<std::string, Tensor> own = own_values(m.graph);
  for (size_t k = 0; k < m.graph.nodes.size(); ++k) {
    const Node& n = m.graph.nodes[k];
    NodeCheck c = plan_node(m, n, k);
    const auto start = std::chrono::steady_clock::now();
    if (n.op) {
      try {
        check_node(m.graph, own, n, values, types, options, c);
      } catch (const NotChecked& why) {
        c.reason = why.reason;
      }
    }
    c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (c.checked && !c.agrees() && !r.first_differing) r.first_differing = r.nodes.size();
    r.nodes.push_back(std::move(c));
  }
  return r;
}

VerifyReport verify_model(const std::string& model, const std::vector<std::string>& sources,
                          const VerifyOptions& options) {
  LoadOptions load;
  load.keep_unsupported = true;  // a Conv is a node not checked, not a refused model
  const Model m = load_model(model, load);
  ValueIndex values;
  for (const std::string& s : sources) values.add(s);
  VerifyReport r = verify_graph(m, values, options);
  r.model = model;
  r.sources = sources;
  return r;
}

}  // namespace onnxrun
