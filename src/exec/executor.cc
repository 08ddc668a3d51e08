#include "exec/executor.h"

#include <optional>
#include <set>

#include <fmt/format.h>

#include "core/error.h"
#include "core/fail.h"
#include "exec/fused_chain.h"
#include "model/recognise_functions.h"
#include "ops/registry.h"

namespace onnxrun {

namespace {

// One input and one output, both present, of an op whose row says elementwise.
bool elementwise_one_to_one(const Node& n, const std::vector<int>& inputs, const std::vector<int>& outputs) {
  return n.op->elementwise && inputs.size() == 1 && inputs[0] >= 0 && outputs.size() == 1 && outputs[0] >= 0;
}

}  // namespace

Executor::Executor(Graph graph, ExecOptions options) : graph_(std::move(graph)), options_(options) {
  if (options_.recognise_functions) fusion_.recognised = recognise_functions(graph_, OpRegistry::builtin());
  auto id_of = [&](const std::string& name) {
    auto [it, fresh] = value_ids_.emplace(name, static_cast<int>(value_ids_.size()));
    if (fresh) value_names_.push_back(name);
    return it->second;
  };
  for (const ValueInfo& v : graph_.inputs) id_of(v.name);
  for (const auto& [name, t] : graph_.initializers) id_of(name);

  std::set<int> graph_outputs;
  for (const ValueInfo& v : graph_.outputs)
    if (!graph_outputs.insert(id_of(v.name)).second)  // the loader refuses it (model/validate.h)
      fail(ErrorKind::kInternal, "graph output '{}' named twice", v.name);

  for (const Node& n : graph_.nodes) {
    if (!n.op) fail(ErrorKind::kInternal, "{} was not resolved", n.label());
    Step s;
    s.node = &n;
    s.nodes = {&n};
    s.in_place = n.op->in_place;
    try {
      s.kernel = n.op->make_kernel(*n.op, n.attrs);
    } catch (const Error& e) {
      throw e.with_context(n.label());
    }
    if (n.inputs.size() < n.op->min_inputs)
      fail(ErrorKind::kInvalid, "{}: takes at least {} inputs, got {}", n.label(), n.op->min_inputs, n.inputs.size());
    for (size_t k = 0; k < n.inputs.size(); ++k) {
      // The loader refuses this (resolve.cc); a graph built another way must not hand a
      // kernel an empty Tensor where it needs an operand.
      if (n.inputs[k].empty() && k < n.op->min_inputs)
        fail(ErrorKind::kInvalid, "{}: input {} is required but its name is empty", n.label(), k);
      const int id = n.inputs[k].empty() ? -1 : id_of(n.inputs[k]);
      s.inputs.push_back(id);
    }
    for (const std::string& out : n.outputs) s.outputs.push_back(out.empty() ? -1 : id_of(out));
    s.hand_over.assign(n.inputs.size(), false);
    s.release.assign(n.inputs.size(), false);
    steps_.push_back(std::move(s));
  }
  if (options_.fuse_chains) {
    fuse_chains(graph_outputs);
    fuse_fanouts();
  }
  std::map<int, std::pair<size_t, size_t>> last_use;  // value -> (step, input position)
  for (size_t i = 0; i < steps_.size(); ++i)
    for (size_t k = 0; k < steps_[i].inputs.size(); ++k)
      if (steps_[i].inputs[k] >= 0) last_use[steps_[i].inputs[k]] = {i, k};
  // A value dies at its last use. Only an op whose row allows it (OpDef::in_place) is
  // handed the value itself, and with it the right to write its output there.
  for (const auto& [id, where] : last_use) {
    if (graph_outputs.count(id)) continue;
    Step& s = steps_[where.first];
    (s.in_place ? s.hand_over : s.release)[where.second] = true;
  }
  for (const ValueInfo& v : graph_.outputs) output_ids_.push_back(value_ids_.at(v.name));
}

Executor::~Executor() = default;

// A node joins the step that makes its one input when both are elementwise one-to-one
// and nothing else reads that value (nor is it a graph output): the value then lives only
// inside the step's blocks. The node runs earlier than the graph's order says, which is
// safe: its input is ready there, and its readers all come after it.
void Executor::fuse_chains(const std::set<int>& graph_outputs) {
  std::map<int, int> uses;
  for (const Step& s : steps_)
    for (int id : s.inputs)
      if (id >= 0) ++uses[id];
  std::vector<Step> merged;
  std::vector<std::vector<std::unique_ptr<OpKernel>>> joined;  // of merged[i]: the kernels of the nodes after its own
  std::map<int, size_t> chain_end;  // the output of a chainable step -> its index in `merged`
  for (Step& s : steps_) {
    const bool one_to_one = elementwise_one_to_one(*s.node, s.inputs, s.outputs);
    auto head = one_to_one ? chain_end.find(s.inputs[0]) : chain_end.end();
    if (head != chain_end.end() && uses[s.inputs[0]] == 1 && !graph_outputs.count(s.inputs[0])) {
      const size_t at = head->second;
      merged[at].nodes.push_back(s.node);
      merged[at].outputs = s.outputs;
      joined[at].push_back(std::move(s.kernel));
      chain_end.erase(head);
      chain_end[s.outputs[0]] = at;
      continue;
    }
    if (one_to_one) chain_end[s.outputs[0]] = merged.size();
    merged.push_back(std::move(s));
    joined.emplace_back();
  }
  steps_ = std::move(merged);
  for (size_t i = 0; i < steps_.size(); ++i) {
    if (joined[i].empty()) continue;
    Step& s = steps_[i];
    joined[i].insert(joined[i].begin(), std::move(s.kernel));
    s.kernel = std::make_unique<FusedChainKernel>(std::move(joined[i]));
    s.fused = fmt::format(" (fused with {} more)", s.nodes.size() - 1);
    std::vector<std::string> names;
    for (const Node* n : s.nodes) names.push_back(n->name);
    fusion_.chains.push_back(std::move(names));
  }
}

// Steps that are each one elementwise node or chain, and are together all the readers of
// one value, become one step (a fan-out) at the first one's place: the value is then read
// once, block by block, rather than once per reader. The later ones run earlier than the
// graph says, which is safe: they read only that value, which is ready there.
void Executor::fuse_fanouts() {
  std::map<int, std::vector<size_t>> readers;  // value -> steps reading it
  std::map<int, size_t> reads;
  for (size_t i = 0; i < steps_.size(); ++i)
    for (int id : steps_[i].inputs)
      if (id >= 0) {
        ++reads[id];
        if (elementwise_one_to_one(*steps_[i].node, steps_[i].inputs, steps_[i].outputs)) readers[id].push_back(i);
      }
  std::map<size_t, std::vector<size_t>> groups;  // first step -> all of the group
  std::set<size_t> joined;
  for (const auto& [id, steps] : readers)
    if (steps.size() >= 2 && steps.size() == reads[id]) {
      groups[steps[0]] = steps;
      joined.insert(steps.begin(), steps.end());
    }
  if (groups.empty()) return;
  std::vector<Step> merged;
  for (size_t i = 0; i < steps_.size(); ++i) {
    auto g = groups.find(i);
    if (g == groups.end()) {
      if (!joined.count(i)) merged.push_back(std::move(steps_[i]));
      continue;
    }
    Step group;
    group.node = steps_[i].node;
    group.inputs = steps_[i].inputs;
    group.hand_over.assign(1, false);
    group.release.assign(1, false);  // read once per branch: no branch may overwrite it
    Fusion::FanOut described;
    described.input = group.node->inputs[0];
    std::vector<std::unique_ptr<OpKernel>> branches;
    for (size_t member : g->second) {
      Step& m = steps_[member];
      group.outputs.push_back(m.outputs[0]);
      group.nodes.insert(group.nodes.end(), m.nodes.begin(), m.nodes.end());
      described.branches.push_back(m.node->name);
      branches.push_back(std::move(m.kernel));
    }
    group.kernel = std::make_unique<FusedFanOutKernel>(std::move(branches));
    group.fused = fmt::format(" (one pass with {} more readers of its input)", g->second.size() - 1);
    fusion_.fanouts.push_back(std::move(described));
    merged.push_back(std::move(group));
  }
  steps_ = std::move(merged);
}

namespace {

// A run's working vectors (its values, the context handed to each kernel, the input
// types), kept per thread so that a run reuses their capacity: allocating them took 20 of
// a 1e3-float run's 170 ns (docs/perf.md, "Small runs"). No tensor outlives its run in
// them: the guard empties them however the run ends. A run nested in another on the same
// thread (from an observer, or a kernel that runs a graph) takes vectors of its own.
struct RunScratch {
  std::vector<Tensor> values;
  OpContext ctx;
  std::vector<std::optional<DType>> types;
  bool busy = false;
};

class ScratchGuard {
 public:
  ScratchGuard() : s_(pick(thread_scratch(), own_)) { s_.busy = true; }
  ~ScratchGuard() {
    s_.values.clear();
    s_.ctx.inputs.clear();
    s_.ctx.outputs.clear();
    s_.busy = false;
  }
  ScratchGuard(const ScratchGuard&) = delete;
  ScratchGuard& operator=(const ScratchGuard&) = delete;
  RunScratch& operator*() { return s_; }

