#include "cli/run_direct.h"

#include <chrono>
#include <cmath>
#include <cstdlib>

#include <fmt/core.h>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "cli/exit_codes.h"
#include "cli/input_literal.h"
#include "cli/print_array.h"
#include "cli/shape_args.h"
#include "core/element.h"
#include "core/error.h"
#include "core/tensor_stats.h"
#include "exec/bind.h"
#include "exec/random_inputs.h"
#include "io/input_file.h"
#include "io/npy.h"
#include "io/npz.h"
#include "io/tensor_format.h"
#include "io/value_dump.h"

namespace onnxrun::cli {

void add_run_extra_options(CLI::App& app, RunExtras& x) {
  app.add_option("--npz", x.npz, "inputs from a numpy .npz: each array binds the input of its name")
      ->type_name("FILE");
  app.add_option("--shape", x.shapes,
                 "an input's shape, for made-up inputs, symbolic dims and -i literals (NAME= for a scalar)")
      ->type_name("NAME=d0,d1,...");
  app.add_flag("--random", x.random, "run on made-up inputs even when test sets exist");
  app.add_option("--seed", x.seed, "seed for made-up inputs")->capture_default_str();
  app.add_option("--range", x.range, "made-up values are uniform in [LO,HI] (for example --range -5,5)")
      ->type_name("LO,HI")
      ->capture_default_str();
  app.add_option("--format", x.format, "file format for -o and --dump-intermediates")
      ->check(CLI::IsMember({"pb", "npy", "npz"}))
      ->capture_default_str();
  app.add_flag("--full", x.full, "print every element (default: summarise tensors of more than 1000)");
  app.add_flag("--json", x.json, "print inputs, outputs and timings as one JSON object");
  app.add_option("--dump-intermediates", x.dump_dir, "write every value the run produces into DIR, named after it")
      ->type_name("DIR");
}

namespace {
constexpr char kListMark = '\x1e';  // ASCII record separator: never in a real argument
}  // namespace

std::vector<std::string> mark_list_args(int argc, char** argv) {
  std::vector<std::string> out(argv, argv + argc);
  for (size_t k = 1; k < out.size(); ++k) {
    const bool after_flag = (out[k - 1] == "-i" || out[k - 1] == "--input") && !out[k].empty() && out[k][0] == '[';
    if (after_flag) out[k].insert(out[k].begin(), kListMark);
    else if (out[k].rfind("--input=[", 0) == 0) out[k].insert(8, 1, kListMark);
  }
  return out;
}

std::string unmark_list_arg(const std::string& arg) {
  return !arg.empty() && arg[0] == kListMark ? arg.substr(1) : arg;
}

namespace {

struct Value {
  std::string name;
  Tensor tensor;
  std::string source;  // "x.npy", "literal", "random", "computed"
};

std::pair<double, double> parse_range(const std::string& text) {
  const size_t comma = text.find(',');
  char* end1 = nullptr;
  char* end2 = nullptr;
  double lo = 0, hi = 0;
  if (comma != std::string::npos) {
    const std::string a = text.substr(0, comma), b = text.substr(comma + 1);
    lo = std::strtod(a.c_str(), &end1);
    hi = std::strtod(b.c_str(), &end2);
    if (!a.empty() && !b.empty() && *end1 == 0 && *end2 == 0 && lo <= hi) return {lo, hi};
  }
  fail(ErrorKind::kUsage, "--range {}: expected LO,HI with LO <= HI (for example --range=-5,5)", text);
}

// The declared input a feed goes to: by name, else by position among required inputs.
const ValueInfo* target(const Graph& g, const std::string& name, size_t position) {
  if (!name.empty()) return g.find_input(name);
  const auto req = g.required_inputs();
  return position < req.size() ? req[position] : nullptr;
}

}  // namespace

std::pair<std::string, std::string> split_input_arg(const std::string& arg) {
  const size_t eq = arg.find('=');
  // The text before '=' is a name unless it looks like a path or a literal.
  if (eq == std::string::npos || arg.find('/') < eq || arg.find('[') < eq) return {"", arg};
  std::string name = arg.substr(0, eq), value = arg.substr(eq + 1);
  if (name.empty() || value.empty())
    fail(ErrorKind::kUsage, "-i {}: expected [NAME=]FILE or [NAME=][v0,v1,...] (for example -i x=in.npy)", arg);
  return {name, value};
}

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
    f.tensor = parse_tensor_literal(value, decl->dtype.value_or(DType::kFloat), shape, "-i " + arg);
    source = "literal";
  } else {
    f.tensor = read_input_file(value).tensor;
    // numpy has no bfloat16: a .npy of uint16 carries the bits (npy.h). A .pb says its type.
    if (value.size() > 4 && value.compare(value.size() - 4, 4, ".npy") == 0)
      f.tensor = bfloat16_from_bits(f.tensor, decl ? decl->dtype : std::nullopt);
    source = value;
  }
  return f;
}

