#include "core/error.h"

#include <fmt/core.h>

namespace onnxrun {

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) out += fmt::format("\\x{:02x}", u);
    else out += c;
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
