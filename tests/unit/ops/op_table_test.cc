// The operator table (src/ops/) against ONNX's: every operator's rows tile its versions
// from the first to the newest, and below the newest opset the installed onnx knows
// (testdata/onnx_op_versions.txt, made by tools/make_onnx_op_versions.py) they are
// exactly ONNX's versions. Every row written in an op family file is registered.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "core/error.h"
#include "ops/registry.h"
#include "support/paths.h"

using namespace onnxrun;
using namespace onnxrun::test;

namespace {

struct OnnxVersions {
  int opset = 0;                                // the newest opset the table knows
  std::map<std::string, std::vector<int>> ops;  // op -> since_versions, ascending
};

OnnxVersions onnx_versions() {
  std::ifstream f(testdata_dir() + "/onnx_op_versions.txt");
  REQUIRE(f);
  OnnxVersions v;
  std::string line;
  while (std::getline(f, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream in(line);
    std::string name;
    in >> name;
    if (name == "opset") {
      in >> v.opset;
      continue;
    }
    for (int since; in >> since;) v.ops[name].push_back(since);
  }
  REQUIRE(v.opset > 0);
  return v;
}

// What is wrong with `r`'s rows, one line each; empty when every operator's rows tile
// its versions and agree with ONNX's where ONNX's schemas know the operator.
std::vector<std::string> table_problems(const OpRegistry& r, const OnnxVersions& onnx) {
  std::vector<std::string> problems;
  std::set<std::pair<std::string, std::string>> ops;
  for (const OpDef& d : r.rows()) ops.insert({d.domain, d.op_type});
  for (const auto& [domain, op] : ops) {
    const std::vector<const OpDef*> rows = r.versions(domain, op);
    const std::string label = (domain.empty() ? "" : domain + ".") + op;
    for (size_t k = 0; k < rows.size(); ++k) {
      const int want_until = k + 1 < rows.size() ? rows[k + 1]->since - 1 : kOpenEnded;
      if (rows[k]->until != want_until || rows[k]->until < rows[k]->since)
        problems.push_back(label + ": " + rows[k]->version_range() + " does not end where the next row begins");
    }
    // Every opset from the first version on resolves to the newest row not above it.
    for (int opset = 1; opset <= std::max(rows.back()->since, onnx.opset) + 1; ++opset) {
      const OpDef* want = nullptr;
      for (const OpDef* d : rows)
        if (d->since <= opset) want = d;
      if (r.find(domain, op, opset) != want)
        problems.push_back(label + ": opset " + std::to_string(opset) + " resolves to the wrong row");
    }
    auto it = onnx.ops.find(op);
    if (!domain.empty() || it == onnx.ops.end()) continue;  // ONNX's schemas do not know it
    std::vector<int> ours;
    for (const OpDef* d : rows)
      if (d->since <= onnx.opset) ours.push_back(d->since);
    if (ours != it->second) {
      std::string got, want;
      for (int s : ours) got += " " + std::to_string(s);
      for (int s : it->second) want += " " + std::to_string(s);
      problems.push_back(label + ": versions up to opset " + std::to_string(onnx.opset) + " are" + got +
                         ", ONNX's are" + want);
    }
  }
  return problems;
}

std::vector<OpDef> builtin_rows_except(const std::string& op, int since) {
  std::vector<OpDef> rows;
  for (OpDef d : OpRegistry::builtin().rows()) {
    if (d.op_type == op && d.since == since) continue;
    d.until = kOpenEnded;  // derived again by the registry that takes them
    rows.push_back(std::move(d));
  }
  return rows;
}

}  // namespace

TEST_CASE("every operator's rows tile its versions, and ONNX's schemas agree", "[ops][registry]") {
  const OnnxVersions onnx = onnx_versions();
  const std::vector<std::string> problems = table_problems(OpRegistry::builtin(), onnx);
  for (const std::string& p : problems) UNSCOPED_INFO(p);
  CHECK(problems.empty());
}

TEST_CASE("the tiling check fails on a missing version", "[ops][registry]") {
  const OnnxVersions onnx = onnx_versions();
  SECTION("a middle version") {
    const auto problems = table_problems(OpRegistry(builtin_rows_except("Mul", 13)), onnx);
    REQUIRE(problems.size() == 1);
    REQUIRE_THAT(problems[0], Catch::Contains("Mul: versions up to opset 17 are 1 6 7 14, ONNX's are 1 6 7 13 14"));
  }
  SECTION("the first version") {
    const auto problems = table_problems(OpRegistry(builtin_rows_except("LeakyRelu", 1)), onnx);
    REQUIRE(problems.size() == 1);
    REQUIRE_THAT(problems[0], Catch::Contains("LeakyRelu: versions up to opset 17 are 6 16"));
  }
}

TEST_CASE("the registry derives until, and refuses rows it cannot order", "[ops][registry]") {
  auto row = [](int since) { return OpDef{.op_type = "Op", .since = since}; };
  const OpRegistry r({row(7), row(1), row(13)});
  REQUIRE(r.find("", "Op", 6)->since == 1);
  REQUIRE(r.find("", "Op", 6)->until == 6);
  REQUIRE(r.find("", "Op", 12)->until == 12);
  REQUIRE(r.find("", "Op", 99)->until == kOpenEnded);
  REQUIRE(r.find("", "Op", 0) == nullptr);
  REQUIRE_THROWS_AS(OpRegistry({row(1), row(1)}), Error);
  OpDef written = row(1);
  written.until = 5;
  REQUIRE_THROWS_AS(OpRegistry({written}), Error);
}

TEST_CASE("every operator row written in src/ops/ is registered", "[ops][registry]") {
  // An op family file that is not in ONNXRUN_OP_FAMILIES compiles, but its rows are never
  // seen: this finds them by their `.op_type = "..."`.
  const std::filesystem::path ops = std::filesystem::path(ONNXRUN_SOURCE_DIR) / "src" / "ops";
  const std::regex op_type_re(R"re(\.op_type\s*=\s*"(\w+)")re");
  size_t found = 0;
  for (const auto& entry : std::filesystem::directory_iterator(ops)) {
    if (entry.path().extension() != ".cc") continue;
    std::ifstream f(entry.path());
    const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    for (std::sregex_iterator m(text.begin(), text.end(), op_type_re), end; m != end; ++m) {
      const std::string op = (*m)[1];
      INFO(entry.path().filename().string() << " writes rows of " << op);
      bool registered = false;
      for (const std::string& domain : OpRegistry::builtin().domains())
        registered = registered || !OpRegistry::builtin().versions(domain, op).empty();
      CHECK(registered);
      ++found;
    }
  }
  REQUIRE(found >= 7);  // LeakyRelu, Constant, Cast, CastLike, Less, Mul, Where
}

TEST_CASE("the rows carry the facts the block path and --expand-functions read", "[ops][registry]") {
  for (const OpDef& d : OpRegistry::builtin().rows()) {
    INFO(d.op_type << " " << d.version_range());
    if (d.elementwise) {  // what exec/block_run.cc relies on
      CHECK(d.inputs.size() == 1);
      CHECK(d.outputs.size() == 1);
      CHECK(d.inputs[0] == d.outputs[0]);
    }
    if (d.body) {  // a body names one formal per input and output, and ends in the outputs
      CHECK(d.body->inputs.size() == d.inputs.size());
      CHECK(d.body->outputs.size() == d.outputs.size());
      std::set<std::string> known(d.body->inputs.begin(), d.body->inputs.end());
      for (const BodyNode& b : d.body->nodes) {
        for (const std::string& v : b.inputs) CHECK(known.count(v));
        known.insert(b.outputs.begin(), b.outputs.end());
        CHECK(OpRegistry::builtin().find("", b.op_type, d.since) != nullptr);
      }
      for (const std::string& v : d.body->outputs) CHECK(known.count(v));
    }
  }
  REQUIRE(OpRegistry::builtin().find("", "LeakyRelu", 16)->body);
  REQUIRE_FALSE(OpRegistry::builtin().find("", "LeakyRelu", 15)->body);
}