namespace {

std::vector<Value> gather_inputs(const RunOptions& o, const Graph& g, bool random,
                                 std::map<std::string, Tensor>& bound) {
  const auto shapes = parse_shape_args(o.extra.shapes);
  std::map<std::string, std::string> sources;
  if (random) {
    RandomInputSpec spec;
    spec.shapes = shapes;
    spec.seed = o.extra.seed;
    std::tie(spec.low, spec.high) = parse_range(o.extra.range);
    bound = random_inputs(g, spec);
    for (const auto& [name, t] : bound) sources[name] = "random";
  } else {
    std::vector<Feed> feeds;
    std::vector<std::string> srcs;
    for (size_t k = 0; k < o.inputs.size(); ++k) {
      std::string src;
      feeds.push_back(feed_from_arg(g, unmark_list_arg(o.inputs[k]), k, shapes, src));
      srcs.push_back(src);
    }
    for (const std::string& path : o.extra.npz)
      for (NamedArray& a : read_npz_file(path)) {
        Feed f;
        f.name = a.name;
        f.origin = "--npz " + path;
        const ValueInfo* decl = g.find_input(a.name);
        f.tensor = bfloat16_from_bits(a.tensor, decl ? decl->dtype : std::nullopt);
        feeds.push_back(std::move(f));
        srcs.push_back(path);
      }
    for (size_t k = 0; k < feeds.size(); ++k) {
      const ValueInfo* decl = target(g, feeds[k].name, feeds[k].position);
      if (decl) sources[decl->name] = srcs[k];
    }
    bound = bind_inputs(g, std::move(feeds));
  }
  std::vector<Value> out;
  for (const ValueInfo* v : g.required_inputs()) out.push_back({v->name, bound.at(v->name), sources[v->name]});
  return out;
}

using nlohmann::ordered_json;

// JSON has no NaN or infinities, and nlohmann would write null for all three, losing
// which it was: they are the strings "nan", "inf" and "-inf".
ordered_json json_real(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

// Element k: bools as true/false, integers exactly, a float as the shortest decimal that
// reads back as it in its own type (float 0.1f is 0.1, not 0.10000000149011612).
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
    case DType::kUInt32: return static_cast<int64_t>(element_as_double(t, k));  // exact below 2^53
    default: return json_real(std::strtod(format_element_shortest(t, k).c_str(), nullptr));
  }
}

// The elements from k on, as nested lists in the tensor's shape from `axis` down.
ordered_json json_values(const Tensor& t, size_t axis, int64_t& k) {
  if (axis == t.rank()) return json_element(t, k++);
  ordered_json list = ordered_json::array();
  for (int64_t i = 0; i < t.shape()[axis]; ++i) list.push_back(json_values(t, axis + 1, k));
  return list;
}

ordered_json json_stats(const TensorStats& s) {
  ordered_json j;
  j["min"] = json_real(s.min);
  j["max"] = json_real(s.max);
  j["mean"] = json_real(s.mean);
  j["std"] = json_real(s.std);
  j["nan"] = s.nan;
  j["inf"] = s.pos_inf + s.neg_inf;
  return j;
}

