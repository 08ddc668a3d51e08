// json_text (suite/json_text.cc): nlohmann's layout, with every double in its shortest
// digits, which nlohmann's own writer misses about once in a thousand.
#include <catch2/catch.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "suite/json_documents.h"
#include "suite/json_values.h"

using namespace onnxrun;
using Json = nlohmann::ordered_json;

namespace {

// The significant digits of to_chars' shortest scientific text: what any shortest
// writer must show.
std::string shortest_digits(double v) {
  char buf[64];
  std::string s(buf, std::to_chars(buf, buf + sizeof buf, std::abs(v), std::chars_format::scientific).ptr);
  s = s.substr(0, s.find('e'));
  s.erase(std::remove(s.begin(), s.end(), '.'), s.end());
  return s;
}

// The significant digits of a JSON number's text: no sign, point, exponent, or zeros
// around them (the ".0" of a whole number included).
std::string digits_of(std::string t) {
  if (t[0] == '-') t.erase(0, 1);
  t = t.substr(0, t.find('e'));
  t.erase(std::remove(t.begin(), t.end(), '.'), t.end());
  t.erase(0, t.find_first_not_of('0'));
  while (t.size() > 1 && t.back() == '0') t.pop_back();
  return t.empty() ? "0" : t;
}

std::string one(double v) {
  std::string t = json_text(Json(v), -1);
  t.pop_back();  // the newline
  return t;
}

}  // namespace

TEST_CASE("json_text lays a document out as nlohmann does, at every indent", "[json]") {
  Json doc;
  doc["name"] = "x\t\"quoted\"\n";
  doc["bad utf-8"] = std::string(
      "a\xff"
      "b");
  doc["ints"] = {0, -7, int64_t{1} << 62, uint64_t{18446744073709551615u}};
  doc["reals"] = {0.0, -0.0, 0.5, -1.25, 1e-07, 0.0001, 1e-05, 123.0, 1e14, 1e15, 1e16, 1.1779004e+37, 2e-300};
  doc["flags"] = {true, false, nullptr};
  doc["empty object"] = Json::object();
  doc["empty array"] = Json::array();
  doc["nested"] = {{"a", {{"b", Json::array({1, Json::object()})}}}};
  for (int indent : {-1, 0, 1, 2, 4}) {
    CAPTURE(indent);
    CHECK(json_text(doc, indent) == doc.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
  }
}

// A rank-1000 tensor's values as nested lists: the indentation of a line stops growing at
// depth 32, so the text grows with the lines, not with the square of the depth (the
// 900 MB that fuzz_run found for 93 values). Still one JSON document that reads back.
TEST_CASE("json_text's indentation stops growing with depth", "[json]") {
  const int depth = 1000;
  Json j = Json::array({1, 2});
  for (int k = 1; k < depth; ++k) j = Json::array({std::move(j)});
  const std::string text = json_text(j, 2);
  const size_t lines = static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
  CHECK(lines == 2 * (depth - 1) + 4);
  CHECK(text.size() < lines * (2 * 32 + 4));
  CHECK(text.find('\n' + std::string(2 * 32, ' ') + "[") != std::string::npos);
  CHECK(text.find(std::string(2 * 32 + 1, ' ')) == std::string::npos);
  Json back = Json::parse(text);
  for (int k = 1; k < depth; ++k) back = Json(back[0]);
  CHECK(back == Json::array({1, 2}));
  // Shallow documents keep nlohmann's layout exactly (the case above).
  const Json shallow = Json::parse(R"({"a": [[1, [2, {"b": [3]}]]]})");
  CHECK(json_text(shallow, 2) == shallow.dump(2) + "\n");
}

TEST_CASE("json_text writes every double in its shortest digits, where nlohmann's Grisu2 does not", "[json]") {
  CHECK(one(0.001623903) == "0.001623903");  // nlohmann: 0.0016239029999999999
  CHECK(Json(0.001623903).dump() != "0.001623903");
  CHECK(one(std::nan("")) == "null");
  CHECK(one(std::numeric_limits<double>::infinity()) == "null");
  CHECK(one(std::numeric_limits<double>::denorm_min()) == "5e-324");
  CHECK(one(std::numeric_limits<double>::max()) == "1.7976931348623157e+308");
  // Run times (nanoseconds over 1e9) and random bit patterns: each reads back exactly,
  // in the shortest digits.
  std::mt19937_64 rng(7);
  int grisu_longer = 0;
  for (int i = 0; i < 200000; ++i) {
    double v;
    if (i % 2) {
      v = static_cast<double>(rng() % 100000000000) / 1e9;
    } else {
      const uint64_t bits = rng();
      std::memcpy(&v, &bits, sizeof v);
      if (!std::isfinite(v)) continue;
    }
    const std::string t = one(v);
    INFO(t);
    REQUIRE(std::strtod(t.c_str(), nullptr) == v);
    REQUIRE(std::signbit(std::strtod(t.c_str(), nullptr)) == std::signbit(v));
    REQUIRE(digits_of(t) == shortest_digits(v));
    grisu_longer += digits_of(Json(v).dump()) != shortest_digits(v);
  }
  CHECK(grisu_longer > 0);  // what this writer is for: nlohmann alone misses some
}
