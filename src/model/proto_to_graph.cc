#include "model/proto_to_graph.h"

#include <set>

#include "core/error.h"
#include "io/external_data.h"
#include "io/tensor_proto.h"
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
    fail(ErrorKind::kUnsupported, "'{}' is not a tensor (sequence, map, optional and sparse values are not supported)",
         v.name);
  const auto& tt = p.type().tensor_type();
  if (tt.has_elem_type() && tt.elem_type() != 0) {
    auto t = dtype_from_onnx(tt.elem_type());
    if (!t) fail(ErrorKind::kInvalid, "'{}' has unknown element type {}", v.name, tt.elem_type());
    v.dtype = *t;
  }
  if (tt.has_shape()) {
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
    case AP::FLOAT: a.kind = AttrKind::kFloat; a.f = p.f(); break;
    case AP::INT: a.kind = AttrKind::kInt; a.i = p.i(); break;
    case AP::STRING: a.kind = AttrKind::kString; a.s = p.s(); break;
    case AP::TENSOR:
      a.kind = AttrKind::kTensor;
      if (p.t().data_location() == onnx::TensorProto::EXTERNAL)
        fail(ErrorKind::kUnsupported, "attribute '{}': tensors with external data are not supported", p.name());
      a.t = tensor_from_proto(p.t());
      break;
    case AP::FLOATS: a.kind = AttrKind::kFloats; a.floats.assign(p.floats().begin(), p.floats().end()); break;
    case AP::INTS: a.kind = AttrKind::kInts; a.ints.assign(p.ints().begin(), p.ints().end()); break;
    case AP::STRINGS: a.kind = AttrKind::kStrings; a.strings.assign(p.strings().begin(), p.strings().end()); break;
    case AP::UNDEFINED: break;  // a reference without a declared type
    default:
      fail(ErrorKind::kUnsupported, "attribute '{}' has type {}, which onnx-run does not support", p.name(),
           AP::AttributeType_Name(type));
  }
  return a;
}

Node node_from_proto(const onnx::NodeProto& p, size_t index) {
  Node n;
  n.name = p.name().empty() ? "#" + std::to_string(index) : p.name();
  n.op_type = p.op_type();
  n.domain = canonical_domain(p.domain());
  if (n.op_type.empty()) fail(ErrorKind::kInvalid, "node '{}' has no op_type", n.name);
  n.inputs.assign(p.input().begin(), p.input().end());
  n.outputs.assign(p.output().begin(), p.output().end());
  for (const auto& ap : p.attribute()) {
    if (ap.name().empty()) fail(ErrorKind::kInvalid, "{}: an attribute has no name", n.label());
    try {
      if (!n.attrs.emplace(ap.name(), attribute_from_proto(ap)).second)
        fail(ErrorKind::kInvalid, "attribute '{}' is given twice", ap.name());
    } catch (const Error& e) {
      throw e.with_context(n.label());
    }
  }
  return n;
}

}  // namespace

Model model_from_proto(const onnx::ModelProto& proto, const std::string& base_dir) {
  Model m;
  m.meta.ir_version = proto.ir_version();
  m.meta.producer_name = proto.producer_name();
  m.meta.producer_version = proto.producer_version();
  m.meta.domain = proto.domain();
  m.meta.model_version = proto.model_version();
  m.meta.doc = proto.doc_string();
  if (!proto.has_graph()) fail(ErrorKind::kInvalid, "the model has no graph");

  Graph& g = m.graph;
  for (const auto& imp : proto.opset_import()) {
    const std::string domain = canonical_domain(imp.domain());
    if (imp.version() < 1)
      fail(ErrorKind::kInvalid, "opset_import for domain '{}' has version {}", imp.domain(), imp.version());
    if (!g.opset_imports.emplace(domain, imp.version()).second)
      fail(ErrorKind::kInvalid, "opset_import names domain '{}' twice", domain.empty() ? "ai.onnx" : domain);
  }
  if (proto.functions_size() > 0)
    fail(ErrorKind::kUnsupported, "model-local functions are not supported yet ({} defined)", proto.functions_size());

  const onnx::GraphProto& gp = proto.graph();
  g.name = gp.name();
  for (const auto& vi : gp.input()) g.inputs.push_back(value_info_from_proto(vi));
  for (const auto& vi : gp.output()) g.outputs.push_back(value_info_from_proto(vi));
  if (gp.sparse_initializer_size() > 0) fail(ErrorKind::kUnsupported, "sparse initializers are not supported");
  for (const auto& tp : gp.initializer()) {
    if (tp.name().empty()) fail(ErrorKind::kInvalid, "an initializer has no name");
    Tensor t;
    try {
      t = tensor_from_proto_in(tp, base_dir);
    } catch (const Error& e) {
      throw e.with_context(fmt::format("initializer '{}'", tp.name()));
    }
    if (!g.initializers.emplace(tp.name(), std::move(t)).second)
      fail(ErrorKind::kInvalid, "initializer '{}' is given twice", tp.name());
  }
  for (int i = 0; i < gp.node_size(); ++i) g.nodes.push_back(node_from_proto(gp.node(i), static_cast<size_t>(i)));
  return m;
}

}  // namespace onnxrun
