// json_text: nlohmann's layout, written here so that a double comes out in its shortest
// digits. nlohmann writes doubles with Grisu2, which reads back exactly but in about one
// case in a thousand is not the shortest (a run time of 0.001623903 s came out as
// 0.0016239029999999999), so a report broke the rule of suite/json_documents.h that
// values show the shortest decimal that reads back. std::to_chars always finds it.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "suite/json_documents.h"
#include "suite/json_values.h"

namespace onnxrun {
namespace {

using Json = nlohmann::ordered_json;

// A string as nlohmann escapes it. Names and strings come from model files, which need
// not be valid UTF-8: `replace` writes U+FFFD for a bad byte where the default would throw.
void write_string(std::string& out, const std::string& s) {
  out += Json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// The shortest digits of v (to_chars), placed as nlohmann places Grisu2's: positional
// between 1e-4 and 1e15 with ".0" after a whole number, else d.ddde+XX; null for NaN and
// infinities, which JSON has no numbers for.
void write_double(std::string& out, double v) {
  if (!std::isfinite(v)) {
    out += "null";
    return;
  }
  char buf[64];
  const std::string_view sci(
      buf, static_cast<size_t>(std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific).ptr - buf));
  size_t at = 0;
  if (sci[0] == '-') {
    out += '-';
    at = 1;
  }
  const size_t e = sci.find('e');
  std::string digits(1, sci[at]);
  if (e > at + 1) digits.append(sci.substr(at + 2, e - at - 2));
  const int k = static_cast<int>(digits.size());
  const int n = std::atoi(std::string(sci.substr(e + 1)).c_str()) + 1;  // the point after n digits
  constexpr int kMinExp = -4, kMaxExp = 15;                             // nlohmann's format_buffer
  if (k <= n && n <= kMaxExp) {
    out += digits + std::string(static_cast<size_t>(n - k), '0') + ".0";
  } else if (0 < n && n <= kMaxExp) {
    out += digits.substr(0, static_cast<size_t>(n)) + "." + digits.substr(static_cast<size_t>(n));
  } else if (kMinExp < n && n <= 0) {
    out += "0." + std::string(static_cast<size_t>(-n), '0') + digits;
  } else {
    out += digits.substr(0, 1);
    if (k > 1) out += "." + digits.substr(1);
    const int x = n - 1;
    out += x < 0 ? "e-" : "e+";
    const std::string mag = std::to_string(std::abs(x));
    out += (mag.size() < 2 ? "0" : "") + mag;
  }
}

// Indentation stops growing below this depth. A document's lines are indented by their
// depth, so a tensor of rank 1,000 printed as nested lists cost a quadratic 2,000
// spaces a line (900 MB for 93 values; found by fuzz_run). Past it, lines keep the
// indentation of this depth: still valid JSON, as deep as any real tensor's never is.
constexpr int kDeepestIndent = 32;

void write(std::string& out, const Json& j, int indent, int depth) {
  if (j.is_object() || j.is_array()) {
    const bool object = j.is_object(), pretty = indent >= 0;
    if (j.empty()) {
      out += object ? "{}" : "[]";
      return;
    }
    auto newline = [&](int level) {
      if (pretty) out += '\n' + std::string(static_cast<size_t>(indent * std::min(level, kDeepestIndent)), ' ');
    };
    out += object ? '{' : '[';
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (it != j.begin()) out += ',';
      newline(depth + 1);
      if (object) {
        write_string(out, it.key());
        out += pretty ? ": " : ":";
      }
      write(out, it.value(), indent, depth + 1);
    }
    newline(depth);
    out += object ? '}' : ']';
    return;
  }
  switch (j.type()) {
    case Json::value_t::string: write_string(out, j.get_ref<const std::string&>()); return;
    case Json::value_t::number_float: write_double(out, j.get<double>()); return;
    default: out += j.dump(); return;  // null, booleans, integers: as nlohmann writes them
  }
}

}  // namespace

std::string json_text(const Json& j, int indent) {
  std::string out;
  write(out, j, indent, 0);
  return out + "\n";
}

}  // namespace onnxrun
