#include "suite/feeds.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.h"
#include "core/fail.h"
#include "core/log.h"
#include "exec/random_inputs.h"
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

// A file brings its input's shape, as a test set does: a --shape that says another
// would otherwise be dropped without a word. One that agrees is harmless.
InputSource checked_against_shapes(InputSource in, const Graph& g, const std::map<std::string, Shape>& shapes) {
  const ValueInfo* decl = target(g, in.feed.name, in.feed.position);
  const auto it = decl ? shapes.find(decl->name) : shapes.end();
  if (it != shapes.end() && it->second != in.stream.shape)
    fail(ErrorKind::kUsage,
         "--shape {}={}: input '{}' is given by {}, whose shape is {}; --shape is for made-up inputs and -i literals",
         decl->name, fmt::join(it->second, ","), decl->name, in.feed.origin, shape_to_string(in.stream.shape));
  return in;
}

// "-i [NAME=]FILE" (.pb, .npy) or "-i [NAME=][literal]" (typed and shaped by the graph
// input it binds to, or by `shapes`).
InputSource open_arg(const Graph& g, const std::string& arg, size_t position,
                     const std::map<std::string, Shape>& shapes) {
  const auto [name, value] = split_input_arg(arg);
  if (!is_tensor_literal(value))
    return checked_against_shapes(input_source(open_tensor_stream(value, declared_input_type(g, name, position)), name,
                                               position, "-i " + arg, value),
                                  g, shapes);
  const ValueInfo* decl = target(g, name, position);
  if (!decl)
    fail(ErrorKind::kInput, "-i {}: the model has no input {}", arg,
         name.empty() ? fmt::format("at position {}", position) : "'" + name + "'");
  std::optional<Shape> shape;
  if (auto it = shapes.find(decl->name); it != shapes.end()) shape = it->second;
  std::string overflow;
  Tensor t = parse_tensor_literal(value, decl->dtype.value_or(DType::kFloat), shape, "-i " + arg, &overflow);
  if (!overflow.empty()) log::warn("input '{}' (-i {}): {}", decl->name, arg, overflow);
  return input_source(memory_stream("", std::move(t), "-i " + arg), name, position, "-i " + arg, "literal");
}

}  // namespace

InputSource input_source(TensorStream stream, std::string name, size_t position, std::string origin,
                         std::string source) {
  InputSource in;
  in.feed.name = std::move(name);
  in.feed.position = position;
  in.feed.origin = std::move(origin);
  in.feed.tensor = Tensor(stream.dtype, stream.shape, Buffer::borrow(nullptr, stream.nbytes(), nullptr, false));
  in.stream = std::move(stream);
  in.source = std::move(source);
  return in;
}

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

std::vector<InputSource> open_given_inputs(const Graph& g, const RunRequest& r) {
  check_shape_names(g, r.shapes);  // the shapes of -i literals
  std::vector<InputSource> inputs;
  for (size_t k = 0; k < r.inputs.size(); ++k) inputs.push_back(open_arg(g, r.inputs[k], k, r.shapes));
  for (const std::string& path : r.npz)
    for (TensorStream& s :
         open_npz_streams(path, [&](const std::string& member) { return declared_input_type(g, member, 0); })) {
      std::string name = s.name;
      inputs.push_back(
          checked_against_shapes(input_source(std::move(s), std::move(name), 0, "--npz " + path, path), g, r.shapes));
    }
  return inputs;
}

GatheredInputs read_inputs(const Graph& g, std::vector<InputSource> inputs) {
  std::vector<Feed> feeds;
  std::map<std::string, std::string> sources;
  for (InputSource& in : inputs) {
    in.feed.tensor = read_whole(in.stream);
    if (const ValueInfo* decl = target(g, in.feed.name, in.feed.position)) sources[decl->name] = in.source;
    feeds.push_back(std::move(in.feed));
  }
  GatheredInputs out;
  out.bound = bind_inputs(g, std::move(feeds));
  for (const ValueInfo* v : g.required_inputs())
    out.values.push_back({v->name, out.bound.at(v->name), sources[v->name]});
  return out;
}

std::vector<InputSource> made_up_inputs(const Graph& g, const RunRequest& r) {
  RandomInputSpec spec;
  spec.shapes = r.shapes;
  spec.seed = r.seed;
  spec.low = r.low;
  spec.high = r.high;
  spec.ranges = r.ranges;
  std::vector<InputSource> inputs;
  for (auto& [name, t] : random_inputs(g, spec))
    inputs.push_back(input_source(memory_stream(name, std::move(t), "random input '" + name + "'"), name, 0,
                                  "made up for '" + name + "'", "random"));
  return inputs;
}

}  // namespace onnxrun
