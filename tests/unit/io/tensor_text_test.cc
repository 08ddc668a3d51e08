// Issues 11 and 12: tensors print exactly as numpy 1.24's str(array). The expected text
// comes from numpy itself (Debian's /usr/bin/python3), run once over every case: each
// type x shape class x family of values (widths, signs, -0.0, nan/inf, the switch to
// scientific by magnitude and by range, the 8-digit cut, summarised and wrapped rows).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/element.h"
#include "core/half.h"
#include "core/tensor_stats.h"
#include "io/tensor_json.h"
#include "io/tensor_literal.h"
#include "io/tensor_text.h"
#include "support/check_exit.h"
#include "support/paths.h"
#include "support/process.h"
#include "support/shortcuts.h"
#include "support/tensors.h"

using namespace onnxrun;
using onnxrun::test::float_tensor;

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

bool have_numpy() {
  static const bool ok = onnxrun::test::run_process({"/usr/bin/python3", "-c", "import numpy"}).exit_code == 0;
  return ok;
}

// The tensor of `type` and `shape` holding `values` (rounded once into the type).
Tensor make(DType type, const Shape& shape, const std::vector<double>& values) {
  Tensor t(type, shape);
  for (int64_t k = 0; k < t.numel(); ++k) {
    const double v = values[static_cast<size_t>(k) % values.size()];
    switch (type) {
      case DType::kFloat: t.mutable_data<float>()[k] = static_cast<float>(v); break;
      case DType::kDouble: t.mutable_data<double>()[k] = v; break;
      case DType::kFloat16: t.mutable_data<uint16_t>()[k] = double_to_float16(v); break;
      case DType::kBFloat16: t.mutable_data<uint16_t>()[k] = double_to_bfloat16(v); break;
      case DType::kBool: t.mutable_data<uint8_t>()[k] = v != 0; break;
      case DType::kInt32: t.mutable_data<int32_t>()[k] = static_cast<int32_t>(v); break;
      case DType::kInt64: t.mutable_data<int64_t>()[k] = static_cast<int64_t>(v); break;
      default: FAIL("type not covered");
    }
  }
  return t;
}

std::string py_real(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  std::string s = fmt::format("{}", v);  // shortest digits that read back as this double
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

// A Python expression for the numpy array numpy would hold for `t`.
std::string numpy_expr(const Tensor& t) {
  std::string list = "[";
  for (int64_t k = 0; k < t.numel(); ++k) {
    if (k) list += ',';
    switch (t.dtype()) {
      case DType::kFloat16:
      case DType::kBFloat16: list += std::to_string(t.data<uint16_t>()[k]); break;
      case DType::kInt64: list += std::to_string(t.data<int64_t>()[k]); break;
      case DType::kInt32:
      case DType::kBool: list += std::to_string(static_cast<int64_t>(element_as_double(t, k))); break;
      default: list += py_real(element_as_double(t, k));
    }
  }
  list += "]";
  std::string shape = "(";
  for (int64_t d : t.shape()) shape += std::to_string(d) + ",";
  shape += ")";
  std::string a;
  switch (t.dtype()) {
    case DType::kFloat: a = "np.array(" + list + ", dtype=np.float64).astype(np.float32)"; break;
    case DType::kDouble: a = "np.array(" + list + ", dtype=np.float64)"; break;
    case DType::kFloat16: a = "np.array(" + list + ", dtype=np.uint16).view(np.float16)"; break;
    // numpy has no bfloat16: the same values in float32 (see the bfloat16 values below).
    case DType::kBFloat16: a = "(np.array(" + list + ", dtype=np.uint32) << 16).view(np.float32)"; break;
    case DType::kBool: a = "np.array(" + list + ", dtype=np.bool_)"; break;
    case DType::kInt32: a = "np.array(" + list + ", dtype=np.int32)"; break;
    case DType::kInt64: a = "np.array(" + list + ", dtype=np.int64)"; break;
    default: break;
  }
  return a + ".reshape(" + shape + ")";
}

// str() of each tensor, by numpy, in one python run.
std::vector<std::string> numpy_str(const std::vector<Tensor>& ts) {
  onnxrun::test::TempDir dir;
  const std::string script = dir.file("print.py");
  {
    std::ofstream f(script);
    f << "import sys\nimport numpy as np\nnan = float('nan'); inf = float('inf')\n"
         "def out(a):\n    sys.stdout.write(str(a) + '\\n@@@\\n')\n";
    for (const Tensor& t : ts) f << "out(" << numpy_expr(t) << ")\n";
  }
  const auto r = onnxrun::test::run_process({"/usr/bin/python3", script});
  REQUIRE_EXIT(r, 0);
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t p; (p = r.out.find("\n@@@\n", start)) != std::string::npos; start = p + 5)
    out.push_back(r.out.substr(start, p - start));
  REQUIRE(out.size() == ts.size());
  return out;
}

