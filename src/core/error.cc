#include "core/error.h"

#include <fmt/core.h>

namespace onnxrun {

namespace {

// How many bytes at `s` (of `n`) make a character to escape: a C0 control or DEL (1), a
// C1 control U+0080..U+009F (2: C2 80..C2 9F; U+009B is the 8-bit ESC[, U+0085 a line
// break to some viewers) or the noncharacter U+FFFE or U+FFFF (3: EF BF BE, EF BF BF,
// which XML 1.0 cannot hold, so that the JUnit report would name the test otherwise);
// 0 for any other. These are lead bytes, never continuations: the match cannot start
// inside another character.
size_t control_length(const unsigned char* s, size_t n) {
  if (s[0] < 0x20 || s[0] == 0x7f) return 1;
  if (s[0] == 0xc2 && n >= 2 && s[1] >= 0x80 && s[1] <= 0x9f) return 2;
  if (s[0] == 0xef && n >= 3 && s[1] == 0xbf && (s[2] == 0xbe || s[2] == 0xbf)) return 3;
  return 0;
}

std::string escape_controls(std::string_view text, bool keep_newlines) {
  std::string out;
  out.reserve(text.size());
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  for (size_t i = 0; i < text.size();) {
    const size_t len = keep_newlines && s[i] == '\n' ? 0 : control_length(s + i, text.size() - i);
    if (len == 0) out += text[i++];
    for (const size_t end = i + len; i < end; ++i) out += fmt::format("\\x{:02x}", s[i]);
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
