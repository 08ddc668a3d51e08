#include "io/polygraphy_results.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/fail.h"
#include "io/file_bytes.h"
#include "io/npy.h"
#include "io/npz.h"

namespace onnxrun {
namespace {

using Json = nlohmann::json;

// The "array" string of an ARRAY, through its lazy wrappers ({"values": ARRAY}); null
// when `j` is none.
const std::string* array_text(const Json& j, int depth = 0) {
  if (!j.is_object() || depth > 8) return nullptr;
  if (const auto it = j.find("array"); it != j.end() && it->is_string()) return &it->get_ref<const std::string&>();
  const auto values = j.find("values");
  return values == j.end() ? nullptr : array_text(*values, depth + 1);
}

void add_outputs(const Json& outputs, const std::shared_ptr<Json>& doc, PolygraphyResults& r, const std::string& what) {
  if (!outputs.is_object()) fail(ErrorKind::kInvalid, "{}: an iteration's outputs are not an object", what);
  for (const auto& [name, value] : outputs.items()) {
    const std::string* text = array_text(value);
    if (!text) fail(ErrorKind::kInvalid, "{}: '{}' is not an encoded numpy array", what, name);
    r.values.push_back({name, doc, text});
  }
}

// Polygraphy's decoder tries base64 first and falls back to the string's code points as
// latin-1 bytes (files written before it used base64).
std::string latin1_bytes(const std::string& utf8, const std::string& what) {
  std::string out;
  for (size_t k = 0; k < utf8.size(); ++k) {
    const auto c = static_cast<unsigned char>(utf8[k]);
    if (c < 0x80) {
      out += static_cast<char>(c);
    } else if ((c == 0xc2 || c == 0xc3) && k + 1 < utf8.size()) {
      out += static_cast<char>(((c & 0x03) << 6) | (static_cast<unsigned char>(utf8[++k]) & 0x3f));
    } else {
      fail(ErrorKind::kInvalid, "{}: the array is neither base64 nor latin-1 text", what);
    }
  }
  return out;
}

}  // namespace

bool decode_base64(const std::string& in, std::string& out) {
  auto value = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  if (in.size() % 4 != 0) return false;
  out.clear();
  out.reserve(in.size() / 4 * 3);
  for (size_t k = 0; k < in.size(); k += 4) {
    int v[4] = {};
    int pad = 0;
    for (int j = 0; j < 4; ++j) {
      const char c = in[k + j];
      // Padding only at the end: "xx==" or "xxx=".
      if (c == '=' && k + 4 == in.size() && j >= 2 && (j == 3 || in[k + 3] == '=')) {
        v[j] = 0;
        ++pad;
      } else if (pad || (v[j] = value(c)) < 0) {
        return false;
      }
    }
    const uint32_t n = (uint32_t(v[0]) << 18) | (uint32_t(v[1]) << 12) | (uint32_t(v[2]) << 6) | uint32_t(v[3]);
    out += static_cast<char>(n >> 16);
    if (pad < 2) out += static_cast<char>((n >> 8) & 0xff);
    if (pad < 1) out += static_cast<char>(n & 0xff);
  }
  return true;
}

Tensor decode_polygraphy_array(const std::string& encoded, const std::string& what) {
  std::string bytes;
  if (!decode_base64(encoded, bytes)) bytes = latin1_bytes(encoded, what);
  // Before base64, Polygraphy saved arrays with numpy.savez: an .npz image of one array.
  if (bytes.starts_with("PK")) {
    std::vector<NamedArray> arrays = parse_npz(bytes, what);
    if (arrays.empty()) fail(ErrorKind::kInvalid, "{}: an empty .npz where an array belongs", what);
    return std::move(arrays.front().tensor);
  }
  return parse_npy(bytes, what);
}

PolygraphyResults parse_polygraphy_results(const std::string& text, const std::string& what) {
  // JSON lets an object hold a key twice and the parser keeps the last: an "outputs" with
  // "y" twice was read as one y, and which one the runtime meant cannot be told (a folder
  // or an .npz holding a name twice is refused alike). Polygraphy writes no such object.
  std::vector<std::set<std::string>> keys;  // of each object open
  std::optional<std::string> twice;
  const Json::parser_callback_t check_keys = [&](int, Json::parse_event_t event, Json& parsed) {
    if (event == Json::parse_event_t::object_start) keys.emplace_back();
    if (event == Json::parse_event_t::object_end) keys.pop_back();
    if (event == Json::parse_event_t::key && !keys.back().insert(parsed.get<std::string>()).second && !twice)
      twice = parsed.get<std::string>();
    return true;
  };
  auto doc = std::make_shared<Json>(Json::parse(text, check_keys, false));
  if (doc->is_discarded()) fail(ErrorKind::kInvalid, "{}: not valid JSON", what);
  if (twice) fail(ErrorKind::kInvalid, "{}: an object holds '{}' twice", what, printable(*twice));
  PolygraphyResults r;
  const Json& j = *doc;
  if (j.is_array()) {  // --save-inputs: a list of feed dicts; the first one
    if (j.empty() || !j.front().is_object())
      fail(ErrorKind::kInvalid, "{}: not Polygraphy's saved inputs (a list of {{name: array}})", what);
    add_outputs(j.front(), doc, r, what);
    return r;
  }
  const auto lst = j.is_object() ? j.find("lst") : j.end();
  if (lst == j.end() || !lst->is_array())
    fail(ErrorKind::kInvalid, "{}: not Polygraphy's RunResults (no \"lst\" of runners)", what);
  for (const Json& entry : *lst) {
    if (!entry.is_array() || entry.size() != 2 || !entry[0].is_string() || !entry[1].is_array())
      fail(ErrorKind::kInvalid, "{}: a RunResults entry is not [runner, [iterations]]", what);
    const std::string runner = entry[0].get<std::string>();
    if (!r.runner.empty() || entry[1].empty()) {
      r.other_runners.push_back(runner);
      continue;
    }
    r.runner = runner;
    const Json& iteration = entry[1].front();
    const auto outputs = iteration.is_object() ? iteration.find("outputs") : iteration.end();
    if (outputs == iteration.end())
      fail(ErrorKind::kInvalid, "{}: runner '{}' has an iteration without outputs", what, runner);
    add_outputs(*outputs, doc, r, what);
  }
  if (r.runner.empty()) fail(ErrorKind::kInvalid, "{}: no runner with results", what);
  return r;
}

PolygraphyResults read_polygraphy_results(const std::string& path) {
  const FileBytes bytes = FileBytes::read(path, FileBytes::Limit::kMemoryOnly);
  return parse_polygraphy_results(std::string(bytes.data(), bytes.size()), path);
}

}  // namespace onnxrun
