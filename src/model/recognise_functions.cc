#include "model/recognise_functions.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "core/element.h"
#include "ops/registry.h"

namespace onnxrun {
namespace {

// Who makes and who reads each value of a graph.
struct ValueIndex {
  std::map<std::string, size_t> producer;
  std::map<std::string, std::set<size_t>> consumers;
  std::set<std::string> graph_outputs;
  std::map<std::string, std::optional<DType>> types;

  explicit ValueIndex(const Graph& g) {
    for (const ValueInfo& v : g.outputs) graph_outputs.insert(v.name);
    for (const ValueInfo& v : g.inputs) types[v.name] = v.dtype;
    for (const auto& [name, t] : g.initializers) types[name] = t.dtype();
    for (size_t i = 0; i < g.nodes.size(); ++i) {
      const Node& n = g.nodes[i];
      for (const std::string& v : n.inputs)
        if (!v.empty()) consumers[v].insert(i);
      for (const std::string& v : n.outputs)
        if (!v.empty()) producer[v] = i;
      // Element types as the resolver followed them; unknown where it could not.
      std::vector<std::optional<DType>> in;
      for (const std::string& v : n.inputs) in.push_back(v.empty() ? std::nullopt : types[v]);
      std::vector<std::optional<DType>> out;
      if (n.op) {
        try {
          out = check_and_infer_types(*n.op, in, n.attrs);
        } catch (const Error&) {
          out.clear();
        }
      }
      for (size_t k = 0; k < n.outputs.size(); ++k)
        if (!n.outputs[k].empty()) types[n.outputs[k]] = k < out.size() ? out[k] : std::nullopt;
    }
  }
};

// The value of a graph value that no feed can change, or nullopt.
class Constants {
 public:
  Constants(const Graph& g, const ValueIndex& index) : g_(g), index_(index) {}

  std::optional<Tensor> value(const std::string& v) {
    auto cached = cache_.find(v);
    if (cached != cache_.end()) return cached->second;
    return cache_[v] = compute(v);
  }

 private:
  std::optional<Tensor> compute(const std::string& v) const {
    auto init = g_.initializers.find(v);
    if (init != g_.initializers.end()) {
      if (g_.find_input(v)) return std::nullopt;  // a feed may replace it
      return init->second;
    }
    auto p = index_.producer.find(v);
    if (p == index_.producer.end()) return std::nullopt;
    const Node& n = g_.nodes[p->second];
    if (!n.op || !n.op->constant || !n.inputs.empty()) return std::nullopt;
    try {
      OpContext ctx;
      ctx.outputs.resize(n.outputs.size());
      n.op->make_kernel(*n.op, n.attrs)->compute(ctx);
      for (size_t k = 0; k < n.outputs.size(); ++k)
        if (n.outputs[k] == v && ctx.outputs[k].valid()) return ctx.outputs[k];
    } catch (const Error&) {
      // An invalid constant is the executor's to report; here it only does not match.
    }
    return std::nullopt;
  }

  const Graph& g_;
  const ValueIndex& index_;
  std::map<std::string, std::optional<Tensor>> cache_;
};

// One attempt to match a pattern with its output at a given graph value.
class Match {
 public:
  Match(const Graph& g, const ValueIndex& index, Constants& constants, const OpPattern& p)
      : g_(g), index_(index), constants_(constants), p_(p) {}

  struct State {
    std::map<std::string, std::string> bound;          // pattern value -> graph value
    std::set<size_t> nodes;                            // graph nodes matched by pattern nodes
    std::vector<std::pair<DType, std::string>> typed;  // constants that must have input 0's type
    AttributeMap attrs;                                // what the constants give the operator
  };
  State s;

  bool value(const std::string& pv, const std::string& gv) {
    if (gv.empty()) return false;
    if (auto b = s.bound.find(pv); b != s.bound.end()) return b->second == gv;
    for (const std::string& formal : p_.inputs)
      if (pv == formal) return bind(pv, gv);
    for (const PatternConstant& c : p_.constants)
      if (pv == c.value) return constant(c, gv);
    for (const PatternNode& pn : p_.nodes)
      if (pv == pn.output) return node(pn, gv);
    return false;  // a pattern that names a value nothing defines matches nothing
  }

 private:
  bool bind(const std::string& pv, const std::string& gv) {
    s.bound[pv] = gv;
    return true;
  }

  bool constant(const PatternConstant& c, const std::string& gv) {
    const std::optional<Tensor> t = constants_.value(gv);
    if (!t || t->rank() != 0 || t->numel() != 1) return false;
    if (!c.like_input && t->dtype() != DType::kFloat) return false;
    const double d = element_as_double(*t, 0);
    if (std::isnan(d)) return false;
    if (c.attr.empty()) {
      if (d != c.equals) return false;
    } else {
      const float f = static_cast<float>(d);
      if (static_cast<double>(f) != d) return false;
      auto a = s.attrs.find(c.attr);
      if (a != s.attrs.end() && a->second.f != f) return false;
      s.attrs[c.attr] = float_attr(f);
    }
    if (c.like_input) s.typed.emplace_back(t->dtype(), gv);
    return bind(c.value, gv);
  }