ordered_json json_tensor(const Value& v, bool full) {
  const Tensor& t = v.tensor;
  const TensorStats s = tensor_stats(t);
  ordered_json j;
  j["name"] = v.name;
  j["type"] = dtype_name(t.dtype());
  j["shape"] = t.shape();
  j["source"] = v.source;
  if (s.numeric) j["stats"] = json_stats(s);
  // Values in full for small tensors (or --full); a script reads stats for the rest.
  int64_t k = 0;
  j["values"] = s.numeric && (full || t.numel() <= 1000) ? json_values(t, 0, k) : ordered_json(nullptr);
  return j;
}

ordered_json json_tensors(const std::vector<Value>& values, bool full) {
  ordered_json list = ordered_json::array();
  for (const Value& v : values) list.push_back(json_tensor(v, full));
  return list;
}

struct Timings {
  double load_ms = 0, input_ms = 0, run_ms = 0;
};

// To the microsecond: the digits below it are the clock's noise.
double to_microseconds(double ms) { return std::round(ms * 1000) / 1000; }

std::string run_json(const std::string& model, const std::vector<Value>& inputs, const std::vector<Value>& outputs,
                     bool full, const Timings& t) {
  ordered_json j;
  j["model"] = model;
  j["inputs"] = json_tensors(inputs, full);
  j["outputs"] = json_tensors(outputs, full);
  j["timings_ms"] = {{"load", to_microseconds(t.load_ms)},
                     {"inputs", to_microseconds(t.input_ms)},
                     {"run", to_microseconds(t.run_ms)}};
  // Value names come from the model file and need not be valid UTF-8: `replace` writes
  // U+FFFD for a bad byte where the default would throw.
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

void print_text(const std::vector<Value>& inputs, const std::vector<Value>& outputs, bool full) {
  ArrayPrintOptions po;
  po.full = full;
  for (const Value& v : inputs)
    fmt::print("input '{}': {} from {}\n  {}\n", v.name, v.tensor.describe(), v.source, format_stats(tensor_stats(v.tensor)));
  for (const Value& v : outputs) {
    fmt::print("output '{}': {}\n  {}\n", v.name, v.tensor.describe(), format_stats(tensor_stats(v.tensor)));
    fmt::print("{}\n", format_array(v.tensor, po));
  }
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int run_direct(const RunOptions& o, const Executor& exec, bool random, double load_ms) {
  const Graph& g = exec.graph();
  const TensorFormat format = parse_tensor_format(o.extra.format);
  auto t0 = std::chrono::steady_clock::now();
  std::map<std::string, Tensor> bound;
  std::vector<Value> inputs = gather_inputs(o, g, random, bound);
  const double input_ms = ms_since(t0);
  if (random && !o.quiet && !o.extra.json)
    spdlog::warn("no inputs given: made up random inputs (--seed {}, --range {})", o.extra.seed, o.extra.range);

  std::optional<ValueDump> dump;
  if (!o.extra.dump_dir.empty()) dump.emplace(o.extra.dump_dir, format);
  ValueObserver observer;
  if (dump) observer = [&](const std::string& name, const Tensor& t) { dump->write(name, t); };
  t0 = std::chrono::steady_clock::now();
  std::vector<Tensor> results = exec.run(std::move(bound), observer);
  const double run_ms = ms_since(t0);
  if (dump) spdlog::info("wrote {} values into {}", dump->finish(), o.extra.dump_dir);

  std::vector<Value> outputs;
  std::vector<std::string> names;
  for (size_t k = 0; k < results.size(); ++k) {
    outputs.push_back({g.outputs[k].name, results[k], "computed"});
    names.push_back(g.outputs[k].name);
  }
  if (!o.output_dir.empty())
    for (const std::string& path : write_outputs_as(format, o.output_dir, names, results)) spdlog::info("wrote {}", path);

  if (o.extra.json) {
    fmt::print("{}", run_json(o.model, inputs, outputs, o.extra.full, {load_ms, input_ms, run_ms}));
  } else if (!o.quiet) {
    print_text(inputs, outputs, o.extra.full);
  }
  return kExitOk;
}

}  // namespace onnxrun::cli