 private:
  static RunScratch& pick(RunScratch& thread, std::optional<RunScratch>& own) {
    return thread.busy ? own.emplace() : thread;
  }
  static RunScratch& thread_scratch() {
    thread_local RunScratch scratch;
    return scratch;
  }
  std::optional<RunScratch> own_;  // made only for a nested run
  RunScratch& s_;
};

}  // namespace

std::vector<Tensor> Executor::run(std::map<std::string, Tensor> inputs, const ValueObserver& observer) const {
  ScratchGuard guard;
  RunScratch& scratch = *guard;
  std::vector<Tensor>& values = scratch.values;
  values.resize(value_ids_.size());
  // Initializers first, so that a fed input of the same name replaces one.
  for (const auto& [name, t] : graph_.initializers) values[value_ids_.at(name)] = t;
  for (auto& [name, t] : inputs) {
    auto it = value_ids_.find(name);
    if (it == value_ids_.end()) fail(ErrorKind::kInput, "unknown input '{}'", name);
    values[it->second] = std::move(t);
  }

  // One context and type list for all steps: their vectors keep their capacity, so a
  // step costs no allocation of its own (a small run is mostly such fixed costs).
  OpContext& ctx = scratch.ctx;
  ctx.pool = options_.pool;
  std::vector<std::optional<DType>>& types = scratch.types;
  for (const Step& s : steps_) {
    ctx.inputs.clear();
    ctx.outputs.clear();
    types.clear();
    for (size_t k = 0; k < s.inputs.size(); ++k) {
      const int id = s.inputs[k];
      if (id < 0) {  // absent optional input (the constructor refused required ones)
        ctx.inputs.emplace_back();
        types.emplace_back();
        continue;
      }
      if (!values[id].valid())
        fail(ErrorKind::kInternal, "{}: input '{}' has no value", s.node->label(), s.node->inputs[k]);
      types.push_back(values[id].dtype());
      ctx.inputs.push_back(s.hand_over[k] ? std::move(values[id]) : values[id]);
    }
    ctx.outputs.resize(s.outputs.size());
    try {
      // Types were checked at load where the graph declares them; inputs fed at run
      // time are checked again here, before the kernel sees them (a fused step's nodes
      // all take its one input's type: elementwise keeps it). The first node apart: a
      // 3-element run took 190 ns with a plain loop over the nodes, 170 ns so.
      check_input_types(*s.node->op, types);
      for (size_t k = 1; k < s.nodes.size(); ++k) check_input_types(*s.nodes[k]->op, types);
      s.kernel->compute(ctx);
    } catch (const Error& e) {
      throw e.with_context(s.node->label() + s.fused);
    }
    for (size_t k = 0; k < s.inputs.size(); ++k)
      if (s.release[k]) values[s.inputs[k]] = Tensor();
    for (size_t k = 0; k < s.outputs.size(); ++k) {
      if (s.outputs[k] < 0) continue;
      if (!ctx.outputs[k].valid()) fail(ErrorKind::kInternal, "{}: produced no output {}", s.node->label(), k);
      values[s.outputs[k]] = std::move(ctx.outputs[k]);
      if (observer) observer(value_names_[s.outputs[k]], values[s.outputs[k]]);
    }
  }

  // Outputs moved out (the constructor made sure no value is named twice): a copy would
  // copy its shape's vector, an allocation and a free more per run.
  std::vector<Tensor> out;
  out.reserve(output_ids_.size());
  for (int id : output_ids_) out.push_back(std::move(values[id]));
  return out;
}

}  // namespace onnxrun
