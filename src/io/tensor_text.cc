#include "io/tensor_text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
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

// The shortest decimal (as a double) that reads back as element k in its own type.
double shortest_value(const Tensor& t, int64_t k) {
  const double v = element_as_double(t, k);
  if (t.dtype() != DType::kFloat16 && t.dtype() != DType::kBFloat16) return v;
  const uint16_t want = bits16(t, k);
  for (int p = 0; p < 6; ++p) {
    const double d = std::strtod(fmt::format("{:.{}e}", v, p).c_str(), nullptr);
    if ((t.dtype() == DType::kFloat16 ? double_to_float16(d) : double_to_bfloat16(d)) == want) return d;
  }
  return v;
}

// Shortest text for the value in `chars_format` (fixed or scientific), in its own type.
std::string shortest_text(const Tensor& t, int64_t k, std::chars_format f) {
  char buf[400];
  std::to_chars_result r;
  if (t.dtype() == DType::kFloat) r = std::to_chars(buf, buf + sizeof buf, t.data<float>()[k], f);
  else r = std::to_chars(buf, buf + sizeof buf, shortest_value(t, k), f);
  return std::string(buf, r.ptr);
}

std::string non_finite(double v) { return std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf"; }

// Formats the elements that will be shown, all in one width, numpy's way.
class ElementFormatter {
 public:
  ElementFormatter(const Tensor& t, const std::vector<int64_t>& shown) : t_(t) {
    if (!is_float(t.dtype())) {
      for (int64_t k : shown) width_ = std::max(width_, plain(k).size());
      return;
    }
    double lo = INFINITY, hi = 0;
    for (int64_t k : shown) {
      const double a = std::fabs(element_as_double(t, k));
      if (!std::isfinite(a) || a == 0) continue;
      lo = std::min(lo, a), hi = std::max(hi, a);
    }
    // numpy switches to scientific for tiny or huge values or a range over 1000x.
    scientific_ = hi > 0 && (hi >= 1e16 || lo < 1e-4 || hi / lo > 1e3);
    for (int64_t k : shown) {
      const double v = element_as_double(t, k);
      if (!std::isfinite(v)) continue;
      if (scientific_) {
        const std::string s = shortest_text(t, k, std::chars_format::scientific);
        const size_t dot = s.find('.'), e = s.find('e');
        frac_ = std::max(frac_, dot == std::string::npos ? 0 : e - dot - 1);
      } else {
        std::string s = fixed(k);
        const size_t dot = s.find('.');
        int_ = std::max(int_, dot);
        frac_ = std::max(frac_, s.size() - dot - 1);
      }
    }
    frac_ = std::min<size_t>(frac_, 8);
    for (int64_t k : shown) width_ = std::max(width_, raw(k).size());
  }

  std::string operator()(int64_t k) const {
    std::string s = raw(k);
    return std::string(width_ - std::min(width_, s.size()), ' ') + s;
  }

 private:
  std::string plain(int64_t k) const {
    if (t_.dtype() == DType::kBool) return element_as_double(t_, k) != 0 ? "True" : "False";
    if (t_.dtype() == DType::kInt64) return std::to_string(t_.data<int64_t>()[k]);
    if (t_.dtype() == DType::kUInt64) return std::to_string(t_.data<uint64_t>()[k]);
    const double v = element_as_double(t_, k);
    return std::isnan(v) ? "?" : fmt::format("{}", static_cast<int64_t>(v));
  }

  // Fixed notation with at most 8 digits after the point; a whole number keeps its '.'.
  std::string fixed(int64_t k) const {
    std::string s = shortest_text(t_, k, std::chars_format::fixed);
    size_t dot = s.find('.');
    if (dot == std::string::npos) return s + ".";
    if (s.size() - dot - 1 > 8) {
      s = fmt::format("{:.8f}", element_as_double(t_, k));
      while (s.back() == '0') s.pop_back();
    }
    return s;
  }

  std::string raw(int64_t k) const {
    if (!is_float(t_.dtype())) return plain(k);
    const double v = element_as_double(t_, k);
    if (!std::isfinite(v)) return non_finite(v);
    if (scientific_) return frac_ ? fmt::format("{:.{}e}", v, frac_) : fmt::format("{:#.0e}", v);
    std::string s = fixed(k);
    const size_t dot = s.find('.');
    return std::string(int_ - std::min(int_, dot), ' ') + s + std::string(frac_ - std::min(frac_, s.size() - dot - 1), ' ');
  }

  const Tensor& t_;
  bool scientific_ = false;
  size_t int_ = 0, frac_ = 0, width_ = 0;
};

struct Printer {
  const Tensor& t;
  const ArrayPrintOptions& o;
  bool summarise;
  std::vector<int64_t> strides;
  const ElementFormatter* fmt_ = nullptr;

  // The indices along `axis` that are shown, with -1 standing for '...'.
  std::vector<int64_t> items(size_t axis) const {
    const int64_t n = t.shape()[axis];
    std::vector<int64_t> out;
    if (summarise && n > 2 * o.edge_items) {
      for (int64_t i = 0; i < o.edge_items; ++i) out.push_back(i);
      out.push_back(-1);
      for (int64_t i = n - o.edge_items; i < n; ++i) out.push_back(i);
    } else {
      for (int64_t i = 0; i < n; ++i) out.push_back(i);
    }
    return out;
  }

  void collect(size_t axis, int64_t offset, std::vector<int64_t>& out) const {
    if (axis == t.rank()) {
      out.push_back(offset);
      return;
    }
    for (int64_t i : items(axis))
      if (i >= 0) collect(axis + 1, offset + i * strides[axis], out);
  }

  // numpy's _formatArray: `indent` is the hanging indent, `width` what is left of the line.
  std::string format(size_t axis, int64_t offset, const std::string& indent, size_t width) const {
    if (axis == t.rank()) return (*fmt_)(offset);
    const std::string next_indent = indent + " ";
    const auto shown = items(axis);
    std::string s;
    if (axis + 1 == t.rank()) {
      std::string line = indent;
      for (size_t j = 0; j < shown.size(); ++j) {
        const std::string word = shown[j] < 0 ? "..." : (*fmt_)(offset + shown[j] * strides[axis]);
        const size_t limit = j + 1 == shown.size() ? width : width;
        if (line.size() + word.size() > limit && line.size() > indent.size()) {
          while (!line.empty() && line.back() == ' ') line.pop_back();
          s += line + "\n";
          line = indent;
        }
        line += word;
        if (j + 1 < shown.size()) line += " ";
      }
      s += line;
    } else {
      const std::string sep = std::string(t.rank() - axis - 1, '\n');
      for (size_t j = 0; j < shown.size(); ++j) {
        s += indent + (shown[j] < 0 ? std::string("...")
                                    : format(axis + 1, offset + shown[j] * strides[axis], next_indent, width - 1));
        if (j + 1 < shown.size()) s += sep;
      }
    }
    return "[" + s.substr(indent.size()) + "]";
  }
};

}  // namespace

