#include "io/tensor_text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "core/element.h"
#include "core/half.h"

namespace onnxrun {
namespace {

bool is_float(DType t) {
  return t == DType::kFloat || t == DType::kDouble || t == DType::kFloat16 || t == DType::kBFloat16;
}

uint16_t bits16(const Tensor& t, int64_t k) { return t.data<uint16_t>()[k]; }

uint16_t to16(DType type, double d) { return type == DType::kFloat16 ? double_to_float16(d) : double_to_bfloat16(d); }

// The shortest decimal (as a double) that reads back as element k in its own type.
double shortest_value(const Tensor& t, int64_t k) {
  const double v = element_as_double(t, k);
  if (t.dtype() != DType::kFloat16 && t.dtype() != DType::kBFloat16) return v;
  const uint16_t want = bits16(t, k);
  for (int p = 0; p < 6; ++p) {
    const double d = std::strtod(fmt::format("{:.{}e}", v, p).c_str(), nullptr);
    if (to16(t.dtype(), d) == want) return d;
  }
  return v;
}

// The shortest digits that read back as finite element k in its own type, in scientific
// form as std::to_chars writes it: "1e-05", "-2.5e+00", "0e+00".
std::string shortest_scientific(const Tensor& t, int64_t k) {
  char buf[64];
  std::to_chars_result r{};
  switch (t.dtype()) {
    case DType::kFloat:
      r = std::to_chars(buf, buf + sizeof buf, t.data<float>()[k], std::chars_format::scientific);
      break;
    case DType::kDouble:
      r = std::to_chars(buf, buf + sizeof buf, t.data<double>()[k], std::chars_format::scientific);
      break;
    default: r = std::to_chars(buf, buf + sizeof buf, shortest_value(t, k), std::chars_format::scientific);
  }
  return std::string(buf, r.ptr);
}

// "-1.25e+02" as sign, digits "125" and decimal exponent 2 (value = d.ddd x 10^exp).
struct Digits {
  bool negative = false;
  std::string digits;
  int exp = 0;
};

Digits split_scientific(const std::string& s) {
  Digits d;
  size_t i = 0;
  if (s[0] == '-') d.negative = true, i = 1;
  const size_t e = s.find('e');
  for (; i < e; ++i)
    if (s[i] != '.') d.digits += s[i];
  d.exp = std::atoi(s.c_str() + e + 1);
  return d;
}

// Positional text of exactly the digits in `d` ("0.00125", "125.", "12.5"), with
// `whole_suffix` after the point of a whole number ("." in arrays, ".0" for scalars).
std::string positional(const Digits& d, const char* whole_suffix) {
  std::string s = d.negative ? "-" : "";
  const int n = static_cast<int>(d.digits.size());
  if (d.exp < 0) {
    s += "0.";
    s.append(static_cast<size_t>(-d.exp - 1), '0');
    s += d.digits;
  } else if (d.exp + 1 >= n) {
    s += d.digits;
    s.append(static_cast<size_t>(d.exp + 1 - n), '0');
    s += whole_suffix;
  } else {
    s.append(d.digits, 0, static_cast<size_t>(d.exp + 1));
    s += '.';
    s.append(d.digits, static_cast<size_t>(d.exp + 1));
  }
  return s;
}

void strip_zeros(std::string& s, size_t end) {  // trailing zeros of s[0, end) after a '.'
  size_t z = end;
  while (z > 0 && s[z - 1] == '0') --z;
  s.erase(z, end - z);
}

std::string non_finite(double v) { return std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf"; }

std::string integer_text(const Tensor& t, int64_t k) {
  if (t.dtype() == DType::kInt64) return std::to_string(t.data<int64_t>()[k]);
  if (t.dtype() == DType::kUInt64) return std::to_string(t.data<uint64_t>()[k]);
  return std::to_string(static_cast<int64_t>(element_as_double(t, k)));
}

// numpy's str() of a scalar: positional for 0 and 1e-4 <= |v| < 1e16 ("1.0", "0.1"),
// else scientific ("1e-05", "1.5e+16").
std::string scalar_text(const Tensor& t) {
  if (t.dtype() == DType::kBool) return element_as_double(t, 0) != 0 ? "True" : "False";
  if (!is_float(t.dtype())) return integer_text(t, 0);
  const double v = element_as_double(t, 0);
  if (!std::isfinite(v)) return non_finite(v);
  const std::string sci = shortest_scientific(t, 0);
  const double a = std::fabs(v);
  if (a == 0 || (a >= 1e-4 && a < 1e16)) return positional(split_scientific(sci), ".0");
  return sci;
}

// numpy's FloatingFormat (maxprec, precision 8) over the shown elements, and the formats
// of the other kinds.
class ElementFormatter {
 public:
  template <class ForEach>
  ElementFormatter(const Tensor& t, ForEach for_each_shown) : t_(t), type_(t.dtype()) {
    if (type_ == DType::kBool) {
      width_ = 5;  // " True" and "False"
      return;
    }
    if (!is_float(type_)) {
      for_each_shown([&](int64_t k) { width_ = std::max(width_, integer_text(t, k).size()); });
      return;
    }
    double lo = INFINITY, hi = 0;
    bool any_finite = false, any_non_finite = false, neg_inf = false;
    for_each_shown([&](int64_t k) {
      const double v = element_as_double(t, k);
      if (!std::isfinite(v)) {
        any_non_finite = true;
        neg_inf |= v < 0;
        return;
      }
      any_finite = true;
      const double a = std::fabs(v);
      if (a != 0) lo = std::min(lo, a), hi = std::max(hi, a);
    });
    if (hi > 0) scientific_ = hi >= 1e8 || lo < 1e-4 || ratio_above_1000(hi, lo);
    if (any_finite) {
      for_each_shown([&](int64_t k) {
        const double v = element_as_double(t, k);
        if (!std::isfinite(v)) return;
        const std::string s = first_pass(k);
        const size_t dot = s.find('.');
        pad_left_ = std::max(pad_left_, dot);
        if (scientific_) {
          const size_t e = s.find('e');
          precision_ = std::max(precision_, e - dot - 1);
          exp_size_ = std::max(exp_size_, s.size() - e - 2);
        } else {
          pad_right_ = std::max(pad_right_, s.size() - dot - 1);
        }
      });
      if (scientific_) pad_right_ = exp_size_ + 2 + precision_;
    }
    if (any_non_finite) {
      const size_t offset = pad_right_ + 1;
      const size_t inf_len = 3 + (neg_inf ? 1 : 0);
      pad_left_ = std::max({pad_left_, 3 - std::min<size_t>(3, offset), inf_len - std::min(inf_len, offset)});
    }
    width_ = pad_left_ + pad_right_ + 1;
  }

  // Element k in the common width, appended to `out`.
  void append(std::string& out, int64_t k) const {
    if (type_ == DType::kBool) {
      out += element_as_double(t_, k) != 0 ? " True" : "False";
      return;
    }
    std::string s;
    if (!is_float(type_)) {
      s = integer_text(t_, k);
    } else {
      const double v = element_as_double(t_, k);
      s = !std::isfinite(v) ? non_finite(v) : scientific_ ? second_pass_scientific(v) : first_pass(k);
      if (std::isfinite(v) && !scientific_) {  // pad the fraction on the right
        const size_t frac = s.size() - s.find('.') - 1;
        s.append(pad_right_ - std::min(pad_right_, frac), ' ');
      }
    }
    out.append(width_ - std::min(width_, s.size()), ' ');
    out += s;
  }

  size_t width() const { return width_; }

 private:
  // max/min > 1000 computed in the tensor's own type, as numpy divides its scalars.
  bool ratio_above_1000(double hi, double lo) const {
    switch (type_) {
      case DType::kFloat: return static_cast<float>(hi) / static_cast<float>(lo) > 1000.0f;
      case DType::kFloat16:
        return float16_to_float(float_to_float16(static_cast<float>(hi) / static_cast<float>(lo))) > 1000.0f;
      case DType::kBFloat16:
        return bfloat16_to_float(float_to_bfloat16(static_cast<float>(hi) / static_cast<float>(lo))) > 1000.0f;
      default: return hi / lo > 1000.0;
    }
  }

  // Dragon4 with unique digits cut at 8 after the point (min_digits 0 in positional mode:
  // the integer part is always exact). Positional "12.5", "3.", "0.12345679"; scientific
  // "1.25e+02", "1.e-05".
  std::string first_pass(int64_t k) const {
    const double v = element_as_double(t_, k);
    const std::string sci = shortest_scientific(t_, k);
    const Digits d = split_scientific(sci);
    const int n = static_cast<int>(d.digits.size());
    if (scientific_) {
      if (n - 1 > 8) {
        std::string s = fmt::format("{:.8e}", v);
        strip_zeros(s, s.find('e'));
        return s;
      }
      std::string s = d.negative ? "-" : "";
      s += d.digits[0];
      s += '.';
      s.append(d.digits, 1);
      s += sci.substr(sci.find('e'));
      return s;
    }
    const int frac = n - 1 - d.exp;
    if (frac > 8) {
      std::string s = fmt::format("{:.8f}", v);
      strip_zeros(s, s.size());
      return s;
    }
    if (frac <= 0) return fmt::format("{:.0f}.", v);  // a whole number: its exact digits
    return positional(d, ".");
  }

  // Exactly precision_ digits after the point, correctly rounded from the value, the
  // exponent padded to exp_size_ digits.
  std::string second_pass_scientific(double v) const {
    std::string s = fmt::format("{:#.{}e}", v, precision_);
    const size_t e = s.find('e');
    const size_t digits = s.size() - e - 2;
    if (digits < exp_size_) s.insert(e + 2, exp_size_ - digits, '0');
    return s;
  }

  const Tensor& t_;
  DType type_;
  bool scientific_ = false;
  size_t pad_left_ = 0, pad_right_ = 0, precision_ = 0, exp_size_ = 0, width_ = 0;
};

// Which items of each axis are shown: all of them, or (summarised) the first and last
// `edge` with item `edge` standing for '...'. Offsets are into the shown elements alone
// (shown_elements below): a tensor of dims min(d, 2 * edge) on summarised axes.
struct Layout {
  const Shape& shape;
  std::vector<int64_t> strides;  // of the shown elements
  std::vector<uint8_t> summarised;
  int64_t edge;

  Layout(const Shape& s, bool summarise, int64_t edge_items)
      : shape(s), strides(s.size(), 1), summarised(s.size(), 0), edge(std::max<int64_t>(1, edge_items)) {
    for (size_t a = 0; a < s.size(); ++a) summarised[a] = summarise && shape[a] > 2 * edge;
    for (size_t a = s.size(); a-- > 1;) strides[a - 1] = strides[a] * (summarised[a] ? 2 * edge : shape[a]);
  }

  int64_t count(size_t a) const { return summarised[a] ? 2 * edge + 1 : shape[a]; }
  // The shown index along axis a of item j, or -1 for '...'.
  int64_t index(size_t a, int64_t j) const {
    if (!summarised[a] || j < edge) return j;
    return j == edge ? -1 : j - 1;
  }
};

// numpy's _formatArray and _extendLine (legacy=False, separator ' '), without recursion:
// at axis a the hanging indent is a+1 columns and a row's elements must end by column
// line_width - rank, which leaves room for the rank closing brackets.
std::string format_nested(const Layout& L, const ElementFormatter& f, size_t line_width) {
  const size_t r = L.shape.size();
  const size_t last = r - 1;
  const int64_t limit = static_cast<int64_t>(line_width) - static_cast<int64_t>(r);
  const int64_t indent = static_cast<int64_t>(r);
  std::string out;
  std::vector<int64_t> j(r, 0), base(r, 0);
  out.append(r, '[');
  for (;;) {
    // One row along the last axis, wrapped.
    int64_t line = indent;
    const int64_t n = L.count(last);
    for (int64_t i = 0; i < n; ++i) {
      const int64_t x = L.index(last, i);
      const int64_t w = x < 0 ? 3 : static_cast<int64_t>(f.width());
      if (line + w > limit && line > indent) {
        while (out.back() == ' ') out.pop_back();
        out += '\n';
        out.append(r, ' ');
        line = indent;
      }
      if (x < 0) out += "...";
      else f.append(out, base[last] + x);
      line += w;
      if (i + 1 < n) out += ' ', ++line;
    }
    out += ']';
    // Up to the next item of the deepest axis that has one, closing the others.
    size_t a = last;
    for (;;) {
      if (a == 0) return out;
      --a;
      if (++j[a] < L.count(a)) break;
      j[a] = 0;
      out += ']';
    }
    const size_t newlines = r - a - 1;
    out.append(newlines, '\n');
    out.append(a + 1, ' ');
    if (L.index(a, j[a]) < 0) {  // '...' in place of the middle sub-arrays
      out += "...";
      out.append(newlines, '\n');
      out.append(a + 1, ' ');
      ++j[a];
    }
    out.append(last - a, '[');
    for (size_t b = a; b < last; ++b) base[b + 1] = base[b] + L.index(b, j[b]) * L.strides[b];
  }
}

}  // namespace

std::string format_element_shortest(const Tensor& t, int64_t k) {
  const double v = element_as_double(t, k);
  if (std::isnan(v) && !is_float(t.dtype())) return element_bits(t, k);  // no number: its bits
  if (t.dtype() == DType::kBool) return v != 0 ? "True" : "False";
  if (!is_float(t.dtype())) return integer_text(t, k);
  if (!std::isfinite(v)) return non_finite(v);
  char buf[64];
  auto r = t.dtype() == DType::kFloat    ? std::to_chars(buf, buf + sizeof buf, t.data<float>()[k])
           : t.dtype() == DType::kDouble ? std::to_chars(buf, buf + sizeof buf, v)
                                         : std::to_chars(buf, buf + sizeof buf, shortest_value(t, k));
  return std::string(buf, r.ptr);
}

bool print_summarises(const Shape& shape, const ArrayPrintOptions& o) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d == 0) return false;
    // Past the threshold the exact count does not matter (and could overflow).
    n = d > o.threshold || n > o.threshold / d ? o.threshold + 1 : n * d;
  }
  return !o.full && n > o.threshold;
}