  bool node(const PatternNode& pn, const std::string& gv) {
    auto p = index_.producer.find(gv);
    if (p == index_.producer.end()) return false;
    const Node& n = g_.nodes[p->second];
    if (!n.op || n.op_type != pn.op_type || !n.domain.empty() || !n.attrs.empty() || n.outputs.size() != 1 ||
        n.inputs.size() != pn.inputs.size())
      return false;
    bind(pn.output, gv);
    s.nodes.insert(p->second);
    if (pn.commutative && pn.inputs.size() == 2) {
      const State before = s;
      if (value(pn.inputs[0], n.inputs[0]) && value(pn.inputs[1], n.inputs[1])) return true;
      s = before;
      return value(pn.inputs[0], n.inputs[1]) && value(pn.inputs[1], n.inputs[0]);
    }
    for (size_t k = 0; k < pn.inputs.size(); ++k)
      if (!value(pn.inputs[k], n.inputs[k])) return false;
    return true;
  }

  const Graph& g_;
  const ValueIndex& index_;
  Constants& constants_;
  const OpPattern& p_;
};

// Whether a finished match may be replaced: input 0's type known and allowed, typed
// constants of that type, and nothing inside used from outside.
bool replaceable(const Graph& g, const ValueIndex& index, const OpDef& def, const OpPattern& p, const Match::State& s,
                 size_t root) {
  if (p.inputs.empty() || def.inputs.empty()) return false;
  auto x = index.types.find(s.bound.at(p.inputs[0]));
  if (x == index.types.end() || !x->second) return false;
  const TypeConstraint* c = def.constraint(def.inputs[0]);
  if (!c || std::find(c->types.begin(), c->types.end(), *x->second) == c->types.end()) return false;
  for (const auto& [dtype, value] : s.typed)
    if (dtype != *x->second) return false;
  for (size_t i : s.nodes) {
    if (i == root) continue;
    const std::string& out = g.nodes[i].outputs[0];
    if (index.graph_outputs.count(out)) return false;
    for (size_t user : index.consumers.at(out))
      if (!s.nodes.count(user)) return false;
  }
  return true;
}

// Replaces every match of `p` (matches do not overlap); returns what it replaced.
std::vector<RecognisedSubgraph> replace_matches(Graph& g, const OpDef& def, const OpPattern& p,
                                                std::set<std::string>& constants_used) {
  const PatternNode* root_pattern = nullptr;
  for (const PatternNode& pn : p.nodes)
    if (pn.output == p.output) root_pattern = &pn;
  if (!root_pattern) return {};
  const ValueIndex index(g);
  Constants constants(g, index);
  std::set<size_t> taken;
  std::map<size_t, Node> replacement;  // at the root's place
  std::vector<RecognisedSubgraph> found;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& root = g.nodes[i];
    if (root.op_type != root_pattern->op_type || root.outputs.size() != 1 || taken.count(i)) continue;
    Match m(g, index, constants, p);
    if (!m.value(p.output, root.outputs[0]) || !replaceable(g, index, def, p, m.s, i)) continue;
    bool overlaps = false;
    for (size_t k : m.s.nodes) overlaps = overlaps || taken.count(k);
    if (overlaps) continue;
    Node n;
    n.name = root.name;
    n.op_type = def.op_type;
    n.domain = def.domain;
    for (const std::string& formal : p.inputs) n.inputs.push_back(m.s.bound.at(formal));
    n.outputs = {root.outputs[0]};
    n.attrs = m.s.attrs;
    n.op = &def;
    n.opset = root.opset;
    RecognisedSubgraph r{n.name, def.op_type + " " + def.version_range(), p.what, {}};
    for (size_t k : m.s.nodes) r.replaced.push_back(g.nodes[k].name);
    for (const auto& [pv, gv] : m.s.bound)
      if (constants.value(gv)) constants_used.insert(gv);
    taken.insert(m.s.nodes.begin(), m.s.nodes.end());
    replacement.emplace(i, std::move(n));
    found.push_back(std::move(r));
  }
  if (found.empty()) return found;
  std::vector<Node> out;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    if (auto r = replacement.find(i); r != replacement.end()) out.push_back(std::move(r->second));
    else if (!taken.count(i)) out.push_back(std::move(g.nodes[i]));
  }
  g.nodes = std::move(out);
  return found;
}

// Drops the nodes that made constants a match used, when nothing reads them any more.
void drop_unused_constants(Graph& g, const std::set<std::string>& used) {
  const ValueIndex index(g);
  std::vector<Node> out;
  for (Node& n : g.nodes) {
    bool dead = n.op && n.op->constant && !n.outputs.empty();
    for (const std::string& v : n.outputs)
      dead = dead && used.count(v) && !index.consumers.count(v) && !index.graph_outputs.count(v);
    if (!dead) out.push_back(std::move(n));
  }
  g.nodes = std::move(out);
}

}  // namespace

std::vector<RecognisedSubgraph> recognise_functions(Graph& g, const OpRegistry& registry) {
  std::vector<RecognisedSubgraph> all;
  std::set<std::string> constants_used;
  for (const OpDef& def : registry.rows())
    for (const OpPattern& p : def.patterns)
      for (RecognisedSubgraph& r : replace_matches(g, def, p, constants_used)) all.push_back(std::move(r));
  if (!all.empty()) drop_unused_constants(g, constants_used);
  return all;
}

}  // namespace onnxrun
