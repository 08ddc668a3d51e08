#include "suite/compare_sets.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <map>
#include <optional>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/fail.h"
#include "io/npy.h"
#include "io/output_names.h"
#include "io/result_files.h"
#include "model/load.h"

namespace onnxrun {
namespace {

// What a model says of the values it names: each one's place in the graph (inputs, then
// the nodes' outputs in (topological) node order, then the graph's outputs), and the
// declared types of its inputs and outputs.
struct ModelValues {
  std::map<std::string, size_t> order;
  std::map<std::string, DType> declared;
  std::vector<std::optional<DType>> outputs;  // the graph's outputs' declared types, in order
};

ModelValues model_values(const std::string& model) {
  ModelValues v;
  if (model.empty()) return v;
  const Model m = load_model(model);
  auto place = [&](const std::string& name) { v.order.emplace(name, v.order.size()); };
  for (const ValueInfo& i : m.graph.inputs) place(i.name);
  for (const Node& n : m.graph.nodes)
    for (const std::string& out : n.outputs) place(out);
  for (const ValueInfo& o : m.graph.outputs) place(o.name);
  for (const std::vector<ValueInfo>* values : {&m.graph.inputs, &m.graph.outputs})
    for (const ValueInfo& i : *values)
      if (i.dtype) v.declared.emplace(i.name, *i.dtype);
  for (const ValueInfo& o : m.graph.outputs) v.outputs.push_back(o.dtype);
  return v;
}

// The type the model declares for a value named `name`; the files of `-o DIR` name the
// graph's k-th output output_<k> (io/output_names.h).
std::optional<DType> declared_type(const ModelValues& model, const std::string& name) {
  if (const auto it = model.declared.find(name); it != model.declared.end()) return it->second;
  const std::optional<size_t> k = numbered_file_index(TensorRole::kOutputs, name);
  if (k && *k < model.outputs.size()) return model.outputs[*k];
  return std::nullopt;
}

// numpy has no bfloat16: a numpy side's uint16 bits are bfloat16 where the other side
// is, or, when both are numpy, where the model declares the value so (by either name).
std::optional<DType> declared_for(const ResultTensor& t, const ResultTensor& other, const ModelValues& model) {
  if (!t.numpy) return std::nullopt;
  if (!other.numpy) return other.dtype;
  std::optional<DType> declared = declared_type(model, t.name);
  if (!declared) declared = declared_type(model, other.name);
  return declared;
}

// The names of `set`.
std::vector<std::string> names_of(const std::vector<ResultTensor>& set) {
  std::vector<std::string> names;
  for (const ResultTensor& t : set) names.push_back(t.name);
  return names;
}

// A set holding a name more often than the other, which holds it too (y.npy, and z.pb
// whose TensorProto says y, against one y) is refused, as an .npz holding a name twice is:
// which of the two is the value cannot be told, and the other was reported "only in A".
// As often on both sides (two output_K.pb of one TensorProto name), they pair in order.
void refuse_unpairable_names(const std::string& path, const std::vector<ResultTensor>& set,
                             const std::vector<std::string>& other) {
  std::map<std::string, size_t> mine, theirs;
  for (const ResultTensor& t : set) ++mine[t.name];
  for (const std::string& name : other) ++theirs[name];
  std::map<std::string, const std::string*> first;  // name -> its first file
  for (const ResultTensor& t : set)
    if (const auto [it, fresh] = first.emplace(t.name, &t.file);
        !fresh && !t.name.empty() && theirs[t.name] > 0 && mine[t.name] > theirs[t.name])
      fail(ErrorKind::kInvalid, "{}: holds '{}' twice: {} and {}", path, t.name, *it->second, t.file);
}

// Elements per block of a streamed comparison: 1 MiB of float32 a side, so that two
// sets of any size are compared in a few MiB.
constexpr int64_t kBlockBytes = int64_t{1} << 20;

// Both sides read block by block, as often as the medians of the errors want. A large
// pair whose files take reads in any order is compared in parts side by side on `pool`
// (ComparisonBuilder::add_in_parts), each part a few MiB more.
Comparison compare_streams(const ResultTensor& a, DType a_type, const ResultTensor& b, DType b_type,
                           const Tolerance& tol, const CompareProgress& progress, ThreadPool* pool) {
  ComparisonBuilder builder(a_type, a.shape, b_type, b.shape, tol);
  const int64_t numel = checked_numel(a.shape);
  if (a_type != b_type || a.shape != b.shape || numel == 0) return builder.finish();
  const int64_t size = std::max<int64_t>(static_cast<int64_t>(dtype_size(a_type)), 1);
  const int64_t block = std::max<int64_t>(1, kBlockBytes / size);
  return builder.finish_in_passes([&](int pass) {
    TensorStream sa = a.open_stream(), sb = b.open_stream();
    std::atomic<int64_t> done{0};
    builder.add_in_parts(
        sa.any_order && sb.any_order ? pool : nullptr, [&](ComparisonBuilder& to, int64_t first, int64_t last) {
          Tensor ea(a_type, {std::min(block, last - first)}), eb(b_type, {std::min(block, last - first)});
          for (int64_t begin = first; begin < last; begin += block) {
            const int64_t n = std::min(block, last - begin);
            const auto offset = static_cast<size_t>(begin * size), bytes = static_cast<size_t>(n * size);
            sa.read(offset, ea.mutable_raw(), bytes);
            sb.read(offset, eb.mutable_raw(), bytes);
            to.add(begin, Tensor(a_type, {n}, ea.buffer()), Tensor(b_type, {n}, eb.buffer()));
            const int64_t so_far = done += n;
            if (first == 0 && progress) progress(a.name, pass, so_far, numel);  // one part tells
          }
        });
  });
}

Comparison compare_pair(const ResultTensor& a, const ResultTensor& b, const ModelValues& values, const Tolerance& tol,
                        const CompareProgress& progress, ThreadPool* pool) {
  const std::optional<DType> declared_a = declared_for(a, b, values), declared_b = declared_for(b, a, values);
  return compare_streams(a, a.type_as_declared(declared_a), b, b.type_as_declared(declared_b), tol, progress, pool);
}

}  // namespace

std::string SetsComparison::mismatch_summary() const {
  std::vector<std::string> differ;
  for (const ValuePair& p : values) {
    if (p.same()) continue;
    const std::string name = p.name.empty() ? (p.file_a.empty() ? p.file_b : p.file_a) : p.name;
    differ.push_back(fmt::format("{}: {}", name,
                                 p.comparison       ? p.comparison->brief()
                                 : p.file_a.empty() ? "only in B"
                                                    : "only in A"));
  }
  if (differ.empty()) return "";
  constexpr size_t kShown = 3;  // a line on stderr stays a line
  const size_t more = differ.size() > kShown ? differ.size() - kShown : 0;
  differ.resize(differ.size() - more);
  return fmt::format("{} of {} value{} differ{} ({}{})", differ.size() + more, values.size(),
                     values.size() == 1 ? "" : "s", differ.size() + more == 1 ? "s" : "", fmt::join(differ, "; "),
                     more ? fmt::format("; and {} more", more) : "");
}

SetsComparison compare_result_sets(const std::string& a, const std::string& b, const Tolerance& tol,
                                   const std::string& model, const CompareProgress& progress, ThreadPool* pool) {
  SetsComparison out;
  out.a = a;
  out.b = b;
  out.model = model;
  const ModelValues values = model_values(model);
  const std::map<std::string, size_t>& order = values.order;
  std::vector<ResultTensor> set_a = read_result_files(a);
  std::vector<ResultTensor> set_b = read_result_files(b);
  const std::vector<std::string> names_a = names_of(set_a), names_b = names_of(set_b);
  refuse_unpairable_names(a, set_a, names_b);
  refuse_unpairable_names(b, set_b, names_a);
  const std::vector<size_t> slot = match_by_name_then_position(names_a, names_b);

  std::vector<const ResultTensor*> partner(set_a.size(), nullptr);
  for (size_t k = 0; k < set_b.size(); ++k)
    if (slot[k] < set_a.size()) partner[slot[k]] = &set_b[k];
  for (size_t j = 0; j < set_a.size(); ++j) {
    ValuePair p;
    p.name = set_a[j].name;
    p.file_a = set_a[j].file;
    if (const ResultTensor* other = partner[j]) {
      p.file_b = other->file;
      p.comparison = compare_pair(set_a[j], *other, values, tol.for_output(p.name), progress, pool);
    }
    out.values.push_back(std::move(p));
  }
  for (size_t k = 0; k < set_b.size(); ++k)
    if (slot[k] == set_a.size()) out.values.push_back({set_b[k].name, "", set_b[k].file, std::nullopt});

  if (!order.empty()) {
    auto place = [&](const ValuePair& p) {
      const auto it = order.find(p.name);
      return it == order.end() ? order.size() : it->second;
    };
    std::stable_sort(out.values.begin(), out.values.end(),
                     [&](const ValuePair& x, const ValuePair& y) { return place(x) < place(y); });
  }
  for (size_t k = 0; k < out.values.size() && !out.first_divergent; ++k)
    if (!out.values[k].same()) out.first_divergent = k;
  return out;
}

}  // namespace onnxrun