Shape shown_shape(const Shape& shape, const ArrayPrintOptions& o) {
  const int64_t edge = std::max<int64_t>(1, o.edge_items);
  Shape s = shape;
  if (print_summarises(shape, o))
    for (int64_t& d : s) d = std::min(d, 2 * edge);
  return s;
}

std::vector<int64_t> shown_offsets(const Shape& shape, const ArrayPrintOptions& o) {
  const Shape compact = shown_shape(shape, o);
  const size_t r = shape.size();
  const int64_t edge = std::max<int64_t>(1, o.edge_items);
  std::vector<int64_t> strides(r, 1);
  for (size_t a = r; a-- > 1;) strides[a - 1] = strides[a] * shape[a];
  std::vector<int64_t> out;
  for (int64_t d : compact)
    if (d == 0) return out;
  // Row-major over the shown elements is ascending in the tensor: an odometer over
  // `compact`, each digit mapped to its item of the full axis.
  std::vector<int64_t> j(r, 0);
  auto item = [&](size_t a) { return compact[a] == shape[a] || j[a] < edge ? j[a] : shape[a] - 2 * edge + j[a]; };
  for (;;) {
    int64_t off = 0;
    for (size_t a = 0; a < r; ++a) off += item(a) * strides[a];
    out.push_back(off);
    size_t a = r;
    for (;;) {
      if (a == 0) return out;
      --a;
      if (++j[a] < compact[a]) break;
      j[a] = 0;
    }
  }
}

