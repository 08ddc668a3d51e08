#include "core/error.h"

#include <fmt/core.h>

namespace onnxrun {

namespace {

std::string escape_controls(std::string_view text, bool keep_newlines) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if ((u < 0x20 || u == 0x7f) && !(keep_newlines && c == '\n')) out += fmt::format("\\x{:02x}", u);
    else out += c;
  }
  return out;
}

}  // namespace

std::string printable(std::string_view text) { return escape_controls(text, false); }

std::string printable_lines(std::string_view text) { return escape_controls(text, true); }

namespace {

// How many bytes the well-formed UTF-8 sequence at `s` (of `n` bytes) spans; 0 when none
// starts there (the Unicode standard's table 3-7: no overlong forms, no surrogates).
size_t utf8_length(const unsigned char* s, size_t n) {
  const unsigned char c = s[0];
  if (c < 0x80) return 1;
  size_t len = 0;
  unsigned char lo = 0x80, hi = 0xbf;  // the second byte's range
  if (c >= 0xc2 && c <= 0xdf) len = 2;
  else if (c >= 0xe0 && c <= 0xef) len = 3;
  else if (c >= 0xf0 && c <= 0xf4) len = 4;
  else return 0;
  if (c == 0xe0) lo = 0xa0;
  if (c == 0xed) hi = 0x9f;
  if (c == 0xf0) lo = 0x90;
  if (c == 0xf4) hi = 0x8f;
  if (n < len || s[1] < lo || s[1] > hi) return 0;
  for (size_t i = 2; i < len; ++i)
    if (s[i] < 0x80 || s[i] > 0xbf) return 0;
  return len;
}

}  // namespace

std::string valid_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  for (size_t i = 0; i < text.size();) {
    const size_t len = utf8_length(s + i, text.size() - i);
    if (len == 0) {
      out += fmt::format("\\x{:02x}", s[i]);
      ++i;
    } else {
      out.append(text.substr(i, len));
      i += len;
    }
  }
  return out;
}

Error Error::with_context(std::string_view context) const {
  Error e(kind_, fmt::format("{}: {}", context, what()));
  e.causes_ = causes_;
  return e;
}

std::string Cause::key() const {
  const std::string qualified = domain.empty() ? op : domain + "." + op;
  switch (kind) {
    case Kind::kOp: return qualified;
    case Kind::kVersion: return fmt::format("{} (opset {})", qualified, opset);
    case Kind::kDomain: return "domain " + domain;
    case Kind::kType: return op.empty() ? "type " + type : fmt::format("{}({})", qualified, type);
    case Kind::kFeature: return feature;
  }
  return feature;
}

const std::vector<Cause>& Error::causes() const {
  static const std::vector<Cause> kNone;
  return causes_ ? *causes_ : kNone;
}

}  // namespace onnxrun