std::string describe(const Tensor& t) {
  std::string s = t.describe() + " {";
  for (int64_t k = 0; k < std::min<int64_t>(t.numel(), 12); ++k) s += format_element_shortest(t, k) + " ";
  return s + "}";
}

// Families of values; `n` of them, from a fixed seed.
std::vector<std::vector<double>> float_families(DType type, size_t n) {
  std::mt19937_64 rng(42 + static_cast<int>(type));
  std::uniform_real_distribution<double> u(-1, 1);
  std::uniform_int_distribution<int> i(-8000, 8000), e(-12, 12);
  std::vector<std::vector<double>> f(9);
  for (size_t k = 0; k < n; ++k) {
    f[0].push_back(i(rng) / 8.0);                     // few digits, varying widths
    f[1].push_back(u(rng) * 50);                      // all the digits the type has
    f[2].push_back(u(rng) * 3e-5);                    // tiny: scientific
    f[3].push_back(u(rng) * std::pow(10.0, e(rng)));  // a range over 1000: scientific
    f[4].push_back(k % 5 == 0 ? kNaN : k % 7 == 1 ? -kInf : k % 7 == 3 ? kInf : i(rng) / 4.0);
    f[5].push_back(k % 3 == 0 ? kNaN : k % 3 == 1 ? kInf : -kInf);   // nothing finite
    f[6].push_back(k % 2 ? -0.0 : 0.0);                              // zeros, signed
    f[7].push_back(u(rng) * 3e9);                                    // >= 1e8: scientific (inf in float16)
    f[8].push_back(k % 4 == 0 ? -0.0 : 0.5 + i(rng) / 16.0 * 1e-3);  // 8-digit cut in double
  }
  if (type == DType::kBFloat16) {
    // numpy knows no bfloat16, so these are values whose shortest bfloat16 digits are also
    // their shortest float32 digits, printed by numpy as float32.
    const std::vector<double> exact = {0, -0.0, 0.5, -1.25, 3, 0.125, -0.375, 24, -250, 6.5, 0.0625, 1000};
    const std::vector<double> wide = {0.5, 1000, -0.125, 3, 24};  // range > 1000: scientific
    const std::vector<double> special = {kNaN, -1.25, kInf, 0.5, -kInf, -0.0, 6.5};
    f.assign(3, {});
    for (size_t k = 0; k < n; ++k) {
      f[0].push_back(exact[(k * 7) % exact.size()]);
      f[1].push_back(wide[(k * 3) % wide.size()]);
      f[2].push_back(special[k % special.size()]);
    }
  }
  return f;
}

std::vector<std::vector<double>> families(DType type, size_t n) {
  if (type == DType::kFloat || type == DType::kDouble || type == DType::kFloat16 || type == DType::kBFloat16)
    return float_families(type, n);
  std::mt19937_64 rng(7);
  std::vector<std::vector<double>> f(3);
  for (size_t k = 0; k < n; ++k) {
    if (type == DType::kBool) {
      f[0].push_back(static_cast<double>(rng() % 2));
      f[1].push_back(1);  // all True: still " True"
      f[2].push_back(0);
    } else {
      const double big = type == DType::kInt64 ? 9e18 : 2e9;
      f[0].push_back(static_cast<double>(static_cast<int64_t>(rng() % 2001) - 1000));
      f[1].push_back(std::floor(std::uniform_real_distribution<double>(-big, big)(rng)));
      f[2].push_back(static_cast<double>(rng() % 10));
    }
  }
  return f;
}

