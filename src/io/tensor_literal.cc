#include "io/tensor_literal.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "core/element.h"
#include "core/error.h"
#include "core/fail.h"
#include "core/half.h"

namespace onnxrun {
namespace {

class Parser {
 public:
  Parser(const std::string& text, const std::string& what) : t_(text), what_(what) {}

  // Fills values_ and shape_.
  void parse() {
    list(0);
    skip();
    if (p_ != t_.size()) bad("unexpected text after the closing ']'");
  }

  std::vector<double> values;
  // Where each number was written (empty for the words nan, inf, true, false): a finite
  // number that the type turns into inf is named in a warning as the user wrote it.
  std::vector<std::string_view> written;
  Shape shape;

 private:
  [[noreturn]] void bad(const std::string& why) {
    fail(ErrorKind::kUsage, "{}: {} at position {} (expected a list such as [1,2,3] or [[1,2],[3,4]])", what_, why,
         p_ + 1);
  }
  void skip() {
    while (p_ < t_.size() && std::isspace(static_cast<unsigned char>(t_[p_]))) ++p_;
  }

  void list(size_t depth) {
    skip();
    if (p_ >= t_.size() || t_[p_] != '[') bad("expected '['");
    if (depth > 32) bad("nested too deeply");
    ++p_;
    int64_t count = 0;
    skip();
    bool nested = p_ < t_.size() && t_[p_] == '[';
    if (p_ < t_.size() && t_[p_] == ']') {
      ++p_;
      dim(depth, 0, true);
      return;
    }
    while (true) {
      if (nested) list(depth + 1);
      else number();
      ++count;
      skip();
      if (p_ < t_.size() && t_[p_] == ',') {
        ++p_;
        skip();
        if (nested != (p_ < t_.size() && t_[p_] == '[')) bad("lists and numbers mixed at one depth");
        continue;
      }
      if (p_ < t_.size() && t_[p_] == ']') {
        ++p_;
        break;
      }
      bad("expected ',' or ']'");
    }
    dim(depth, count, !nested);
  }

  // Records that a list at `depth` has `count` items; every list at one depth must
  // have the same length, and numbers must sit at one depth (a ragged literal has no shape).
  void dim(size_t depth, int64_t count, bool innermost) {
    if (depth >= shape.size()) shape.resize(depth + 1, -1);
    if (shape[depth] == -1) shape[depth] = count;
    else if (shape[depth] != count) bad("ragged list: sublists have different lengths");
    if (innermost) {
      if (leaf_depth_ < 0) leaf_depth_ = static_cast<int64_t>(depth);
      else if (leaf_depth_ != static_cast<int64_t>(depth)) bad("ragged list: sublists nest to different depths");
    }
  }

  void number() {
    const char* start = t_.c_str() + p_;
    auto word = [&](const char* w, double v) {
      if (std::strncmp(start, w, std::strlen(w)) != 0) return false;
      p_ += std::strlen(w);
      values.push_back(v);
      written.emplace_back();
      return true;
    };
    const double inf = std::numeric_limits<double>::infinity();
    if (word("nan", std::numeric_limits<double>::quiet_NaN()) ||
        word("-nan", std::copysign(std::numeric_limits<double>::quiet_NaN(), -1.0)) || word("inf", inf) ||
        word("+inf", inf) || word("-inf", -inf) || word("true", 1) || word("false", 0))
      return;
    char* end = nullptr;
    const double v = std::strtod(start, &end);
    if (end == start || std::isalpha(static_cast<unsigned char>(*start))) bad("expected a number");
    p_ += static_cast<size_t>(end - start);
    values.push_back(v);
    written.emplace_back(start, static_cast<size_t>(end - start));
  }

