#include "proto_mutator.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "onnx/onnx.pb.h"

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace onnxrun::fuzz {
namespace {

using Rng = std::mt19937;

const char* const kOps[] = {"LeakyRelu", "Constant", "Cast", "CastLike", "Less", "Mul", "Where", "Relu", "", "F"};
const char* const kDomains[] = {"", "ai.onnx", "local", "com.microsoft", "ai.onnx.ml", "\xff"};
const char* const kAttrNames[] = {"alpha",        "to",        "saturate",   "value",        "value_float",
                                  "value_floats", "value_int", "value_ints", "value_string", "value_strings",
                                  "sparse_value", "",          "beta"};

size_t below(Rng& rng, size_t n) { return n ? std::uniform_int_distribution<size_t>(0, n - 1)(rng) : 0; }
bool coin(Rng& rng) { return below(rng, 2); }
template <typename T, size_t N>
const T& one_of(Rng& rng, const T (&a)[N]) {
  return a[below(rng, N)];
}
template <typename T>
T* one_of(Rng& rng, const std::vector<T*>& v) {
  return v.empty() ? nullptr : v[below(rng, v.size())];
}

int64_t special_int(Rng& rng) {
  static const int64_t kValues[] = {0,
                                    1,
                                    -1,
                                    2,
                                    3,
                                    7,
                                    255,
                                    1024,
                                    1025,
                                    int64_t{1} << 31,
                                    int64_t{1} << 32,
                                    int64_t{1} << 40,
                                    int64_t{1} << 62,
                                    std::numeric_limits<int32_t>::max(),
                                    std::numeric_limits<int32_t>::min(),
                                    std::numeric_limits<int64_t>::max(),
                                    std::numeric_limits<int64_t>::min()};
  return coin(rng) ? one_of(rng, kValues) : static_cast<int64_t>(below(rng, 40)) - 5;
}

float special_float(Rng& rng) {
  static const float kValues[] = {0.f,
                                  -0.f,
                                  1.f,
                                  -1.f,
                                  0.5f,
                                  0.01f,
                                  1e-45f,
                                  1e-38f,
                                  3.4e38f,
                                  65504.f,
                                  1e10f,
                                  std::numeric_limits<float>::quiet_NaN(),
                                  std::numeric_limits<float>::infinity(),
                                  -std::numeric_limits<float>::infinity()};
  return one_of(rng, kValues);
}

// The parts of the model edits are picked from (onnx.proto is compiled for the lite
// runtime: no reflection, so the walk is written out). Subgraphs of attributes too.
struct ModelView {
  onnx::ModelProto& proto;
  std::vector<onnx::NodeProto*> nodes;
  std::vector<onnx::TensorProto*> tensors;
  std::vector<onnx::ValueInfoProto*> values;
  std::vector<onnx::TensorShapeProto*> shapes;
  std::vector<onnx::TypeProto_Tensor*> tensor_types;
  std::vector<onnx::AttributeProto*> attributes;
  std::vector<onnx::OperatorSetIdProto*> opsets;
  std::vector<std::string> names;  // value names anywhere in the model

  explicit ModelView(onnx::ModelProto& p) : proto(p) {
    for (auto& o : *p.mutable_opset_import()) opsets.push_back(&o);
    if (p.has_graph()) graph(p.mutable_graph(), 0);
    for (auto& f : *p.mutable_functions()) {
      for (auto& o : *f.mutable_opset_import()) opsets.push_back(&o);
      for (auto& n : *f.mutable_node()) node(&n, 0);
      names.insert(names.end(), f.input().begin(), f.input().end());
      names.insert(names.end(), f.output().begin(), f.output().end());
    }
    for (auto* v : values) names.push_back(v->name());
    for (auto* t : tensors) names.push_back(t->name());
    for (auto* n : nodes) {
      names.insert(names.end(), n->input().begin(), n->input().end());
      names.insert(names.end(), n->output().begin(), n->output().end());
    }
  }

  std::string name(Rng& rng) const {
    switch (below(rng, 6)) {
      case 0: return "";
      case 1: return "\xff\xfe";
      case 2: return "v" + std::to_string(below(rng, 8));
      default: return names.empty() ? "X" : names[below(rng, names.size())];
    }
  }

 private:
  void type(onnx::TypeProto* t, int depth) {
    if (depth > 8) return;
    if (t->has_tensor_type()) {
      tensor_types.push_back(t->mutable_tensor_type());
      if (t->tensor_type().has_shape()) shapes.push_back(t->mutable_tensor_type()->mutable_shape());
    } else if (t->has_sequence_type() && t->sequence_type().has_elem_type()) {
      type(t->mutable_sequence_type()->mutable_elem_type(), depth + 1);
    } else if (t->has_optional_type() && t->optional_type().has_elem_type()) {
      type(t->mutable_optional_type()->mutable_elem_type(), depth + 1);
    }
  }
  void value(onnx::ValueInfoProto* v) {
    values.push_back(v);
    if (v->has_type()) type(v->mutable_type(), 0);
  }
  void graph(onnx::GraphProto* g, int depth) {
    if (depth > 8) return;
    for (auto& n : *g->mutable_node()) node(&n, depth);
    for (auto& t : *g->mutable_initializer()) tensors.push_back(&t);
    for (auto& v : *g->mutable_input()) value(&v);
    for (auto& v : *g->mutable_output()) value(&v);
    for (auto& v : *g->mutable_value_info()) value(&v);
  }
  void node(onnx::NodeProto* n, int depth) {
    nodes.push_back(n);
    for (auto& a : *n->mutable_attribute()) {
      attributes.push_back(&a);
      if (a.has_t()) tensors.push_back(a.mutable_t());
      for (auto& t : *a.mutable_tensors()) tensors.push_back(&t);
      if (a.has_g()) graph(a.mutable_g(), depth + 1);
      for (auto& g : *a.mutable_graphs()) graph(&g, depth + 1);
    }
  }
};

// --- targeted edits; each returns false when it found nothing to edit -----------------

bool edit_dims(ModelView& m, Rng& rng) {
  auto shapes = m.shapes;
  auto tensors = m.tensors;
  if (!shapes.empty() && (tensors.empty() || coin(rng))) {
    auto* s = one_of(rng, shapes);
    switch (below(rng, 5)) {
      case 0: {  // many dims
        const size_t n = coin(rng) ? 1025 : below(rng, 40);
        for (size_t i = 0; i < n; ++i) s->add_dim()->set_dim_value(1);
        return true;
      }
      case 1:
        if (s->dim_size()) s->mutable_dim()->RemoveLast();
        else s->add_dim()->set_dim_value(2);
        return true;
      case 2: s->add_dim()->set_dim_param(coin(rng) ? "N" : ""); return true;
      default:
        if (!s->dim_size()) return false;
        s->mutable_dim(below(rng, s->dim_size()))->set_dim_value(special_int(rng));
        return true;
    }
  }
  if (tensors.empty()) return false;
  auto* t = one_of(rng, tensors);
  switch (below(rng, 3)) {
    case 0: {
      const size_t n = coin(rng) ? 1025 : below(rng, 10);
      for (size_t i = 0; i < n; ++i) t->add_dims(1);
      return true;
    }
    case 1:
      if (t->dims_size()) t->mutable_dims()->RemoveLast();
      else t->add_dims(special_int(rng));
      return true;
    default:
      if (!t->dims_size()) t->add_dims(special_int(rng));
      else t->set_dims(below(rng, t->dims_size()), special_int(rng));
      return true;
  }
}

bool edit_data_type(ModelView& m, Rng& rng) {
  const int type = static_cast<int>(below(rng, 31));
  auto types = m.tensor_types;
  auto tensors = m.tensors;
  if (!types.empty() && (tensors.empty() || coin(rng))) {
    one_of(rng, types)->set_elem_type(type);
    return true;
  }
  if (tensors.empty()) return false;
  one_of(rng, tensors)->set_data_type(type);
  return true;
}

bool edit_value_name(ModelView& m, Rng& rng) {
  const std::string name = m.name(rng);
  switch (below(rng, 3)) {
    case 0:
      if (auto* v = one_of(rng, m.values)) {
        v->set_name(name);
        return true;
      }
      return false;
    case 1:
      if (auto* t = one_of(rng, m.tensors)) {
        t->set_name(name);
        return true;
      }
      return false;
    default: {
      auto* n = one_of(rng, m.nodes);
      if (!n) return false;
      if (coin(rng) && n->input_size()) n->set_input(below(rng, n->input_size()), name);
      else if (coin(rng) && n->output_size()) n->set_output(below(rng, n->output_size()), name);
      else if (coin(rng)) n->add_input(name);
      else n->add_output(name);
      return true;
    }
  }
}

bool edit_op(ModelView& m, Rng& rng) {
  auto* n = one_of(rng, m.nodes);
  if (!n) return false;
  if (below(rng, 4) == 0) n->set_domain(one_of(rng, kDomains));
  else n->set_op_type(one_of(rng, kOps));
  return true;
}

void set_attribute_value(onnx::AttributeProto* a, Rng& rng) {
  const int type = static_cast<int>(below(rng, 15));
  a->set_type(static_cast<onnx::AttributeProto::AttributeType>(type));
  switch (type) {
    case onnx::AttributeProto::FLOAT: a->set_f(special_float(rng)); break;
    case onnx::AttributeProto::INT:
      a->set_i(coin(rng) ? static_cast<int64_t>(below(rng, 31)) : special_int(rng));
      break;
    case onnx::AttributeProto::STRING: a->set_s(coin(rng) ? "" : "\xff"); break;
    case onnx::AttributeProto::TENSOR: {
      onnx::TensorProto* t = a->mutable_t();
      t->set_data_type(coin(rng) ? onnx::TensorProto::FLOAT : static_cast<int>(below(rng, 31)));
      const size_t n = below(rng, 4);
      for (size_t i = 0; i < n; ++i) t->add_dims(coin(rng) ? 2 : special_int(rng));
      t->set_raw_data(std::string(below(rng, 3) * 4, '\x3f'));
      break;
    }
    case onnx::AttributeProto::FLOATS:
      for (size_t i = below(rng, 4); i > 0; --i) a->add_floats(special_float(rng));
      break;
    case onnx::AttributeProto::INTS:
      for (size_t i = below(rng, 4); i > 0; --i) a->add_ints(special_int(rng));
      break;
    case onnx::AttributeProto::STRINGS:
      for (size_t i = below(rng, 3); i > 0; --i) a->add_strings("s");
      break;
    default:  // GRAPH, SPARSE_TENSOR, TYPE_PROTO, their lists, UNDEFINED: the type alone
      break;
  }
}

bool edit_attribute(ModelView& m, Rng& rng) {
  switch (below(rng, 4)) {
    case 0: {  // a new attribute
      auto* n = one_of(rng, m.nodes);
      if (!n) return false;
      onnx::AttributeProto* a = n->add_attribute();
      a->set_name(one_of(rng, kAttrNames));
      set_attribute_value(a, rng);
      return true;
    }
    case 1: {  // a reference to the calling node's attribute
      auto* a = one_of(rng, m.attributes);
      if (!a) return false;
      a->set_ref_attr_name(coin(rng) ? "alpha" : "");
      return true;
    }
    default: {
      auto* a = one_of(rng, m.attributes);
      if (!a) return false;
      if (coin(rng)) a->set_name(one_of(rng, kAttrNames));
      else set_attribute_value(a, rng);
      return true;
    }
  }
}

bool edit_opset(ModelView& m, Rng& rng) {
  auto opsets = m.opsets;
  if (opsets.empty() || below(rng, 4) == 0) {
    auto* o = m.proto.add_opset_import();
    o->set_domain(one_of(rng, kDomains));
    o->set_version(static_cast<int64_t>(below(rng, 31)));
    return true;
  }
  auto* o = one_of(rng, opsets);
  switch (below(rng, 4)) {
    case 0: o->set_domain(one_of(rng, kDomains)); return true;
    case 1: o->set_version(special_int(rng)); return true;
    default: o->set_version(static_cast<int64_t>(below(rng, 31))); return true;
  }
}

bool edit_nodes(ModelView& m, Rng& rng) {
  onnx::GraphProto* g = m.proto.mutable_graph();
  if (g->node_size() && coin(rng)) {  // remove one
    g->mutable_node()->SwapElements(static_cast<int>(below(rng, g->node_size())), g->node_size() - 1);
    g->mutable_node()->RemoveLast();
    return true;
  }
  onnx::NodeProto* n = g->add_node();
  if (g->node_size() > 1 && coin(rng)) {
    *n = g->node(static_cast<int>(below(rng, g->node_size() - 1)));
  } else {
    n->set_op_type(one_of(rng, kOps));
  }
  n->clear_input();
  n->clear_output();
  for (size_t i = 1 + below(rng, 3); i > 0; --i) n->add_input(m.name(rng));
  const std::string out = "n" + std::to_string(g->node_size());
  n->add_output(coin(rng) ? out : m.name(rng));
  if (coin(rng)) g->add_output()->set_name(out);
  return true;
}

// A node that calls a model-local function: either a graph node moved into a new
// function's body (the node becomes the call), or a function whose body calls another
// local function (or itself).
bool edit_functions(ModelView& m, Rng& rng) {
  const std::string name = "F" + std::to_string(m.proto.functions_size());
  onnx::FunctionProto* f = m.proto.add_functions();
  f->set_domain("local");
  f->set_name(name);
  auto* o = f->add_opset_import();
  o->set_domain("");
  o->set_version(coin(rng) ? 16 : static_cast<int64_t>(below(rng, 31)));
  if (coin(rng)) {
    auto* lo = f->add_opset_import();
    lo->set_domain("local");
    lo->set_version(1);
  }
  bool has_local = false;
  for (const auto& imp : m.proto.opset_import()) has_local |= imp.domain() == "local";
  if (!has_local) {
    auto* lo = m.proto.add_opset_import();
    lo->set_domain("local");
    lo->set_version(1);
  }
  onnx::GraphProto* g = m.proto.mutable_graph();
  onnx::NodeProto* body = f->add_node();
  if (g->node_size() && coin(rng)) {
    onnx::NodeProto* call = g->mutable_node(static_cast<int>(below(rng, g->node_size())));
    *body = *call;
    for (int i = 0; i < call->input_size(); ++i) {
      f->add_input("x" + std::to_string(i));
      body->set_input(i, f->input(i));
    }
    for (int i = 0; i < call->output_size(); ++i) {
      f->add_output("y" + std::to_string(i));
      body->set_output(i, f->output(i));
    }
    if (coin(rng)) {  // the attributes become the function's, referred to from the body
      for (auto& a : *body->mutable_attribute()) {
        f->add_attribute(a.name());
        const std::string attr = a.name();
        const auto type = a.type();
        a.Clear();
        a.set_name(attr);
        a.set_type(type);
        a.set_ref_attr_name(attr);
      }
    }
    call->set_domain("local");
    call->set_op_type(name);
    return true;
  }
  f->add_input("x");
  f->add_output("y");
  body->add_input("x");
  body->add_output("y");
  if (m.proto.functions_size() > 1 && coin(rng)) {  // nesting, or recursion
    body->set_domain("local");
    body->set_op_type(m.proto.functions(static_cast<int>(below(rng, m.proto.functions_size()))).name());
  } else {
    body->set_op_type(one_of(rng, kOps));
  }
  onnx::NodeProto* call = g->add_node();
  call->set_domain("local");
  call->set_op_type(name);
  call->add_input(m.name(rng));
  call->add_output(g->output_size() && coin(rng) ? g->output(0).name() : "f" + std::to_string(g->node_size()));
  return true;
}

bool edit_raw_data(ModelView& m, Rng& rng) {
  auto* t = one_of(rng, m.tensors);
  if (!t) return false;
  std::string* raw = t->mutable_raw_data();
  switch (below(rng, 5)) {
    case 0: raw->resize(below(rng, raw->size() + 1)); return true;
    case 1: raw->append(1 + below(rng, 8), static_cast<char>(below(rng, 256))); return true;
    case 2: raw->append(raw->size(), '\0'); return true;  // doubled
    case 3:                                               // external, with made-up keys
      t->clear_external_data();
      t->set_data_location(onnx::TensorProto::EXTERNAL);
      for (const char* key : {"location", "offset", "length"}) {
        auto* e = t->add_external_data();
        e->set_key(key);
        e->set_value(key[0] == 'l' && key[1] == 'o' ? (coin(rng) ? "data.bin" : "../data.bin")
                                                    : std::to_string(special_int(rng)));
      }
      return true;
    default:  // typed fields next to raw_data
      t->add_float_data(special_float(rng));
      t->add_int64_data(special_int(rng));
      return true;
  }
}

// The model's own fields: IR version, or the graph dropped.
bool edit_model_fields(ModelView& m, Rng& rng) {
  switch (below(rng, 4)) {
    case 0: m.proto.set_ir_version(special_int(rng)); return true;
    case 1: m.proto.clear_graph(); return true;
    case 2: m.proto.clear_opset_import(); return true;
    default: m.proto.set_ir_version(static_cast<int64_t>(below(rng, 14))); return true;
  }
}

bool edit(onnx::ModelProto& proto, Rng& rng) {
  ModelView m(proto);
  switch (below(rng, 10)) {
    case 0: return edit_dims(m, rng);
    case 1: return edit_data_type(m, rng);
    case 2: return edit_value_name(m, rng);
    case 3: return edit_op(m, rng);
    case 4: return edit_attribute(m, rng);
    case 5: return edit_opset(m, rng);
    case 6: return edit_nodes(m, rng);
    case 7: return edit_functions(m, rng);
    case 8: return edit_raw_data(m, rng);
    default: return below(rng, 3) ? edit_functions(m, rng) : edit_model_fields(m, rng);
  }
}

}  // namespace

size_t mutate_model(uint8_t* data, size_t size, size_t max_size, unsigned seed) {
  Rng rng(seed);
  const size_t cap = std::min(max_size, kMaxMutatedModelBytes);
  if (below(rng, 5) != 0 && size <= cap) {
    onnx::ModelProto model;
    if (model.ParseFromArray(data, static_cast<int>(size))) {
      for (int attempt = 0; attempt < 4; ++attempt)
        if (edit(model, rng)) break;
      std::string out;
      if (model.SerializeToString(&out) && out.size() <= cap) {
        std::memcpy(data, out.data(), out.size());
        return out.size();
      }
    }
  }
  return LLVMFuzzerMutate(data, size, max_size);
}

}  // namespace onnxrun::fuzz

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
  return onnxrun::fuzz::mutate_model(data, size, max_size, seed);
}