const std::vector<DType> kTypes = {DType::kFloat, DType::kDouble, DType::kFloat16, DType::kBFloat16,
                                   DType::kBool,  DType::kInt32,  DType::kInt64};

void compare_with_numpy(const std::vector<Tensor>& ts) {
  const std::vector<std::string> want = numpy_str(ts);
  size_t failures = 0;
  for (size_t k = 0; k < ts.size() && failures < 20; ++k) {
    const std::string got = format_array(ts[k]);
    INFO(describe(ts[k]));
    CHECK(got == want[k]);
    failures += got != want[k];
  }
}

}  // namespace

TEST_CASE("format_array prints as numpy's str: every type, shape class and family of values", "[print]") {
  if (!have_numpy()) {
    WARN("/usr/bin/python3 has no numpy (apt-get install python3-numpy): the comparison with numpy is skipped");
    return;
  }
  const std::vector<Shape> shapes = {
      {},
      {0},
      {3, 0, 2},
      {0, 3},
      {2, 0, 0},
      {5},
      {1},
      {3, 4, 5},
      {2, 1, 1, 30},
      {40},
      {1001},
      {20, 60},
      {7, 7, 7, 7},
      {2, 3, 1, 1, 25},
      {3, 1001},
      {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 6},
      {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 3, 3},
      {1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2}};
  std::vector<Tensor> ts;
  for (DType type : kTypes) {
    const auto fams = families(type, 1500);
    for (size_t fi = 0; fi < fams.size(); ++fi) {
      for (size_t si = 0; si < shapes.size(); ++si) {
        const Shape& s = shapes[si];
        int64_t n = 1;
        for (int64_t d : s) n *= d;
        // The big shapes with every third family only, to keep numpy's run short.
        if (n > 500 && (fi + si) % 3 != 0) continue;
        // 0-d: each value of the family on its own.
        if (s.empty()) {
          for (size_t k = 0; k < 12; ++k) ts.push_back(make(type, s, {fams[fi][k]}));
          continue;
        }
        std::vector<double> v = fams[fi];
        if (n > 0) std::rotate(v.begin(), v.begin() + static_cast<long>(si * 13 % v.size()), v.end());
        ts.push_back(make(type, s, v));
      }
    }
  }
  compare_with_numpy(ts);
}

TEST_CASE("float16 prints numpy's float16 digits, 0-d tensors print like numpy scalars", "[print]") {
  if (!have_numpy()) {
    WARN("/usr/bin/python3 has no numpy: skipped");
    return;
  }
  std::vector<Tensor> ts;
  // Every float16 in a few 1-D arrays of 64: each must come out as numpy's shortest.
  for (uint32_t start = 0; start < 0x10000; start += 64 * 97) {
    Tensor t(DType::kFloat16, {64});
    for (uint32_t k = 0; k < 64; ++k) t.mutable_data<uint16_t>()[k] = static_cast<uint16_t>(start + k * 13);
    ts.push_back(t);
    Tensor s(DType::kFloat16, {});
    s.mutable_data<uint16_t>()[0] = static_cast<uint16_t>(start + 3);
    ts.push_back(s);
  }
  for (double v : {1e-5, 1e16, 1e15, 123456789.0, 0.1, -0.0, 50331648.0, 1.0, 3.4028235e38, 1e-4, 9.999e-5}) {
    ts.push_back(make(DType::kFloat, {}, {v}));
    ts.push_back(make(DType::kDouble, {}, {v}));
    ts.push_back(make(DType::kFloat, {1}, {v}));
    ts.push_back(make(DType::kFloat, {2}, {v, 1.5}));
  }
  // A whole number's integer digits are exact in an array ([50331648.]) though its
  // shortest digits are 5033165e1.
  ts.push_back(make(DType::kFloat, {3}, {50331648.0, 16777217.0, 3.5}));
  compare_with_numpy(ts);
}