Tensor shown_elements(const Tensor& t, const ArrayPrintOptions& o) {
  if (!print_summarises(t.shape(), o)) return t;
  const size_t esize = dtype_size(t.dtype());
  Tensor shown(t.dtype(), shown_shape(t.shape(), o));
  auto* dst = static_cast<unsigned char*>(shown.mutable_raw());
  const auto* src = static_cast<const unsigned char*>(t.raw());
  for (int64_t off : shown_offsets(t.shape(), o)) {
    std::memcpy(dst, src + static_cast<size_t>(off) * esize, esize);
    dst += esize;
  }
  return shown;
}

std::string format_shown(const Tensor& shown, const Shape& shape, const ArrayPrintOptions& o) {
  if (shown.dtype() == DType::kComplex64 || shown.dtype() == DType::kComplex128 || !dtype_is_storable(shown.dtype()))
    return fmt::format("({} values are not printed)", dtype_name(shown.dtype()));
  if (shown.numel() == 0) return "[]";  // numpy prints every empty array so, whatever its shape
  if (shape.empty()) return scalar_text(shown);
  const Layout layout(shape, print_summarises(shape, o), o.edge_items);
  const ElementFormatter f(shown, [&](auto fn) {
    for (int64_t k = 0; k < shown.numel(); ++k) fn(k);
  });
  return format_nested(layout, f, o.line_width);
}

std::string format_stats(const TensorStats& s) {
  if (!s.numeric) return fmt::format("{} values", s.count);
  if (s.count == 0) return "empty";
  auto num = [](double v) { return std::isfinite(v) ? fmt::format("{:.6g}", v) : non_finite(v); };
  const int64_t inf = s.pos_inf + s.neg_inf;
  if (s.finite == s.count)
    return fmt::format("min {} max {} mean {} std {} nan 0 inf 0", num(s.min), num(s.max), num(s.mean), num(s.std));
  if (s.finite > 0)
    return fmt::format("min {} max {} mean {} std {} (finite values) nan {} inf {}", num(s.min), num(s.max),
                       num(s.mean), num(s.std), s.nan, inf);
  if (inf > 0) return fmt::format("min {} max {}, no finite values, nan {} inf {}", num(s.min), num(s.max), s.nan, inf);
  return fmt::format("no finite values, nan {} inf {}", s.nan, inf);
}

}  // namespace onnxrun
