#include "model/proto_to_graph.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include <fmt/core.h>

#include "core/error.h"
#include "core/fail.h"
#include "io/external_data.h"
#include "io/tensor_proto.h"
#include "model/proto_newer_fields.h"
#include "onnx/onnx.pb.h"
#include "ops/registry.h"

namespace onnxrun {
namespace {

ValueInfo value_info_from_proto(const onnx::ValueInfoProto& p) {
  ValueInfo v;
  v.name = p.name();
  if (v.name.empty()) fail(ErrorKind::kInvalid, "a graph input or output has no name");
  if (!p.has_type()) return v;
  if (!p.type().has_tensor_type())
    fail_unsupported(Cause{Cause::Kind::kFeature, "", "", 0, "", "non-tensor value"},
                     "'{}' is not a tensor (sequence, map, optional and sparse values are not supported)", v.name);
  const auto& tt = p.type().tensor_type();
  if (tt.has_elem_type() && tt.elem_type() != 0) {
    auto t = dtype_from_onnx(tt.elem_type());
    if (!t) fail(ErrorKind::kInvalid, "'{}' has unknown element type {}", v.name, tt.elem_type());
    v.dtype = *t;
  }
  if (tt.has_shape()) {
    try {
      check_rank(static_cast<size_t>(tt.shape().dim_size()));
    } catch (const Error& e) {
      throw e.with_context(fmt::format("'{}'", v.name));
    }
    std::vector<Dim> dims;
    for (const auto& d : tt.shape().dim()) {
      Dim dim;
      if (d.has_dim_value()) {
        if (d.dim_value() < 0) fail(ErrorKind::kInvalid, "'{}' declares negative dimension {}", v.name, d.dim_value());
        dim.value = d.dim_value();
      } else if (d.has_dim_param()) {
        dim.param = d.dim_param();
      }
      dims.push_back(dim);
    }
    v.shape = std::move(dims);
  }
  return v;
}

Attribute attribute_from_proto(const onnx::AttributeProto& p) {
  Attribute a;
  a.ref_attr_name = p.ref_attr_name();
  using AP = onnx::AttributeProto;
  AP::AttributeType type = p.type();
  // IR < 2 files may leave the type unset; take it from the one field that is set.
  if (type == AP::UNDEFINED) {
    if (p.has_f()) type = AP::FLOAT;
    else if (p.has_i()) type = AP::INT;
    else if (p.has_s()) type = AP::STRING;
    else if (p.has_t()) type = AP::TENSOR;
    else if (p.floats_size()) type = AP::FLOATS;
    else if (p.ints_size()) type = AP::INTS;
    else if (p.strings_size()) type = AP::STRINGS;
    else if (a.ref_attr_name.empty()) fail(ErrorKind::kInvalid, "attribute '{}' has no type and no value", p.name());
  }
  switch (type) {
    case AP::FLOAT:
      a.kind = AttrKind::kFloat;
      a.f = p.f();
      break;
    case AP::INT:
      a.kind = AttrKind::kInt;
      a.i = p.i();
      break;
    case AP::STRING:
      a.kind = AttrKind::kString;
      a.s = p.s();
      break;
    case AP::TENSOR:
      a.kind = AttrKind::kTensor;
      if (p.t().data_location() == onnx::TensorProto::EXTERNAL)
        fail_unsupported(Cause{Cause::Kind::kFeature, "", "", 0, "", "external data"},
                         "attribute '{}': tensors with external data are not supported", p.name());
      a.t = tensor_from_proto(p.t());
      break;
    case AP::FLOATS:
      a.kind = AttrKind::kFloats;
      a.floats.assign(p.floats().begin(), p.floats().end());
      break;
    case AP::INTS:
      a.kind = AttrKind::kInts;
      a.ints.assign(p.ints().begin(), p.ints().end());
      break;
    case AP::STRINGS:
      a.kind = AttrKind::kStrings;
      a.strings.assign(p.strings().begin(), p.strings().end());
      break;
    case AP::UNDEFINED: break;  // a reference without a declared type
    default:
      fail_unsupported(Cause{Cause::Kind::kFeature, "", "", 0, "", "attribute type " + AP::AttributeType_Name(type)},
                       "attribute '{}' has type {}, which onnx-run does not support", p.name(),
                       AP::AttributeType_Name(type));
  }
  return a;
}

// The (domain, op_type) of each node of `g` and of the graphs inside it (protobuf's
// parser bounds how deep they nest).
void collect_ops(const onnx::GraphProto& g, std::vector<std::pair<std::string, std::string>>& out) {
  for (const onnx::NodeProto& n : g.node()) {
    out.emplace_back(canonical_domain(n.domain()), n.op_type());
    for (const onnx::AttributeProto& a : n.attribute()) {
      if (a.has_g()) collect_ops(a.g(), out);
      for (const onnx::GraphProto& sub : a.graphs()) collect_ops(sub, out);
    }
  }
}

Node node_from_proto(const onnx::NodeProto& p, size_t index) {
  Node n;
  n.name = p.name().empty() ? "#" + std::to_string(index) : p.name();
  n.op_type = p.op_type();
  n.domain = canonical_domain(p.domain());
  if (n.op_type.empty()) fail(ErrorKind::kInvalid, "node '{}' has no op_type", n.name);
  n.inputs.assign(p.input().begin(), p.input().end());
  n.outputs.assign(p.output().begin(), p.output().end());
  n.overload = node_proto_overload(p);
  for (const auto& ap : p.attribute()) {
    if (ap.name().empty()) fail(ErrorKind::kInvalid, "{}: an attribute has no name", n.label());
    try {
      if (!n.attrs.emplace(ap.name(), attribute_from_proto(ap)).second)
        fail(ErrorKind::kInvalid, "attribute '{}' is given twice", ap.name());
    } catch (const Error& e) {
      // An attribute onnx-run reads nowhere (the GRAPH of an If, a Loop, a Scan) makes the
      // node one that cannot run, not the model one that cannot load: `info` and `verify`
      // describe the rest, and resolution gives the better reason where there is one
      // (model/resolve.cc: the operator not implemented).
      if (e.kind() != ErrorKind::kUnsupported) throw e.with_context(n.label());
      if (!n.problem) n.problem = e.with_context(n.label());
    }
    if (ap.has_g()) collect_ops(ap.g(), n.subgraph_ops);
    for (const onnx::GraphProto& sub : ap.graphs()) collect_ops(sub, n.subgraph_ops);
  }
  return n;
}

std::map<std::string, int64_t> opsets_from_proto(
    const google::protobuf::RepeatedPtrField<onnx::OperatorSetIdProto>& imports) {
  std::map<std::string, int64_t> out;
  for (const auto& imp : imports) {
    const std::string domain = canonical_domain(imp.domain());
    if (imp.version() < 1)
      fail(ErrorKind::kInvalid, "opset_import for domain '{}' has version {}", imp.domain(), imp.version());
    if (!out.emplace(domain, imp.version()).second)
      fail(ErrorKind::kInvalid, "opset_import names domain '{}' twice", domain.empty() ? "ai.onnx" : domain);
  }
  return out;
}

Function function_from_proto(const onnx::FunctionProto& p) {
  Function f;
  f.name = p.name();
  f.domain = canonical_domain(p.domain());
  const FunctionProtoExtras extras = function_proto_extras(p);
  f.overload = extras.overload;
  if (f.name.empty()) fail(ErrorKind::kInvalid, "a model function has no name");
  try {
    f.inputs.assign(p.input().begin(), p.input().end());
    f.outputs.assign(p.output().begin(), p.output().end());
    std::set<std::string> seen;
    for (const std::string& v : f.inputs)
      if (v.empty() || !seen.insert(v).second) fail(ErrorKind::kInvalid, "input name '{}' is empty or repeated", v);
    for (const std::string& v : f.outputs)
      if (v.empty() || !seen.insert(v).second) fail(ErrorKind::kInvalid, "output name '{}' is empty or repeated", v);
    std::set<std::string> attr_names;
    for (const std::string& a : p.attribute()) {
      if (a.empty() || !attr_names.insert(a).second)
        fail(ErrorKind::kInvalid, "attribute '{}' is empty or repeated", a);
      f.attributes.push_back(a);
    }
    for (const onnx::AttributeProto& ap : extras.attribute_protos) {
      if (ap.name().empty() || !attr_names.insert(ap.name()).second)
        fail(ErrorKind::kInvalid, "attribute '{}' is empty or repeated", ap.name());
      try {
        f.attribute_defaults.emplace(ap.name(), attribute_from_proto(ap));
      } catch (const Error& e) {
        throw e.with_context(fmt::format("default of attribute '{}'", ap.name()));
      }
    }
    f.opset_imports = opsets_from_proto(p.opset_import());
    for (int i = 0; i < p.node_size(); ++i) f.nodes.push_back(node_from_proto(p.node(i), static_cast<size_t>(i)));
  } catch (const Error& e) {
    throw e.with_context(f.label());
  }
  return f;
}

// The view load_model left for initializer `tp` when skim_model took its raw_data out.
const Tensor* unread_view(const std::map<std::string, Tensor>* unread, const onnx::TensorProto& tp) {
  if (!unread || tp.has_raw_data()) return nullptr;
  const auto it = unread->find(tp.name());
  return it == unread->end() ? nullptr : &it->second;
}

}  // namespace

Model model_from_proto(const onnx::ModelProto& proto, const std::string& base_dir,
                       const std::map<std::string, Tensor>* unread) {
  Model m;
  m.meta.ir_version = proto.ir_version();
  m.meta.producer_name = proto.producer_name();
  m.meta.producer_version = proto.producer_version();
  m.meta.domain = proto.domain();
  m.meta.model_version = proto.model_version();
  m.meta.doc = proto.doc_string();
  if (!proto.has_graph()) fail(ErrorKind::kInvalid, "the model has no graph");

  Graph& g = m.graph;
  g.opset_imports = opsets_from_proto(proto.opset_import());
  std::set<std::tuple<std::string, std::string, std::string>> function_keys;
  for (const auto& fp : proto.functions()) {
    Function f = function_from_proto(fp);
    if (!function_keys.emplace(f.domain, f.name, f.overload).second)
      fail(ErrorKind::kInvalid, "{} is defined twice", f.label());
    m.functions.push_back(std::move(f));
  }

  const onnx::GraphProto& gp = proto.graph();
  g.name = gp.name();
  for (const auto& vi : gp.input()) g.inputs.push_back(value_info_from_proto(vi));
  for (const auto& vi : gp.output()) g.outputs.push_back(value_info_from_proto(vi));
  for (const auto& vi : gp.value_info()) {
    try {
      g.value_info.push_back(value_info_from_proto(vi));
    } catch (const Error&) {  // a sequence, an unknown type: it declares nothing verify can hold a tensor to
    }
  }
  if (gp.sparse_initializer_size() > 0)
    fail_unsupported(Cause{Cause::Kind::kFeature, "", "", 0, "", "sparse tensors"},
                     "sparse initializers are not supported");
  for (const auto& tp : gp.initializer()) {
    if (tp.name().empty()) fail(ErrorKind::kInvalid, "an initializer has no name");
    Tensor t;
    try {
      const Tensor* view = unread_view(unread, tp);
      t = view ? *view : tensor_from_proto_in(tp, base_dir);
    } catch (const Error& e) {
      throw e.with_context(fmt::format("initializer '{}'", tp.name()));
    }
    if (!g.initializers.emplace(tp.name(), std::move(t)).second)
      fail(ErrorKind::kInvalid, "initializer '{}' is given twice", tp.name());
    if (const std::string file = external_data_file(tp, base_dir);
        !file.empty() && std::find(m.data_files.begin(), m.data_files.end(), file) == m.data_files.end())
      m.data_files.push_back(file);
  }
  for (int i = 0; i < gp.node_size(); ++i) g.nodes.push_back(node_from_proto(gp.node(i), static_cast<size_t>(i)));
  return m;
}

}  // namespace onnxrun
