#include "model/inline_functions.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "core/error.h"
#include "core/fail.h"
#include "model/unique_names.h"

namespace onnxrun {
namespace {

class Inliner {
 public:
  Inliner(const std::vector<Function>& functions, const Graph& g) : functions_(functions), names_(g) {}

  // How many nodes `nodes` become once inlined (saturating just above the limit),
  // checked before anything is copied: refuses recursion and excessive depth, and a
  // small file describing an exponentially large graph costs nothing to refuse.
  size_t expanded_size(const std::vector<Node>& nodes) {
    size_t total = 0;
    for (const Node& n : nodes) {
      const Function* f = find(n);
      total += f ? function_size(*f) : 1;
      if (total > kMaxInlinedNodes)
        fail(ErrorKind::kSecurity, "inlining model functions would make more than {} nodes", kMaxInlinedNodes);
    }
    return total;
  }

  // Appends `n` to `out`, or the body it calls, inlined all the way down.
  // REQUIRES: expanded_size() accepted the graph.
  void expand(std::vector<Node>& out, Node n) {
    const Function* f = find(n);
    if (!f) {
      if (++count_ > kMaxInlinedNodes) fail(ErrorKind::kInternal, "inlined more nodes than counted");
      out.push_back(std::move(n));
      return;
    }
    enter(f);
    try {
      inline_call(out, n, *f);
    } catch (const Error& e) {
      throw e.with_context(fmt::format("{} calling {}", n.label(), f->label()));
    }
    stack_.pop_back();
  }

 private:
  // Pushes `f` onto the call stack, refusing recursion and excessive depth.
  void enter(const Function* f) {
    if (std::find(stack_.begin(), stack_.end(), f) != stack_.end()) {
      std::string chain;
      for (const Function* s : stack_) chain += s->name + " -> ";
      fail(ErrorKind::kInvalid, "{} calls itself ({}{}); recursive functions are not allowed", f->label(), chain,
           f->name);
    }
    if (stack_.size() >= kMaxFunctionDepth)
      fail(ErrorKind::kSecurity, "model functions nest deeper than {} calls", kMaxFunctionDepth);
    stack_.push_back(f);
  }

  size_t function_size(const Function& f) {
    auto it = sizes_.find(&f);
    if (it != sizes_.end()) return it->second;
    enter(&f);
    size_t total = 0;
    for (const Node& n : f.nodes) {
      const Function* g = find(n);
      total = std::min(total + (g ? function_size(*g) : 1), kMaxInlinedNodes + 1);
    }
    stack_.pop_back();
    sizes_[&f] = total;
    return total;
  }

  const Function* find(const Node& n) const {
    for (const Function& f : functions_)
      if (f.domain == n.domain && f.name == n.op_type && f.overload == n.overload) return &f;
    return nullptr;
  }

  void inline_call(std::vector<Node>& out, const Node& call, const Function& f) {
    if (call.inputs.size() > f.inputs.size())
      fail(ErrorKind::kInvalid, "passes {} inputs; the function takes {}", call.inputs.size(), f.inputs.size());
    if (call.outputs.size() > f.outputs.size())
      fail(ErrorKind::kInvalid, "asks for {} outputs; the function has {}", call.outputs.size(), f.outputs.size());

    // Attribute values for ref_attr_name: the call's, else the defaults.
    AttributeMap bound = f.attribute_defaults;
    for (const auto& [name, a] : call.attrs) {
      if (!f.attribute_defaults.count(name) &&
          std::find(f.attributes.begin(), f.attributes.end(), name) == f.attributes.end())
        fail(ErrorKind::kInvalid, "attribute '{}' is not declared by the function", name);
      bound[name] = a;
    }

    const std::string prefix = call.name + "/";
    std::map<std::string, std::string> rename;  // body name -> graph name
    for (size_t k = 0; k < f.inputs.size(); ++k) rename[f.inputs[k]] = k < call.inputs.size() ? call.inputs[k] : "";
    for (size_t k = 0; k < f.outputs.size(); ++k)
      rename[f.outputs[k]] =
          k < call.outputs.size() && !call.outputs[k].empty() ? call.outputs[k] : names_.fresh(prefix + f.outputs[k]);
    std::set<std::string> produced;
    for (const Node& b : f.nodes)
      for (const std::string& o : b.outputs)
        if (!o.empty()) produced.insert(o);
    for (const std::string& o : f.outputs)
      if (!produced.count(o)) fail(ErrorKind::kInvalid, "function output '{}' is not produced by its body", o);

    auto local = [&](const std::string& body_name) -> const std::string& {
      auto it = rename.find(body_name);
      if (it == rename.end()) it = rename.emplace(body_name, names_.fresh(prefix + body_name)).first;
      return it->second;
    };

    for (const Node& b : f.nodes) {
      Node n = b;
      n.name = prefix + b.name;
      for (std::string& in : n.inputs) {
        if (in.empty()) continue;
        if (!produced.count(in) && std::find(f.inputs.begin(), f.inputs.end(), in) == f.inputs.end())
          fail(ErrorKind::kInvalid, "{} reads '{}', which is neither a function input nor produced in its body",
               b.label(), in);
        in = local(in);
      }
      for (std::string& o : n.outputs) {
        if (o.empty()) continue;
        if (std::find(f.inputs.begin(), f.inputs.end(), o) != f.inputs.end())
          fail(ErrorKind::kInvalid, "{} writes the function input '{}'", b.label(), o);
        o = local(o);
      }
      for (auto it = n.attrs.begin(); it != n.attrs.end();) {
        if (it->second.ref_attr_name.empty()) {
          ++it;
          continue;
        }
        auto v = bound.find(it->second.ref_attr_name);
        if (v == bound.end()) {
          it = n.attrs.erase(it);  // not given and no default: the attribute is absent
        } else {
          it->second = v->second;
          it->second.ref_attr_name.clear();
          ++it;
        }
      }
      if (!find(n)) {
        auto imp = f.opset_imports.find(n.domain);
        if (imp == f.opset_imports.end())
          fail(ErrorKind::kInvalid, "{} uses domain '{}', which the function does not import", b.label(),
               n.domain.empty() ? "ai.onnx" : n.domain);
        n.opset = imp->second;
      }
      expand(out, std::move(n));
    }
  }

  const std::vector<Function>& functions_;
  NameScope names_;
  std::vector<const Function*> stack_;
  std::map<const Function*, size_t> sizes_;
  size_t count_ = 0;
};

}  // namespace

void inline_functions(Model& m) {
  for (const Node& n : m.graph.nodes)
    for (const auto& [name, a] : n.attrs)
      if (!a.ref_attr_name.empty())
        fail(ErrorKind::kInvalid,
             "{}: attribute '{}' refers to '{}' (ref_attr_name), which only a function body may do", n.label(), name,
             a.ref_attr_name);
  if (m.functions.empty()) return;
  Inliner inliner(m.functions, m.graph);
  inliner.expanded_size(m.graph.nodes);
  std::vector<Node> out;
  for (Node& n : m.graph.nodes) inliner.expand(out, std::move(n));
  m.graph.nodes = std::move(out);
}

}  // namespace onnxrun
