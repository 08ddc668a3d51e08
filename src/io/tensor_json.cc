#include "io/tensor_json.h"

#include <cmath>
#include <cstdlib>
#include <utility>
#include <vector>

#include "core/element.h"
#include "io/shortest_number.h"
#include "io/tensor_text.h"

namespace onnxrun {
namespace {

using nlohmann::ordered_json;

ordered_json json_element(const Tensor& t, int64_t k) {
  switch (t.dtype()) {
    case DType::kBool: return element_as_double(t, k) != 0;
    case DType::kInt64: return t.data<int64_t>()[k];
    case DType::kUInt64: return t.data<uint64_t>()[k];
    case DType::kInt8:
    case DType::kUInt8:
    case DType::kInt16:
    case DType::kUInt16:
    case DType::kInt32:
    case DType::kUInt32:
      return static_cast<int64_t>(element_as_double(t, k));  // exact below 2^53
    // json_text writes a double in its shortest digits: those of the type's own shortest text.
    default: return json_real(std::strtod(format_element_shortest(t, k).c_str(), nullptr));
  }
}

}  // namespace

ordered_json json_real(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

ordered_json tensor_values_json(const Tensor& t) {
  if (t.dtype() == DType::kComplex64 || t.dtype() == DType::kComplex128 || !dtype_is_storable(t.dtype()))
    return nullptr;
  if (t.numel() == 0) return ordered_json::array();
  if (t.rank() == 0) return json_element(t, 0);
  const size_t r = t.rank(), last = r - 1;
  const Shape& shape = t.shape();
  std::vector<ordered_json> open(r, ordered_json::array());  // the list being filled at each axis
  std::vector<int64_t> done(r, 0);                           // items already in open[a]
  int64_t k = 0;
  for (;;) {
    for (int64_t i = 0; i < shape[last]; ++i) open[last].push_back(json_element(t, k++));
    size_t a = last;
    for (;;) {  // open[a] is complete: into its parent, and on to the parent's next item
      if (a == 0) return std::move(open[0]);
      open[a - 1].push_back(std::move(open[a]));
      open[a] = ordered_json::array();
      --a;
      if (++done[a] < shape[a]) break;
    }
    for (size_t b = a + 1; b < r; ++b) done[b] = 0;
  }
}

ordered_json tensor_stats_json(const TensorStats& s) {
  ordered_json j;
  if (!s.numeric) {
    j["count"] = s.count;
    return j;
  }
  if (s.count == 0) {
    j["empty"] = true;
    return j;
  }
  j["min"] = json_real(s.min);
  j["max"] = json_real(s.max);
  j["mean"] = json_real(s.mean);
  j["std"] = json_real(s.std);
  j["nan"] = s.nan;
  j["inf"] = s.pos_inf + s.neg_inf;
  return j;
}

ordered_json tensor_stats_json(const TensorStats& s, DType t) {
  ordered_json j = tensor_stats_json(s);
  // float16 and bfloat16 keep 3 or 4 digits: their mean and std are float32's, as numpy
  // computes theirs (numpy's mean of a float32 array is a float32).
  const DType spread = t == DType::kFloat16 || t == DType::kBFloat16 ? DType::kFloat : t;
  for (const auto& [key, type] : {std::pair{"min", t}, {"max", t}, {"mean", spread}, {"std", spread}})
    if (j.contains(key) && j[key].is_number()) j[key] = json_real_in_type(j[key].get<double>(), type);
  return j;
}

}  // namespace onnxrun