  const std::string& t_;
  const std::string& what_;
  size_t p_ = 0;
  int64_t leaf_depth_ = -1;
};

// A decimal number's text ("+1.5e1", "2.0", "-7") as the integer it is, in plain digits
// ("15", "2", "-7"): exactly, with no rounding at any length. kFraction where it is no
// whole number ("1.5", "1e-400", "9223372036854775806.2"); kNotDecimal for other text
// (0x10).
enum class DecimalKind { kWhole, kFraction, kNotDecimal };
DecimalKind decimal_integer(std::string_view t, std::string& digits_out) {
  size_t i = 0;
  const bool negative = i < t.size() && t[i] == '-';
  if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
  auto is_digit = [&](size_t k) { return k < t.size() && t[k] >= '0' && t[k] <= '9'; };
  std::string digits;
  for (; is_digit(i); ++i) digits += t[i];
  const auto whole_digits = static_cast<int64_t>(digits.size());
  if (i < t.size() && t[i] == '.')
    for (++i; is_digit(i); ++i) digits += t[i];
  if (digits.empty()) return DecimalKind::kNotDecimal;
  int64_t exponent = 0;
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    const size_t from = i + (i < t.size() && t[i] == '+');  // from_chars takes '-' only
    const auto [end, ec] = std::from_chars(t.data() + from, t.data() + t.size(), exponent);
    if (end == t.data() + from) return DecimalKind::kNotDecimal;                             // no exponent
    if (ec == std::errc::result_out_of_range) exponent = t[from] == '-' ? -100000 : 100000;  // past 2^63: as far
    i = static_cast<size_t>(end - t.data());
  }
  if (i != t.size()) return DecimalKind::kNotDecimal;
  // The point stands after `point` digits, counted from the first that is not 0: those
  // after it must all be zeros.
  int64_t point = whole_digits + std::clamp<int64_t>(exponent, -100000, 100000);
  const size_t lead = std::min(digits.find_first_not_of('0'), digits.size());
  digits.erase(0, lead);
  point -= static_cast<int64_t>(lead);
  const auto kept = static_cast<size_t>(std::clamp<int64_t>(point, 0, static_cast<int64_t>(digits.size())));
  if (std::any_of(digits.begin() + static_cast<std::ptrdiff_t>(kept), digits.end(), [](char c) { return c != '0'; }))
    return DecimalKind::kFraction;
  if (digits.empty() || point <= 0) {
    digits_out.assign(1, '0');  // not = "0": GCC 12 warns (-Wrestrict) wrongly
    return DecimalKind::kWhole;
  }
  // Past 40 digits no 64-bit integer is left: 41 are enough to be refused as out of range.
  digits.resize(static_cast<size_t>(std::min<int64_t>(point, 41)), '0');
  if (negative) digits.insert(digits.begin(), '-');
  digits_out = std::move(digits);
  return DecimalKind::kWhole;
}

// An integer element, exactly as written: read as a double, 18446744073709551615 was 2^64
// and became 0 in a uint64, 2^53 + 1 became 2^53, and a fraction past the 17th digit was
// lost. Decimal text is read as the integer it is (decimal_integer); hex text (0x10) as
// a long double, whose 64-bit significand (x86-64; 113 bits on AArch64) holds every
// 64-bit integer; the words (true, nan) by their value `v`.
template <typename T>
T whole(double v, std::string_view text, const std::string& what, DType type) {
  const auto refuse = [&]() -> T {
    fail(ErrorKind::kUsage, "{}: {} is not a {} value", what, text.empty() ? fmt::format("{}", v) : std::string(text),
         dtype_name(type));
  };
  T n{};
  std::string digits;
  switch (text.empty() ? DecimalKind::kNotDecimal : decimal_integer(text, digits)) {
    case DecimalKind::kWhole: {
      const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
      return ec == std::errc() && end == digits.data() + digits.size() ? n : refuse();
    }
    case DecimalKind::kFraction: return refuse();
    case DecimalKind::kNotDecimal: break;
  }
  const long double x = text.empty() ? v : std::strtold(std::string(text).c_str(), nullptr);
  using Limits = std::numeric_limits<T>;
  // -2^digits (or 0) and 2^digits, one past the greatest, are exact.
  if (!(x == std::floor(x)) || x < static_cast<long double>(Limits::min()) || x >= std::ldexp(1.0L, Limits::digits))
    return refuse();
  return static_cast<T>(x);
}

template <typename T, typename F>
void fill(Tensor& t, const std::vector<double>& values, F convert) {
  T* p = t.mutable_data<T>();
  for (size_t k = 0; k < values.size(); ++k) p[k] = convert(values[k]);
}

template <typename T>
void fill_whole(Tensor& t, const std::vector<double>& values, const std::vector<std::string_view>& written,
                const std::string& what) {
  T* p = t.mutable_data<T>();
  for (size_t k = 0; k < values.size(); ++k) p[k] = whole<T>(values[k], written[k], what, t.dtype());
}

// "1e40 is beyond float's range and becomes inf (and 2 more values)", or "".
std::string overflow_warning(const Tensor& t, const std::vector<std::string_view>& written) {
  const DType d = t.dtype();
  if (d != DType::kFloat && d != DType::kDouble && d != DType::kFloat16 && d != DType::kBFloat16) return "";
  int64_t count = 0, first = -1;
  for (int64_t k = 0; k < t.numel(); ++k)
    if (!written[static_cast<size_t>(k)].empty() && std::isinf(element_as_double(t, k)) && count++ == 0) first = k;
  if (count == 0) return "";
  return fmt::format("{} is beyond {}'s range and becomes {}{}", written[static_cast<size_t>(first)],
                     dtype_name(t.dtype()), element_as_double(t, first) > 0 ? "inf" : "-inf",
                     count > 1 ? fmt::format(" (and {} more value{})", count - 1, count > 2 ? "s" : "") : "");
}

}  // namespace

