#include "exec/random_inputs.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <random>

#include <fmt/ranges.h>

#include "core/error.h"
#include "core/fail.h"
#include "core/half.h"
#include "core/log.h"

namespace onnxrun {

void check_shape_names(const Graph& g, const std::map<std::string, Shape>& shapes) {
  for (const auto& entry : shapes)
    if (!g.find_input(entry.first))
      fail(ErrorKind::kUsage, "--shape names '{}', which is not an input of the model", entry.first);
}

std::map<std::string, Shape> resolve_input_shapes(const Graph& g, const std::map<std::string, Shape>& given) {
  check_shape_names(g, given);
  std::map<std::string, int64_t> symbols;
  for (const auto& [name, shape] : given) {
    const ValueInfo* decl = g.find_input(name);
    // An input its initializer gives is not made up: the --shape would be dropped unsaid.
    if (g.initializers.count(name))
      fail(ErrorKind::kUsage,
           "--shape {}={}: input '{}' is given by the model's initializer ({}); --shape is for made-up inputs and -i "
           "literals",
           name, fmt::join(shape, ","), name, shape_to_string(g.initializers.at(name).shape()));
    if (!decl->shape) continue;
    const auto& dims = *decl->shape;
    if (dims.size() != shape.size())
      fail(ErrorKind::kInput, "--shape {}={}: the model declares rank {} ({})", name, shape_to_string(shape),
           dims.size(), describe(*decl));
    for (size_t k = 0; k < dims.size(); ++k) {
      if (shape[k] < 0) fail(ErrorKind::kUsage, "--shape {}: negative dimension", name);
      if (dims[k].fixed() && dims[k].value != shape[k])
        fail(ErrorKind::kInput, "--shape {}={}: dim {} is fixed at {} ({})", name, shape_to_string(shape), k,
             dims[k].value, describe(*decl));
      if (!dims[k].param.empty()) {
        auto [it, fresh] = symbols.emplace(dims[k].param, shape[k]);
        if (!fresh && it->second != shape[k])
          fail(ErrorKind::kInput, "--shape {}: symbol '{}' is {} here but {} elsewhere", name, dims[k].param, shape[k],
               it->second);
      }
    }
  }
  std::map<std::string, Shape> out;
  for (const ValueInfo* v : g.required_inputs()) {
    if (auto it = given.find(v->name); it != given.end()) {
      out[v->name] = it->second;
      continue;
    }
    if (!v->shape)
      fail(ErrorKind::kUsage, "input '{}' declares no shape; give one with --shape {}=d0,d1,...", v->name, v->name);
    Shape s;
    for (size_t k = 0; k < v->shape->size(); ++k) {
      const Dim& d = (*v->shape)[k];
      if (d.fixed()) {
        s.push_back(d.value);
      } else if (auto sym = symbols.find(d.param); !d.param.empty() && sym != symbols.end()) {
        s.push_back(sym->second);
      } else {
        // Polygraphy's default: a run that says what it chose beats one that refuses.
        log::warn("input '{}' ({}): dim {} ({}) set to 1; give the shape with --shape {}=d0,d1,...", v->name,
                  describe(*v), k, d.param.empty() ? "unknown" : "'" + d.param + "'", v->name);
        if (!d.param.empty()) symbols.emplace(d.param, 1);
        s.push_back(1);
      }
    }
    out[v->name] = s;
  }
  return out;
}

namespace {

// A value uniform in [low, high]: u * (high - low) + low with u from generate_canonical,
// which is what std::uniform_real_distribution<double>(low, high) computed here before,
// bit for bit wherever high - low is finite, so that a seed still makes the same inputs.
// Where the width overflows (bounds near the double's largest, of both signs) it is taken
// on the halves, exact there, and kept within [low, high]: it made every value +inf.
double uniform(std::mt19937_64& rng, double low, double high) {
  const double u = std::generate_canonical<double, std::numeric_limits<double>::digits>(rng);
  if (std::isfinite(high - low)) return u * (high - low) + low;
  return std::clamp((u * (high / 2 - low / 2) + low / 2) * 2, low, high);
}

// The largest finite value of a float type; 0 for other types (no bound applies).
double largest_finite(DType type) {
  switch (type) {
    case DType::kFloat: return std::numeric_limits<float>::max();
    case DType::kDouble: return std::numeric_limits<double>::max();
    case DType::kFloat16: return float16_to_float(0x7bff);
    case DType::kBFloat16: return bfloat16_to_float(0x7f7f);
    default: return 0;
  }
}

// `bits`, a value of a sign-magnitude float type that `value` reads, moved one step
// toward [low, high] where rounding to the type left it outside: a made-up value stays in
// the range asked for (bfloat16 rounds 65504 to 65536, float 0.1 to 0.100000001). Kept
// as it is when the step does not reach the range either (no value of the type lies in it).
template <typename Bits, typename Value>
Bits into_range(Bits bits, double low, double high, Value value) {
  const double v = value(bits);
  const Bits magnitude = bits & static_cast<Bits>(~(Bits{1} << (sizeof(Bits) * 8 - 1)));
  if ((v >= low && v <= high) || std::isnan(v) || magnitude == 0) return bits;
  const bool shrink = (v > high) != std::signbit(v);  // above and positive, or below and negative
  const Bits step = shrink ? static_cast<Bits>(bits - 1) : static_cast<Bits>(bits + 1);
  const double w = value(step);
  return w >= low && w <= high ? step : bits;
}

template <typename T, typename Next>
void fill(Tensor& t, Next next) {
  T* p = t.mutable_data<T>();
  for (int64_t k = 0; k < t.numel(); ++k) p[k] = next();
}

// Integers uniform over those of [low, high] that `Limits` holds, stored as `I`: a uint8
// takes 0 and 1 of the default [-1, 1], never 255 (-1 cut to its low bits), and a bool
// (0 and 1, in a byte) takes 1 alone of --range 1,1. A range holding none is refused.
// Drawn as int64 (uint64 for a uint64), as every integer type always was, so a seed
// gives the values it gave wherever they were in range.
template <typename I, typename Limits = std::numeric_limits<I>>
void fill_integers(Tensor& t, std::mt19937_64& rng, double low, double high) {
  const double lo = std::ceil(low), hi = std::floor(high);
  if (lo > hi) fail(ErrorKind::kUsage, "value range [{}, {}] holds no integer", low, high);
  using Draw = std::conditional_t<std::is_same_v<I, uint64_t>, uint64_t, int64_t>;
  const auto least = static_cast<double>(Limits::min());  // 0 or -2^digits: exact
  const double end = std::ldexp(1.0, Limits::digits);     // one past the greatest: exact
  if (hi < least || lo >= end)
    fail(ErrorKind::kUsage, "value range [{}, {}] holds no {} value ({} to {})", low, high, dtype_name(t.dtype()),
         Draw{Limits::min()}, Draw{Limits::max()});
  std::uniform_int_distribution<Draw> draw(lo <= least ? Draw{Limits::min()} : static_cast<Draw>(lo),
                                           hi >= end ? Draw{Limits::max()} : static_cast<Draw>(hi));
  fill<I>(t, [&] { return static_cast<I>(draw(rng)); });
}
}  // namespace

Tensor random_tensor(DType type, const Shape& shape, uint64_t seed, double low, double high) {
  if (!std::isfinite(low) || !std::isfinite(high))
    fail(ErrorKind::kUsage, "value range [{}, {}]: LO and HI must be finite numbers", low, high);
  if (!(low <= high)) fail(ErrorKind::kUsage, "value range [{}, {}] is empty", low, high);
  if (const double most = largest_finite(type); most > 0 && std::max(-low, high) > most)
    fail(ErrorKind::kUsage,
         "value range [{}, {}] is beyond {}'s finite values (largest {}): values would round to "
         "infinity",
         low, high, dtype_name(type), most);
  Tensor t(type, shape);
  std::mt19937_64 rng(seed);
  auto real = [&](std::mt19937_64& r) { return uniform(r, low, high); };
  switch (type) {
    case DType::kFloat:
      fill<float>(t, [&] {
        const auto as_float = [](uint32_t b) { return std::bit_cast<float>(b); };
        return as_float(into_range(std::bit_cast<uint32_t>(static_cast<float>(real(rng))), low, high, as_float));
      });
      break;
    case DType::kDouble: fill<double>(t, [&] { return real(rng); }); break;
    case DType::kFloat16:
      fill<uint16_t>(t, [&] { return into_range(double_to_float16(real(rng)), low, high, float16_to_float); });
      break;
    case DType::kBFloat16:
      fill<uint16_t>(t, [&] { return into_range(double_to_bfloat16(real(rng)), low, high, bfloat16_to_float); });
      break;
    case DType::kBool: fill_integers<uint8_t, std::numeric_limits<bool>>(t, rng, low, high); break;
    case DType::kInt8: fill_integers<int8_t>(t, rng, low, high); break;
    case DType::kUInt8: fill_integers<uint8_t>(t, rng, low, high); break;
    case DType::kInt16: fill_integers<int16_t>(t, rng, low, high); break;
    case DType::kUInt16: fill_integers<uint16_t>(t, rng, low, high); break;
    case DType::kInt32: fill_integers<int32_t>(t, rng, low, high); break;
    case DType::kUInt32: fill_integers<uint32_t>(t, rng, low, high); break;
    case DType::kInt64: fill_integers<int64_t>(t, rng, low, high); break;
    case DType::kUInt64: fill_integers<uint64_t>(t, rng, low, high); break;
    default:
      fail_unsupported(Cause{Cause::Kind::kType, "", "", 0, std::string(dtype_name(type)), ""},
                       "cannot make up values of type {}", dtype_name(type));
  }
  return t;
}

std::map<std::string, Tensor> random_inputs(const Graph& g, const RandomInputSpec& spec) {
  const auto required = g.required_inputs();
  for (const auto& entry : spec.ranges) {
    const std::string& name = entry.first;  // a structured binding: clang 14 cannot capture it
    if (std::none_of(required.begin(), required.end(), [&](const ValueInfo* v) { return v->name == name; }))
      fail(ErrorKind::kUsage, "--range names '{}', which is not an input of the model", name);
  }
  const auto shapes = resolve_input_shapes(g, spec.shapes);
  std::map<std::string, Tensor> out;
  uint64_t k = 0;
  for (const ValueInfo* v : required) {
    if (!v->dtype) fail(ErrorKind::kUsage, "input '{}' declares no element type; give it with -i", v->name);
    std::pair<double, double> range{spec.low, spec.high};
    if (auto it = spec.ranges.find(v->name); it != spec.ranges.end()) range = it->second;
    try {
      out[v->name] =
          random_tensor(*v->dtype, shapes.at(v->name), spec.seed * 1000003u + k++, range.first, range.second);
    } catch (const Error& e) {  // a range this input's type cannot take: say which input
      if (e.kind() != ErrorKind::kUsage) throw;
      throw e.with_context(fmt::format("input '{}' ({})", v->name, dtype_name(*v->dtype)));
    }
  }
  return out;
}

}  // namespace onnxrun
