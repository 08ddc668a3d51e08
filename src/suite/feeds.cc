#include "suite/feeds.h"

#include <fmt/format.h>

#include "core/error.h"
#include "core/fail.h"
#include "core/log.h"
#include "exec/bind.h"
#include "exec/random_inputs.h"
#include "io/input_file.h"
#include "io/npz.h"
#include "io/tensor_literal.h"
#include "suite/run_request.h"

namespace onnxrun {
namespace {

// The declared input a feed goes to: by name, else by position among required inputs.
const ValueInfo* target(const Graph& g, const std::string& name, size_t position) {
  if (!name.empty()) return g.find_input(name);
  const auto req = g.required_inputs();
  return position < req.size() ? req[position] : nullptr;
}

// A feed from "-i [NAME=]FILE" (.pb, .npy) or "-i [NAME=][literal]" (typed and shaped
// by the graph input it binds to, or by `shapes`); `source` says where values came from.
Feed feed_from_arg(const Graph& g, const std::string& arg, size_t position, const std::map<std::string, Shape>& shapes,
                   std::string& source) {
  Feed f;
  std::string value;
  std::tie(f.name, value) = split_input_arg(arg);
  f.position = position;
  f.origin = "-i " + arg;
  const ValueInfo* decl = target(g, f.name, position);
  if (is_tensor_literal(value)) {
    if (!decl)
      fail(ErrorKind::kInput, "-i {}: the model has no input {}", arg,
           f.name.empty() ? fmt::format("at position {}", position) : "'" + f.name + "'");
    std::optional<Shape> shape;
    if (auto it = shapes.find(decl->name); it != shapes.end()) shape = it->second;
    std::string overflow;
    f.tensor = parse_tensor_literal(value, decl->dtype.value_or(DType::kFloat), shape, "-i " + arg, &overflow);
    if (!overflow.empty()) log::warn("input '{}' (-i {}): {}", decl->name, arg, overflow);
    source = "literal";
  } else {
    f.tensor = read_input_file(value, declared_input_type(g, f.name, position)).tensor;
    source = value;
  }
  return f;
}

GatheredInputs in_graph_order(const Graph& g, std::map<std::string, Tensor> bound,
                              std::map<std::string, std::string>& sources) {
  GatheredInputs out;
  for (const ValueInfo* v : g.required_inputs()) out.values.push_back({v->name, bound.at(v->name), sources[v->name]});
  out.bound = std::move(bound);
  return out;
}

}  // namespace

std::optional<DType> declared_input_type(const Graph& g, const std::string& name, size_t position) {
  const ValueInfo* decl = target(g, name, position);
  return decl ? decl->dtype : std::nullopt;
}

std::pair<std::string, std::string> split_input_arg(const std::string& arg, const char* option) {
  const size_t eq = arg.find('=');
  // The text before '=' is a name unless it looks like a path or a literal.
  if (eq == std::string::npos || arg.find('/') < eq || arg.find('[') < eq) return {"", arg};
  std::string name = arg.substr(0, eq), value = arg.substr(eq + 1);
  if (name.empty() || value.empty())
    fail(ErrorKind::kUsage, "{} {}: expected [NAME=]FILE{} (for example {} x=in.npy)", option, arg,
         std::string(option) == "-i" ? " or [NAME=][v0,v1,...]" : "", option);
  return {name, value};
}

GatheredInputs given_inputs(const Graph& g, const RunRequest& r) {
  std::vector<Feed> feeds;
  std::vector<std::string> srcs;
  for (size_t k = 0; k < r.inputs.size(); ++k) {
    std::string src;
    feeds.push_back(feed_from_arg(g, r.inputs[k], k, r.shapes, src));
    srcs.push_back(src);
  }
  for (const std::string& path : r.npz)
    for (NamedArray& a :
         read_npz_file(path, [&](const std::string& name) { return declared_input_type(g, name, 0); })) {
      Feed f;
      f.name = a.name;
      f.origin = "--npz " + path;
      f.tensor = std::move(a.tensor);
      feeds.push_back(std::move(f));
      srcs.push_back(path);
    }
  std::map<std::string, std::string> sources;
  for (size_t k = 0; k < feeds.size(); ++k)
    if (const ValueInfo* decl = target(g, feeds[k].name, feeds[k].position)) sources[decl->name] = srcs[k];
  return in_graph_order(g, bind_inputs(g, std::move(feeds)), sources);
}

GatheredInputs made_up_inputs(const Graph& g, const RunRequest& r) {
  RandomInputSpec spec;
  spec.shapes = r.shapes;
  spec.seed = r.seed;
  spec.low = r.low;
  spec.high = r.high;
  spec.ranges = r.ranges;
  std::map<std::string, Tensor> bound = random_inputs(g, spec);
  std::map<std::string, std::string> sources;
  for (const auto& [name, t] : bound) sources[name] = "random";
  return in_graph_order(g, std::move(bound), sources);
}

}  // namespace onnxrun