TEST_CASE("a 1-D row wraps so that the closing bracket stays within 75 columns", "[print]") {
  // 1000 .. 1029: 15 of these, spaced, make 75 columns, and the ']' would make 76; numpy
  // puts 14 on each line.
  std::vector<double> v;
  for (int k = 0; k < 30; ++k) v.push_back(1000 + k);
  const std::string s = format_array(make(DType::kInt32, {30}, v));
  size_t start = 0;
  for (size_t nl; start < s.size(); start = nl + 1) {
    nl = s.find('\n', start);
    if (nl == std::string::npos) nl = s.size();
    CHECK(nl - start <= 75);
  }
  CHECK(s.substr(0, s.find('\n')).size() == 1 + 14 * 5 - 1);
  if (have_numpy()) {
    const auto want = numpy_str({make(DType::kInt32, {30}, v), make(DType::kFloat, {2, 15}, v)});
    CHECK(s == want[0]);
    CHECK(format_array(make(DType::kFloat, {2, 15}, v)) == want[1]);
  } else {
    WARN("/usr/bin/python3 has no numpy: only the line lengths are checked");
  }
}

TEST_CASE("an empty tensor prints [] whatever its dims, at once", "[print]") {
  for (DType type : kTypes)
    for (const Shape& s :
         std::vector<Shape>{{0}, {3, 0, 2}, {0, 3}, {2, 0, 0}, {100000, 100000, 0}, {0, 100000, 100000}}) {
      INFO(dtype_name(type) << " " << s.size());
      CHECK(format_array(Tensor(type, s)) == "[]");
      CHECK(format_stats(tensor_stats(Tensor(type, s))) == "empty");
      CHECK(tensor_values_json(Tensor(type, s)).dump() == "[]");
      CHECK(tensor_stats_json(tensor_stats(Tensor(type, s))).dump() == R"({"empty":true})");
    }
}

TEST_CASE("deep tensors print without recursion, in time linear in the text", "[print]") {
  // The deepest a tensor can be (kMaxRank), one element.
  const Tensor one = make(DType::kFloat, Shape(kMaxRank, 1), {-2.5});
  const std::string s = format_array(one);
  CHECK(s == std::string(kMaxRank, '[') + "-2.5" + std::string(kMaxRank, ']'));
  CHECK(tensor_values_json(one).size() == 1);

  // Rank kMaxRank, 72 elements: [2,2,2,3,3] under kMaxRank - 5 axes of 1. Each element gets
  // a line of its own (no room is left in 75 columns), rows are separated by their rank's
  // newlines.
  Shape deep(kMaxRank - 5, 1);
  for (int64_t d : {2, 2, 2, 3, 3}) deep.push_back(d);
  std::vector<double> v;
  for (int k = 0; k < 72; ++k) v.push_back(k);
  const std::string d = format_array(make(DType::kInt64, deep, v));
  CHECK(std::count(d.begin(), d.end(), '[') == static_cast<long>(kMaxRank - 5 + 1 + 2 + 4 + 8 + 24));
  CHECK(std::count(d.begin(), d.end(), ']') == static_cast<long>(kMaxRank - 5 + 1 + 2 + 4 + 8 + 24));
  CHECK(d.substr(0, kMaxRank) == std::string(kMaxRank, '['));
  CHECK(d.substr(d.size() - kMaxRank) == std::string(kMaxRank, ']'));
  if (have_numpy()) {
    // The same construction numpy can make (at most 32 dims): 27 axes of 1.
    Shape s32(27, 1);
    for (int64_t x : {2, 2, 2, 3, 3}) s32.push_back(x);
    const Tensor t32 = make(DType::kInt64, s32, v);
    CHECK(format_array(t32) == numpy_str({t32})[0]);
  }
}

TEST_CASE("format_stats: empty, and mean/std over the finite values only", "[print]") {
  auto floats = [](const Shape& s, std::vector<double> v) { return make(DType::kFloat, s, v); };
  CHECK(format_stats(tensor_stats(floats({2}, {-1, 3}))) == "min -1 max 3 mean 1 std 2 nan 0 inf 0");
  CHECK(format_stats(tensor_stats(floats({4}, {0, 1, kNaN, kInf}))) ==
        "min 0 max inf mean 0.5 std 0.5 (finite values) nan 1 inf 1");
  CHECK(format_stats(tensor_stats(floats({3}, {-kInf, kInf, kNaN}))) ==
        "min -inf max inf, no finite values, nan 1 inf 2");
  CHECK(format_stats(tensor_stats(floats({2}, {kNaN, kNaN}))) == "no finite values, nan 2 inf 0");
  CHECK(format_stats(tensor_stats(floats({0}, {0}))) == "empty");
}

