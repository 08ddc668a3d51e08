// `onnx-run test` reports as CI consumers read them: the JUnit file validates against
// the Jenkins xunit plugin's junit-10 rules (tests/data/junit/junit-xunit-rules.xsd, with
// xmllint) and reads back in Debian's python3-junitparser; models without test data are
// `no data`; report paths are checked before the first test runs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "support/check_exit.h"
#include "support/model_builder.h"
#include "support/model_tree.h"
#include "support/paths.h"
#include "support/process.h"

using namespace onnxrun::test;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

// top (at PATH itself), good/t1, bad/fail, bad/broken, other/unsup, other/nodata.
void make_tree(const TempDir& d) {
  write_leaky_test(d.file("tree/top"));
  write_leaky_test(d.file("tree/good/t1"));
  write_leaky_test(d.file("tree/bad/fail"), -1.0f);
  write_text_file(d.file("tree/bad/broken/model.onnx"), "garbage");
  write_unknown_op_model(d.file("tree/other/unsup/model.onnx"), "Conv");
  write_leaky_model(d.file("tree/other/nodata/model.onnx"), 0.1f);
}

std::string schema() { return std::string(ONNXRUN_SOURCE_DIR) + "/tests/data/junit/junit-xunit-rules.xsd"; }

}  // namespace