std::string format_element_shortest(const Tensor& t, int64_t k) {
  const double v = element_as_double(t, k);
  if (t.dtype() == DType::kBool) return v != 0 ? "True" : "False";
  if (!is_float(t.dtype())) {
    if (t.dtype() == DType::kInt64) return std::to_string(t.data<int64_t>()[k]);
    if (t.dtype() == DType::kUInt64) return std::to_string(t.data<uint64_t>()[k]);
    return fmt::format("{}", v);
  }
  if (!std::isfinite(v)) return non_finite(v);
  char buf[64];
  auto r = t.dtype() == DType::kFloat ? std::to_chars(buf, buf + sizeof buf, t.data<float>()[k])
                                      : std::to_chars(buf, buf + sizeof buf, shortest_value(t, k));
  return std::string(buf, r.ptr);
}

std::string format_array(const Tensor& t, const ArrayPrintOptions& o) {
  if (t.dtype() == DType::kComplex64 || t.dtype() == DType::kComplex128 || !dtype_is_storable(t.dtype()))
    return fmt::format("({} values are not printed)", dtype_name(t.dtype()));
  Printer p{t, o, !o.full && t.numel() > o.threshold, {}, nullptr};
  p.strides.assign(t.rank(), 1);
  for (size_t a = t.rank(); a-- > 1;) p.strides[a - 1] = p.strides[a] * t.shape()[a];
  std::vector<int64_t> shown;
  p.collect(0, 0, shown);
  const ElementFormatter f(t, shown);
  p.fmt_ = &f;
  if (t.rank() == 0) return f(0);
  return p.format(0, 0, " ", o.line_width);
}

std::string format_stats(const TensorStats& s) {
  if (!s.numeric) return fmt::format("{} values", s.count);
  auto num = [](double v) { return std::isfinite(v) ? fmt::format("{:.6g}", v) : non_finite(v); };
  return fmt::format("min {} max {} mean {} std {} nan {} inf {}", num(s.min), num(s.max), num(s.mean), num(s.std),
                     s.nan, s.pos_inf + s.neg_inf);
}

}  // namespace onnxrun