TEST_CASE("tensor_values_json: nested lists, exact integers, shortest floats in their own type", "[print]") {
  CHECK(tensor_values_json(make(DType::kInt64, {2, 2}, {1, 2, 3, 4})).dump() == "[[1,2],[3,4]]");
  CHECK(tensor_values_json(make(DType::kInt64, {1}, {9007199254740993.0})).dump() == "[9007199254740992]");
  CHECK(tensor_values_json(make(DType::kFloat, {}, {0.1})).dump() == "0.1");
  CHECK(tensor_values_json(make(DType::kFloat16, {3}, {0.1, -2, 65504})).dump() == "[0.1,-2.0,65500.0]");
  CHECK(tensor_values_json(make(DType::kBFloat16, {2}, {0.1, 3})).dump() == "[0.1,3.0]");
  CHECK(tensor_values_json(make(DType::kDouble, {2, 1, 2}, {kNaN, kInf, -kInf, -0.0})).dump() ==
        R"([[["nan","inf"]],[["-inf",-0.0]]])");
  CHECK(tensor_values_json(make(DType::kBool, {2}, {1, 0})).dump() == "[true,false]");
  // Deep: kMaxRank levels built without recursion (nlohmann's dump recurses; size() does not).
  nlohmann::ordered_json j = tensor_values_json(make(DType::kInt32, Shape(kMaxRank, 1), {7}));
  for (size_t k = 0; k + 1 < kMaxRank; ++k) {
    REQUIRE(j.is_array());
    REQUIRE(j.size() == 1);
    nlohmann::ordered_json next = std::move(j[0]);
    j = std::move(next);
  }
  CHECK(j.dump() == "[7]");
  const TensorStats s = tensor_stats(make(DType::kFloat, {3}, {1, kNaN, 3}));
  CHECK(tensor_stats_json(s).dump() == R"({"min":1.0,"max":3.0,"mean":2.0,"std":1.0,"nan":1,"inf":0})");
}

TEST_CASE("typed JSON statistics: min and max as the values are written, a 16-bit mean and std in float32", "[print]") {
  // float16 [2^-24, 0, 0, 0]: a mean and std rounded to float16 would be 0, and the
  // tensor would read as constant.
  const TensorStats tiny = tensor_stats(make(DType::kFloat16, {4}, {std::ldexp(1.0, -24), 0, 0, 0}));
  const nlohmann::ordered_json j = tensor_stats_json(tiny, DType::kFloat16);
  CHECK(static_cast<float>(j["mean"].get<double>()) == static_cast<float>(tiny.mean));  // float32's shortest digits
  CHECK(j["std"].get<double>() == Approx(tiny.std).epsilon(1e-7));
  // bfloat16 12352 is written 12350.0 in the values, and so as the max; the mean keeps
  // float32's digits.
  const Tensor b = make(DType::kBFloat16, {2}, {12352, 1});
  const nlohmann::ordered_json jb = tensor_stats_json(tensor_stats(b), DType::kBFloat16);
  CHECK(jb["max"] == tensor_values_json(b)[0]);
  CHECK(jb["mean"].get<double>() == 6176.5);
  // float32 and double: their own type, as before.
  const nlohmann::ordered_json jf =
      tensor_stats_json(tensor_stats(make(DType::kFloat, {2}, {0.1, 0.2})), DType::kFloat);
  CHECK(jf.dump() == R"({"min":0.1,"max":0.2,"mean":0.15,"std":0.05,"nan":0,"inf":0})");
}

TEST_CASE("tensor literals parse into the library's tensors", "[print]") {
  CHECK(is_tensor_literal("[1]"));
  CHECK_FALSE(is_tensor_literal("x.pb"));
  const Tensor t = parse_tensor_literal("[[1, -0.0], [nan, inf]]", DType::kFloat, std::nullopt, "-i x");
  CHECK(t.shape() == Shape{2, 2});
  CHECK(format_array(t) == "[[ 1. -0.]\n [nan inf]]");  // numpy 1.24
}