TEST_CASE("the JUnit report validates against the xunit plugin's junit-10 rules", "[cli][junit]") {
  TempDir d;
  make_tree(d);
  const auto r = run_cli({"test", d.file("tree"), "--junit", d.file("r.xml")});
  CHECK_EXIT(r, 1);
  const auto v = run_process({"/usr/bin/xmllint", "--noout", "--schema", schema(), d.file("r.xml")});
  CHECK_EXIT(v, 0);
  // The plugin's own junit-10.xsd, when one is at hand.
  if (const char* xsd = std::getenv("ONNXRUN_JUNIT10_XSD"))
    CHECK_EXIT(run_process({"/usr/bin/xmllint", "--noout", "--schema", xsd, d.file("r.xml")}), 0);
  const std::string xml = read_file(d.file("r.xml"));
  CHECK_THAT(xml, Contains("<testsuites name=\"onnx-run\" tests=\"6\" failures=\"1\" errors=\"1\" time=\""));
  CHECK(std::regex_search(xml, std::regex(R"(<testsuite [^>]*timestamp="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d")")));
  CHECK(std::regex_search(xml, std::regex(R"(<testsuite [^>]*hostname="[^"]+")")));
  // The schema's checks bite: the attribute onnx-run used to write is refused.
  std::string bad = std::regex_replace(xml, std::regex("<testsuites name"), "<testsuites skipped=\"1\" name");
  write_text_file(d.file("bad.xml"), bad);
  CHECK_EXIT(run_process({"/usr/bin/xmllint", "--noout", "--schema", schema(), d.file("bad.xml")}), 3);
}

TEST_CASE("python3-junitparser reads the JUnit report: counts, classnames, results", "[cli][junit]") {
  TempDir d;
  make_tree(d);
  CHECK_EXIT(run_cli({"test", d.file("tree"), "--junit", d.file("r.xml")}), 1);
  const char* script = R"PY(
import sys
from junitparser import JUnitXml, Failure, Error, Skipped
xml = JUnitXml.fromfile(sys.argv[1])
for suite in xml:
    print("suite", suite.name, suite.tests, suite.failures, suite.errors, suite.skipped, bool(suite.timestamp), bool(suite.hostname))
    for case in suite:
        kinds = [type(r).__name__ + ":" + (r.type or "") for r in case.result]
        print("case", case.classname, case.name, ",".join(kinds) or "passed")
)PY";
  const auto p = run_process({"/usr/bin/python3", "-c", script, d.file("r.xml")});
  REQUIRE_EXIT(p, 0);
  CHECK(p.out ==
        "suite onnx-run 6 1 1 2 True True\n"
        "case bad broken Error:error\n"
        "case bad fail Failure:failed\n"
        "case good t1 passed\n"
        "case other nodata Skipped:no data\n"
        "case other unsup Skipped:unsupported\n"
        "case . top passed\n");
}

TEST_CASE("a model without test data is `no data`: skipped, counted apart, an error with --strict", "[cli][junit]") {
  TempDir d;
  write_leaky_test(d.file("t/with"));
  write_leaky_model(d.file("t/without/model.onnx"), 0.1f);
  auto r = run_cli({"test", d.file("t"), "--json", d.file("r.json"), "--junit", d.file("r.xml")});
  CHECK_EXIT(r, 0);
  CHECK_THAT(r.out, Contains("no data     without"));
  CHECK_THAT(r.out, Contains("1 passed, 0 failed, 0 unsupported, 1 no data, 0 errors, 0 timeouts, 0 crashed (2 tests"));
  const auto j = nlohmann::json::parse(read_file(d.file("r.json")));
  CHECK(j["summary"]["no data"] == 1);
  CHECK(j["tests"][1]["outcome"] == "no data");
  CHECK_THAT(read_file(d.file("r.xml")), Contains("<skipped type=\"no data\""));
  r = run_cli({"test", d.file("t"), "--strict", "--junit", d.file("s.xml")});
  CHECK_EXIT(r, 1);
  CHECK_THAT(read_file(d.file("s.xml")), Contains("<error type=\"no data\""));
  // The project's own testdata/: its quick/ models have no test sets, and that is fine.
  CHECK_EXIT(run_cli({"test", testdata_dir(), "-q"}), 0);
}

TEST_CASE("report paths are checked before the first test runs", "[cli][junit]") {
  TempDir d;
  write_leaky_test(d.file("t/a"));
  for (std::vector<std::string> report : {std::vector<std::string>{"--json", "/proc/x.json"},
                                          {"--junit", d.path()},
                                          {"--junit", d.file("missing/r.xml")},
                                          {"--json", "/proc/self/nonexistent/r.json"}}) {
    std::vector<std::string> args{"test", d.file("t")};
    args.insert(args.end(), report.begin(), report.end());
    const auto r = run_cli(args);
    CHECK_EXIT(r, 3);
    CHECK_THAT(r.err, Contains("onnx-run: cannot write "));
    CHECK(r.out.find("passed") == std::string::npos);  // no test ran
  }
  CHECK(!fs::exists("/proc/x.json"));
}

TEST_CASE("C1 controls and U+FFFE/U+FFFF in a name are escaped in every door, one name in all", "[cli][junit]") {
  TempDir d;
  // U+009B is the 8-bit ESC[ (here: clear the screen), U+0085 a line break to some
  // viewers; U+FFFE and U+FFFF XML 1.0 cannot hold (the JUnit report wrote U+FFFD).
  write_leaky_test(d.file("tree/c\xc2\x9b"
                          "2J"),
                   -1.0f);
  write_leaky_test(d.file("tree/n\xc2\x85l"));
  write_leaky_test(d.file("tree/u\xef\xbf\xbe"));
  write_leaky_test(d.file("tree/v\xef\xbf\xbf"));
  write_leaky_test(d.file("tree/nbsp\xc2\xa0"));  // U+00A0 is no control: it stays
  const std::vector<std::string> escaped{"c\\xc2\\x9b2J", "n\\xc2\\x85l", "nbsp\xc2\xa0", "u\\xef\\xbf\\xbe",
                                         "v\\xef\\xbf\\xbf"};
  const auto r = run_cli({"test", d.file("tree"), "--json", d.file("r.json"), "--junit", d.file("r.xml")});
  CHECK_EXIT(r, 1);
  const auto list = run_cli({"test", d.file("tree"), "--list"});
  CHECK_EXIT(list, 0);
  CHECK_EXIT(run_process({"/usr/bin/xmllint", "--noout", "--schema", schema(), d.file("r.xml")}), 0);
  const std::string xml = read_file(d.file("r.xml")), json = read_file(d.file("r.json"));
  for (const std::string* text : {&r.out, &r.err, &list.out, &xml, &json}) {
    for (const char* raw : {"\xc2\x9b", "\xc2\x85", "\xef\xbf\xbe", "\xef\xbf\xbf", "\xef\xbf\xbd"})
      CHECK(text->find(raw) == std::string::npos);
  }
  std::vector<std::string> in_json, in_junit;
  const nlohmann::json report = nlohmann::json::parse(json);
  for (const auto& t : report["tests"]) in_json.push_back(t["name"]);
  const std::regex testcase(R"re(<testcase[^>]* name="([^"]*)")re");
  for (std::sregex_iterator it(xml.begin(), xml.end(), testcase), end; it != end; ++it) in_junit.push_back((*it)[1]);
  std::sort(in_json.begin(), in_json.end());
  std::sort(in_junit.begin(), in_junit.end());
  CHECK(in_json == escaped);
  CHECK(in_junit == escaped);
  for (const std::string& name : escaped) CHECK_THAT(list.out, Contains(name + "\n"));
  CHECK_THAT(r.out, Contains("failed      c\\xc2\\x9b2J ("));
}

TEST_CASE("a test named with bytes that are not UTF-8 leaves the JUnit report well-formed", "[cli][junit]") {
  TempDir d;
  // A folder's name is any bytes; the failing test is the one CI must see.
  write_leaky_test(d.file("tree/bad\xff\xfe name"), -1.0f);
  write_leaky_test(d.file("tree/caf\xc3\xa9"));   // valid UTF-8 stays as it is
  write_leaky_test(d.file("tree/over\xc0\xaf"));  // an overlong '/'
  const auto r = run_cli({"test", d.file("tree"), "--junit", d.file("r.xml")});
  CHECK_EXIT(r, 1);
  // xmllint exited 1 ("Input is not proper UTF-8"): a JUnit reader saw no test at all.
  CHECK_EXIT(run_process({"/usr/bin/xmllint", "--noout", "--schema", schema(), d.file("r.xml")}), 0);
  const std::string xml = read_file(d.file("r.xml"));
  // The bad bytes as \xNN text, as in every door (docs/regression-runs.md).
  CHECK_THAT(xml, Contains("name=\"bad\\xff\\xfe name\"") && Contains("name=\"caf\xc3\xa9\"") &&
                      Contains("name=\"over\\xc0\\xaf\""));
  CHECK_THAT(xml, Contains("<failure type=\"failed\""));
}
