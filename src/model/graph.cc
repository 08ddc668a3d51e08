#include "model/graph.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.h"

namespace onnxrun {

std::string describe(const ValueInfo& v) {
  std::string type = v.dtype ? std::string(dtype_name(*v.dtype)) : "?";
  if (!v.shape) return type + "[...]";
  std::vector<std::string> dims;
  for (const Dim& d : *v.shape) dims.push_back(d.fixed() ? std::to_string(d.value) : !d.param.empty() ? d.param : "?");
  return fmt::format("{}[{}]", type, fmt::join(dims, ","));
}

bool shape_fits(const ValueInfo& v, const Shape& s) {
  if (!v.shape) return true;
  const std::vector<Dim>& dims = *v.shape;
  if (dims.size() != s.size()) return false;
  for (size_t k = 0; k < dims.size(); ++k)
    if (dims[k].fixed() && dims[k].value != s[k]) return false;
  return true;
}

// Names escaped (core/error.h printable): a label starts most messages about a node, and a
// newline in a name would start a line of the model's choosing in a CI log (`test`'s
// progress lines print a failure's message under the test's line).
std::string Node::label() const { return fmt::format("node '{}' ({})", printable(name), printable(op_type)); }

std::string Function::label() const {
  return fmt::format("function '{}' (domain {}{})", printable(name), printable(domain.empty() ? "ai.onnx" : domain),
                     overload.empty() ? "" : ", overload " + printable(overload));
}

std::vector<std::string> Graph::output_names() const {
  std::vector<std::string> names;
  for (const ValueInfo& v : outputs) names.push_back(v.name);
  return names;
}

std::vector<const ValueInfo*> Graph::required_inputs() const {
  std::vector<const ValueInfo*> out;
  for (const ValueInfo& v : inputs)
    if (!initializers.count(v.name)) out.push_back(&v);
  return out;
}

const ValueInfo* Graph::find_input(const std::string& value) const {
  for (const ValueInfo& v : inputs)
    if (v.name == value) return &v;
  return nullptr;
}

}  // namespace onnxrun