TEST_CASE("arrays print as numpy prints them", "[print]") {
  CHECK(format_array(float_tensor({2, 2}, {1, 2.5, -3, 4})) == "[[ 1.   2.5]\n [-3.   4. ]]");
  CHECK(format_array(float_tensor({}, {0.1f})) == "0.1");
  CHECK(format_array(float_tensor({3}, {1e-5f, 1, 100})) == "[1.e-05 1.e+00 1.e+02]");
  CHECK(format_array(float_tensor({3}, {NAN, INFINITY, -1.5})) == "[ nan  inf -1.5]");
  Tensor b(DType::kBool, {3});
  b.mutable_data<uint8_t>()[0] = 1, b.mutable_data<uint8_t>()[1] = 0, b.mutable_data<uint8_t>()[2] = 1;
  CHECK(format_array(b) == "[ True False  True]");
  Tensor big(DType::kInt32, {2000});
  for (int k = 0; k < 2000; ++k) big.mutable_data<int32_t>()[k] = k;
  CHECK(format_array(big) == "[   0    1    2 ... 1997 1998 1999]");
  ArrayPrintOptions full;
  full.full = true;
  CHECK(format_array(big, full).find("...") == std::string::npos);
  Tensor h(DType::kFloat16, {2});
  h.mutable_data<uint16_t>()[0] = double_to_float16(0.1);
  h.mutable_data<uint16_t>()[1] = double_to_float16(-2);
  CHECK(format_array(h) == "[ 0.1 -2. ]");  // float16's own shortest digits, not float's
}

TEST_CASE("a summarised tensor prints from its shown elements alone", "[print]") {
  // Shapes summarised along every axis, some axes, none; ranks 1 to 4; edge items 1 and 3.
  const std::vector<Shape> shapes = {{1001},   {2000},      {7, 200},     {40, 30},
                                     {3, 400}, {2, 3, 200}, {9, 9, 9, 9}, {1, 1, 1001}};
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(-100, 100);
  for (const Shape& shape : shapes)
    for (int64_t edge : {int64_t{1}, int64_t{3}}) {
      CAPTURE(shape_to_string(shape), edge);
      Tensor t(DType::kFloat, shape);
      for (int64_t k = 0; k < t.numel(); ++k) t.mutable_data<float>()[k] = u(rng);
      ArrayPrintOptions o;
      o.edge_items = edge;
      REQUIRE(print_summarises(shape, o));
      const std::vector<int64_t> offsets = shown_offsets(shape, o);
      CHECK(std::is_sorted(offsets.begin(), offsets.end()));
      const Shape compact = shown_shape(shape, o);
      CHECK(static_cast<int64_t>(offsets.size()) == checked_numel(compact));
      // Only the shown elements survive; the rest become NaN, which would show if printed.
      Tensor masked(DType::kFloat, shape);
      std::fill_n(masked.mutable_data<float>(), t.numel(), std::numeric_limits<float>::quiet_NaN());
      Tensor shown(DType::kFloat, compact);
      for (size_t k = 0; k < offsets.size(); ++k) {
        masked.mutable_data<float>()[offsets[k]] = t.data<float>()[offsets[k]];
        shown.mutable_data<float>()[k] = t.data<float>()[offsets[k]];
      }
      const std::string want = format_array(t, o);
      CHECK(format_array(masked, o) == want);
      CHECK(format_shown(shown, shape, o) == want);
    }
  // Not summarised: every element is shown, and a zero dim anywhere shows none.
  CHECK_FALSE(print_summarises({10, 100}));
  CHECK(shown_offsets({10, 100}).size() == 1000);
  CHECK_FALSE(print_summarises({0, 100000}));
  CHECK_FALSE(print_summarises({100000, 100000, 0}));
  CHECK(shown_offsets({3, 0, 5000}).empty());
  ArrayPrintOptions full;
  full.full = true;
  CHECK_FALSE(print_summarises({5000}, full));
  CHECK(shown_shape({int64_t{1} << 40, int64_t{1} << 40}) == Shape{6, 6});  // no overflow
}
