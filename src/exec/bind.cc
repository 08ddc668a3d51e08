#include "exec/bind.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.h"
#include "core/fail.h"

namespace onnxrun {
namespace {

std::string input_list(const Graph& g) {
  std::vector<std::string> parts;
  for (const ValueInfo* v : g.required_inputs()) parts.push_back(fmt::format("{} ({})", v->name, describe(*v)));
  return parts.empty() ? "none" : fmt::format("{}", fmt::join(parts, ", "));
}

std::string from(const Feed& f) { return f.origin.empty() ? "" : fmt::format(" (from {})", f.origin); }

void check_against(const ValueInfo& decl, const Feed& f, std::map<std::string, int64_t>& symbols) {
  const Tensor& t = f.tensor;
  if (decl.dtype && *decl.dtype != t.dtype())
    fail(ErrorKind::kInput, "input '{}'{} is {} but the model declares {}", decl.name, from(f), t.describe(),
         describe(decl));
  if (!decl.shape) return;
  const auto& dims = *decl.shape;
  if (dims.size() != t.rank())
    fail(ErrorKind::kInput, "input '{}'{} has rank {} ({}) but the model declares rank {} ({})", decl.name, from(f),
         t.rank(), t.describe(), dims.size(), describe(decl));
  for (size_t k = 0; k < dims.size(); ++k) {
    const int64_t got = t.shape()[k];
    if (dims[k].fixed() && dims[k].value != got)
      fail(ErrorKind::kInput, "input '{}'{} has dim {} = {} but the model declares {} ({})", decl.name, from(f), k, got,
           dims[k].value, describe(decl));
    if (!dims[k].fixed() && !dims[k].param.empty()) {
      auto [it, fresh] = symbols.emplace(dims[k].param, got);
      if (!fresh && it->second != got)
        fail(ErrorKind::kInput, "input '{}'{} has dim {} = {}, but symbol '{}' is already bound to {}", decl.name,
             from(f), k, got, dims[k].param, it->second);
    }
  }
}

}  // namespace

std::map<std::string, Tensor> bind_inputs(const Graph& g, std::vector<Feed> feeds) {
  const auto required = g.required_inputs();
  std::map<std::string, Tensor> bound;
  std::map<std::string, std::string> origin_of;
  std::map<std::string, int64_t> symbols;
  for (Feed& f : feeds) {
    const ValueInfo* decl = nullptr;
    if (!f.name.empty()) {
      decl = g.find_input(f.name);
      if (!decl)
        fail(ErrorKind::kInput, "unknown input '{}'{}; the model's inputs are: {}", f.name, from(f), input_list(g));
    } else {
      if (f.position >= required.size())
        fail(ErrorKind::kInput, "input #{}{} has no graph input to bind to; the model takes {}: {}", f.position,
             from(f), required.size(), input_list(g));
      decl = required[f.position];
    }
    auto [it, fresh] = origin_of.emplace(decl->name, f.origin);
    if (!fresh)
      fail(ErrorKind::kInput, "input '{}' is given twice{}{}", decl->name,
           it->second.empty() ? "" : fmt::format(" ({} and {})", it->second, f.origin), "");
    check_against(*decl, f, symbols);
    bound[decl->name] = std::move(f.tensor);
  }
  for (const ValueInfo* v : required)
    if (!bound.count(v->name)) fail(ErrorKind::kInput, "missing input '{}' ({})", v->name, describe(*v));
  return bound;
}

}  // namespace onnxrun