bool is_tensor_literal(const std::string& text) { return !text.empty() && text[0] == '['; }

Tensor parse_tensor_literal(const std::string& text, DType type, const std::optional<Shape>& shape,
                            const std::string& what, std::string* warning) {
  Parser p(text, what);
  p.parse();
  Shape s = p.shape;
  if (shape) {
    if (checked_numel(*shape) != static_cast<int64_t>(p.values.size()))
      fail(ErrorKind::kUsage, "{}: the list has {} values but --shape {} holds {}", what, p.values.size(),
           shape_to_string(*shape), checked_numel(*shape));
    s = *shape;
  }
  Tensor t(type, s);
  const auto& v = p.values;
  switch (type) {
    case DType::kFloat: fill<float>(t, v, [](double x) { return static_cast<float>(x); }); break;
    case DType::kDouble: fill<double>(t, v, [](double x) { return x; }); break;
    case DType::kFloat16: fill<uint16_t>(t, v, [](double x) { return double_to_float16(x); }); break;
    case DType::kBFloat16: fill<uint16_t>(t, v, [](double x) { return double_to_bfloat16(x); }); break;
    case DType::kInt8: fill_whole<int8_t>(t, v, p.written, what); break;
    case DType::kInt16: fill_whole<int16_t>(t, v, p.written, what); break;
    case DType::kInt32: fill_whole<int32_t>(t, v, p.written, what); break;
    case DType::kInt64: fill_whole<int64_t>(t, v, p.written, what); break;
    case DType::kUInt8: fill_whole<uint8_t>(t, v, p.written, what); break;
    case DType::kUInt16: fill_whole<uint16_t>(t, v, p.written, what); break;
    case DType::kUInt32: fill_whole<uint32_t>(t, v, p.written, what); break;
    case DType::kUInt64: fill_whole<uint64_t>(t, v, p.written, what); break;
    case DType::kBool:
      fill<uint8_t>(t, v, [&](double x) {
        if (x != 0 && x != 1) fail(ErrorKind::kUsage, "{}: {} is not a bool (0, 1, true, false)", what, x);
        return static_cast<uint8_t>(x);
      });
      break;
    default: fail(ErrorKind::kUnsupported, "{}: {} values cannot be written as a list", what, dtype_name(type));
  }
  if (warning) *warning = overflow_warning(t, p.written);
  return t;
}

}  // namespace onnxrun
