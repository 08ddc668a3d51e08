// Reports of `onnx-run test` read back by independent parsers (nlohmann::json for the
// JSON report, tinyxml2 for JUnit), the table of unsupported causes, and baselines.
#include <catch2/catch.hpp>

#include <map>

#include <tinyxml2.h>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "suite/baseline.h"
#include "suite/case_runner.h"
#include "suite/json_documents.h"
#include "suite/json_values.h"
#include "suite/report.h"
#include "support/model_tree.h"
#include "support/paths.h"

using namespace onnxrun;
using namespace onnxrun::test;

namespace {

TestResult result(const std::string& name, Outcome o, std::string message = "", std::vector<std::string> causes = {},
                  double seconds = 0.01) {
  TestResult r;
  r.name = name;
  r.model = name + "/model.onnx";
  r.outcome = o;
  r.message = std::move(message);
  r.causes = std::move(causes);
  r.seconds = seconds;
  return r;
}

std::vector<TestResult> sample() {
  std::vector<TestResult> rs = {
      result("node/a", Outcome::kPassed),
      result("node/b", Outcome::kFailed, "test_data_set_0: output 'y': 1 of 4 elements differ <&\"'>\nsecond line"),
      result("node/c", Outcome::kUnsupported, "not implemented: Conv, Relu", {"Conv", "Relu"}, 0.5),
      result("node/d", Outcome::kUnsupported, "not implemented: Conv", {"Conv"}),
      result("e", Outcome::kError, "model.onnx: not a valid ONNX model"),
      result("node/f", Outcome::kTimeout, "still running after 1 s; killed", {}, 1.0),
      result("node/g", Outcome::kCrashed, "killed by SIGSEGV"),
  };
  rs[6].signal = 11;
  return rs;
}

}  // namespace

TEST_CASE("summary line and counts", "[suite]") {
  const Summary s = summarize(sample(), 2.5);
  CHECK(s.total == 7);
  CHECK(s.count(Outcome::kUnsupported) == 2);
  CHECK(summary_line(s) == "1 passed, 1 failed, 2 unsupported, 1 error, 1 timeout, 1 crashed (7 tests in 2.50 s)");
  // Counts and nouns agree: "1 test", "2 errors" (it said "1 errors", "1 tests").
  const Summary one = summarize({result("a", Outcome::kPassed)}, 1);
  CHECK(summary_line(one) == "1 passed, 0 failed, 0 unsupported, 0 errors, 0 timeouts, 0 crashed (1 test in 1.00 s)");
  CHECK(is_problem(Outcome::kFailed, false));
  CHECK(!is_problem(Outcome::kUnsupported, false));
  CHECK(is_problem(Outcome::kUnsupported, true));
  CHECK(!is_problem(Outcome::kPassed, true));
}

TEST_CASE("unsupported causes are counted per test, most common first, slowest tests", "[suite]") {
  const auto table = unsupported_causes(sample());
  REQUIRE(table.size() == 2);
  CHECK(table[0] == std::pair<std::string, size_t>{"Conv", 2});
  CHECK(table[1] == std::pair<std::string, size_t>{"Relu", 1});
  const auto slow = slowest_tests(sample(), 2);
  CHECK(slow == std::vector<size_t>{5, 2});
}

TEST_CASE("the JSON report parses back with every test, outcome and count", "[suite]") {
  RunInfo info;
  info.generator = "onnx-run test";
  info.paths = {"tree"};
  const auto rs = sample();
  const auto j = nlohmann::json::parse(test_report_json(info, summarize(rs, 3.0), rs));
  REQUIRE(j["tests"].is_array());
  REQUIRE(j["tests"].size() == rs.size());
  for (size_t k = 0; k < rs.size(); ++k) {
    CHECK(j["tests"][k]["name"] == rs[k].name);
    CHECK(j["tests"][k]["outcome"] == std::string(outcome_name(rs[k].outcome)));
    CHECK(j["tests"][k]["seconds"].get<double>() == rs[k].seconds);
    CHECK(j["tests"][k]["message"] == rs[k].message);
  }
  CHECK(j["tests"][6]["signal"] == 11);
  CHECK(j["tests"][2]["causes"] == nlohmann::json::array({"Conv", "Relu"}));
  CHECK(j["summary"]["total"] == 7);
  CHECK(j["summary"]["passed"] == 1);
  CHECK(j["summary"]["unsupported"] == 2);
  CHECK(j["summary"]["crashed"] == 1);
  CHECK(j["summary"]["seconds"] == 3.0);
  CHECK(j["unsupported_causes"][0]["cause"] == "Conv");
  // And each entry reads back into the same result.
  for (size_t k = 0; k < rs.size(); ++k) {
    const TestResult back = result_from_json(j["tests"][k]);
    CHECK(back.name == rs[k].name);
    CHECK(back.outcome == rs[k].outcome);
    CHECK(back.message == rs[k].message);
    CHECK(back.causes == rs[k].causes);
    CHECK(back.signal == rs[k].signal);
  }
}

TEST_CASE("the JUnit report parses back as XML with failure, error and skipped elements", "[suite]") {
  const auto rs = sample();
  const std::string xml = junit_report(summarize(rs, 3.0), rs, false, {"2026-12-01T10:00:00", "host"});
  tinyxml2::XMLDocument doc;
  REQUIRE(doc.Parse(xml.c_str()) == tinyxml2::XML_SUCCESS);
  const auto* suite = doc.FirstChildElement("testsuites")->FirstChildElement("testsuite");
  REQUIRE(suite);
  CHECK(suite->IntAttribute("tests") == 7);
  CHECK(suite->IntAttribute("failures") == 1);
  CHECK(suite->IntAttribute("errors") == 3);  // error, timeout, crashed
  CHECK(suite->IntAttribute("skipped") == 2);
  std::vector<std::string> kinds;
  int cases = 0;
  for (auto* tc = suite->FirstChildElement("testcase"); tc; tc = tc->NextSiblingElement("testcase")) {
    ++cases;
    const auto* child = tc->FirstChildElement();
    kinds.push_back(
        child ? child->Name() + std::string(":") + (child->Attribute("type") ? child->Attribute("type") : "") : "pass");
  }
  CHECK(cases == 7);
  CHECK(kinds == std::vector<std::string>{"pass", "failure:failed", "skipped:unsupported", "skipped:unsupported",
                                          "error:error", "error:timeout", "error:crashed"});
  const auto* b = suite->FirstChildElement("testcase")->NextSiblingElement("testcase");
  CHECK(std::string(b->Attribute("classname")) == "node");
  CHECK(std::string(b->Attribute("name")) == "b");
  CHECK(std::string(b->FirstChildElement("failure")->GetText()) == rs[1].message);  // escaping round-trips
  CHECK_THAT(b->FirstChildElement("failure")->Attribute("message"), Catch::Contains("<&\"'>"));
  // --strict turns unsupported into errors.
  tinyxml2::XMLDocument strict;
  REQUIRE(strict.Parse(junit_report(summarize(rs, 3.0), rs, true, {"2026-12-01T10:00:00", "host"}).c_str()) ==
          tinyxml2::XML_SUCCESS);
  const auto* s2 = strict.FirstChildElement("testsuites")->FirstChildElement("testsuite");
  CHECK(s2->IntAttribute("errors") == 5);
  CHECK(s2->IntAttribute("skipped") == 0);
}

TEST_CASE("baseline comparison: regressions, newly passing, tests not run", "[suite]") {
  TempDir d;
  const std::vector<TestResult> before = {result("a", Outcome::kPassed), result("b", Outcome::kPassed),
                                          result("c", Outcome::kFailed), result("d", Outcome::kUnsupported),
                                          result("gone", Outcome::kPassed)};
  write_json_report(d.file("base.json"), RunInfo{}, summarize(before, 1), before);
  const std::vector<TestResult> baseline = read_baseline(d.file("base.json")).tests;
  CHECK(baseline.size() == 5);
  const std::vector<TestResult> now = {result("a", Outcome::kPassed),   result("b", Outcome::kCrashed),
                                       result("c", Outcome::kPassed),   result("d", Outcome::kUnsupported),
                                       result("new", Outcome::kPassed), result("new2", Outcome::kFailed)};
  const BaselineDiff diff = compare_with_baseline(now, baseline);
  // A new test that fails is no known failure: a regression too.
  REQUIRE(diff.regressions.size() == 2);
  CHECK(diff.regressions[0].name == "b");
  CHECK(diff.regressions[0].now == Outcome::kCrashed);
  CHECK(diff.regressions[1].name == "new2");
  CHECK(diff.regressions[1].new_test);
  REQUIRE(diff.newly_passing.size() == 2);
  CHECK(diff.newly_passing[0].name == "c");
  CHECK(diff.newly_passing[0].before == Outcome::kFailed);
  CHECK(diff.newly_passing[1].name == "new");
  CHECK(diff.newly_passing[1].new_test);
  CHECK(diff.not_run == 1);  // "gone"
  CHECK(diff.matched == 4);
  CHECK(diff.baseline_tests == 5);
}

namespace {

TestResult at(const std::string& name, const std::string& model, Outcome o = Outcome::kPassed) {
  TestResult r = result(name, o);
  r.model = model;
  return r;
}

// The baseline test each of `tests` is matched with, by name ("" for none).
std::vector<std::string> matched_names(const std::vector<TestResult>& tests, const std::vector<TestResult>& baseline) {
  std::vector<TestIdentity> ids;
  for (const TestResult& t : tests) ids.push_back(identity_of(t));
  std::vector<std::string> out;
  for (const auto& m : match_baseline(ids, baseline)) out.push_back(m ? baseline[*m].name : "");
  return out;
}

}  // namespace

TEST_CASE("baseline tests match by model path from its end, whatever PATH was typed", "[suite][baseline]") {
  // Written by `onnx-run test tree`, compared by `onnx-run test tree/sub`: names differ.
  const std::vector<TestResult> baseline = {
      at("sub/good", "tree/sub/good/model.onnx"), at("sub/bad", "tree/sub/bad/model.onnx", Outcome::kFailed),
      at("other/good", "tree/other/good/model.onnx"), at("light/x", "tree/light/x.onnx")};
  CHECK(matched_names({at("good", "tree/sub/good/model.onnx"), at("bad", "tree/sub/bad/model.onnx")}, baseline) ==
        std::vector<std::string>{"sub/good", "sub/bad"});
  // The same tree checked out elsewhere, typed as an absolute path, or with ./ in it.
  CHECK(matched_names({at("sub/good", "/ci/build7/tree/sub/good/model.onnx"), at("x", "/ci/build7/tree/light/x.onnx"),
                       at("other/good", "./tree/./other/good/model.onnx")},
                      baseline) == std::vector<std::string>{"sub/good", "light/x", "other/good"});
  // From a parent folder: the longer names still match the shorter ones.
  CHECK(matched_names({at("tree/sub/good", "tree/sub/good/model.onnx")}, baseline) ==
        std::vector<std::string>{"sub/good"});
  // good/model.onnx alone is ambiguous (sub/ or other/): no guess.
  CHECK(matched_names({at("good", "elsewhere/good/model.onnx")}, baseline) == std::vector<std::string>{""});
  // model.onnx in common is not a match: the suffix must span the name.
  CHECK(matched_names({at("new", "tree/sub/new/model.onnx")}, baseline) == std::vector<std::string>{""});
  // A root folder named "tree" that holds tree/x: its x and its tree/x both end in
  // tree/x/model.onnx. Checked out as ci/x, each is the one of its own name.
  const std::vector<TestResult> named_tree = {at("x", "/dev/tree/x/model.onnx"),
                                              at("tree/x", "/dev/tree/tree/x/model.onnx", Outcome::kFailed)};
  CHECK(matched_names({at("x", "/ci/x/x/model.onnx"), at("tree/x", "/ci/x/tree/x/model.onnx")}, named_tree) ==
        std::vector<std::string>{"x", "tree/x"});
  // Of two that fit, the one whose name is all of the shared end, before the one of the
  // same name: a baseline of dev/tree (a, the model folder tree, tree/a), run as `cd
  // ci/b/tree && onnx-run test .`, names tree/a "a", and its end tree/a/model.onnx is
  // dev/tree/a's too, whose own name spans only a/model.onnx.
  const std::vector<TestResult> folder_tree = {at("a", "/dev/tree/a/model.onnx"),
                                               at("tree", "/dev/tree/tree/model.onnx"),
                                               at("tree/a", "/dev/tree/tree/a/model.onnx")};
  CHECK(matched_names({at("tree", "/ci/b/tree/model.onnx"), at("a", "/ci/b/tree/a/model.onnx")}, folder_tree) ==
        std::vector<std::string>{"tree", "tree/a"});
  // A name made unique by the run is no name of its own: `test t/b t/c` names t/c's sub
  // "sub#2", and a new t/a/sub of `test t/a t/c` is neither.
  const std::vector<TestResult> two_subs = {at("sub", "/t/b/sub/model.onnx", Outcome::kFailed),
                                            at("sub#2", "/t/c/sub/model.onnx")};
  CHECK(matched_names({at("sub", "/t/a/sub/model.onnx", Outcome::kFailed), at("sub#2", "/t/c/sub/model.onnx")},
                      two_subs) == std::vector<std::string>{"", "sub#2"});
}

TEST_CASE("a path that names another folder within a test's name does not match it", "[suite][baseline]") {
  // Written by `onnx-run test tree`: x/t is a known failure.
  const std::vector<TestResult> baseline = {at("x/t", "tree/x/t/model.onnx", Outcome::kFailed)};
  // `onnx-run test tree/y` finds a new failing t: its path says y where the name says x.
  CHECK(matched_names({at("t", "tree/y/t/model.onnx", Outcome::kFailed)}, baseline) == std::vector<std::string>{""});
  const BaselineDiff d = compare_with_baseline({at("t", "tree/y/t/model.onnx", Outcome::kFailed)}, baseline);
  REQUIRE(d.regressions.size() == 1);
  CHECK(d.regressions[0].new_test);
  // `cd tree/x && onnx-run test t`: the path says nothing above t, so it is x/t.
  CHECK(matched_names({at("t", "t/model.onnx", Outcome::kFailed)}, baseline) == std::vector<std::string>{"x/t"});
  // Written by `onnx-run test tree/x` (t failing, u passing); then t moved to tree/y and
  // `onnx-run test tree` run: y/t is not the baseline's t, whose path says x.
  const std::vector<TestResult> child = {at("t", "tree/x/t/model.onnx", Outcome::kFailed),
                                         at("u", "tree/x/u/model.onnx")};
  CHECK(matched_names({at("x/u", "tree/x/u/model.onnx"), at("y/t", "tree/y/t/model.onnx", Outcome::kFailed)}, child) ==
        std::vector<std::string>{"u", ""});
}

// Both matches rest on the names alone (no folder above them agrees), so each says where
// the baseline's tree went: x/y puts /dev/tree at /ci, sub puts it at /ci/x. A tree is not
// both at /ci and inside it; the deeper move was taken, and a new failing x/sub passed as
// the baseline's known failure "sub".
TEST_CASE("one tree is not moved to a folder and into it: the deeper of two such matches is refused",
          "[suite][baseline]") {
  const std::vector<TestResult> baseline = {at("sub", "/dev/tree/sub/model.onnx", Outcome::kFailed),
                                            at("x/y", "/dev/tree/x/y/model.onnx")};
  // `onnx-run test /ci/x` in a checkout of the tree named /ci, where x/sub is new.
  const std::vector<TestResult> run = {at("sub", "/ci/x/sub/model.onnx", Outcome::kFailed),
                                       at("y", "/ci/x/y/model.onnx")};
  CHECK(matched_names(run, baseline) == std::vector<std::string>{"", "x/y"});
  const BaselineDiff d = compare_with_baseline(run, baseline);
  REQUIRE(d.regressions.size() == 1);
  CHECK(d.regressions[0].name == "sub");
  CHECK(d.regressions[0].new_test);
  // Had sub moved into x by itself, in the same tree, the match stands: one move, no other.
  CHECK(matched_names({at("sub", "/ci/x/sub/model.onnx", Outcome::kFailed)}, baseline) ==
        std::vector<std::string>{"sub"});
  // A checkout named like a folder inside the tree (dev/tree as ci/x, holding x/q): the
  // run's q shares x/q/model.onnx with the baseline's x/q (a move to /ci), its x/q too,
  // and s says /ci/x. q and x/q tie for x/q, and of the nested moves the one more matches
  // make stands: q's regression is not the known failure x/q. Then s's move puts q and
  // x/q at the baseline's own q and x/q.
  const std::vector<TestResult> inner = {at("q", "/dev/tree/q/model.onnx"),
                                         at("x/q", "/dev/tree/x/q/model.onnx", Outcome::kFailed),
                                         at("s", "/dev/tree/s/model.onnx"), at("t", "/dev/tree/t/model.onnx")};
  CHECK(matched_names({at("q", "/ci/x/q/model.onnx", Outcome::kFailed), at("x/q", "/ci/x/x/q/model.onnx"),
                       at("s", "/ci/x/s/model.onnx")},
                      inner) == std::vector<std::string>{"q", "x/q", "s"});
  const BaselineDiff d2 =
      compare_with_baseline({at("q", "/ci/x/q/model.onnx", Outcome::kFailed), at("x/q", "/ci/x/x/q/model.onnx"),
                             at("s", "/ci/x/s/model.onnx"), at("t", "/ci/x/t/model.onnx")},
                            inner);
  REQUIRE(d2.regressions.size() == 1);
  CHECK(d2.regressions[0].name == "q");
  CHECK_FALSE(d2.regressions[0].new_test);
  // A baseline of /dev/proj/b and /dev/proj/tree: p and q say /dev/proj is at /ci, so
  // the checkout's top-level a is not the deleted tree/a (that would put tree at /ci too).
  const std::vector<TestResult> two_paths = {at("p", "/dev/proj/b/p/model.onnx"), at("q", "/dev/proj/b/q/model.onnx"),
                                             at("a", "/dev/proj/tree/a/model.onnx")};
  CHECK(matched_names({at("a", "/ci/a/model.onnx"), at("b/p", "/ci/b/p/model.onnx"), at("b/q", "/ci/b/q/model.onnx")},
                      two_paths) == std::vector<std::string>{"", "p", "q"});
  // tree/tree/a moved up to tree/a while tree/tree/b stays: a is gone from tree/tree, not
  // the whole folder moved up (which still matches).
  const std::vector<TestResult> ab = {at("a", "/dev/tree/tree/a/model.onnx"), at("b", "/dev/tree/tree/b/model.onnx")};
  CHECK(matched_names({at("a", "/dev/tree/a/model.onnx"), at("tree/b", "/dev/tree/tree/b/model.onnx")}, ab) ==
        std::vector<std::string>{"", "b"});
  CHECK(matched_names({at("a", "/dev/tree/a/model.onnx"), at("b", "/dev/tree/b/model.onnx")}, ab) ==
        std::vector<std::string>{"a", "b"});
  // One weak match each way (y ends as x/y does; a says /ci/x), x/y deleted: the move to
  // /ci/x puts both run tests at a baseline test's path, the move to /ci only y.
  const std::vector<TestResult> ay = {at("a", "/dev/tree/a/model.onnx"), at("y", "/dev/tree/y/model.onnx"),
                                      at("x/y", "/dev/tree/x/y/model.onnx", Outcome::kFailed)};
  CHECK(matched_names({at("a", "/ci/x/a/model.onnx"), at("y", "/ci/x/y/model.onnx")}, ay) ==
        std::vector<std::string>{"a", "y"});
  // x/q deleted: q alone claims x/q (a move to /ci), against s's and t's move to /ci/x.
  CHECK(matched_names({at("q", "/ci/x/q/model.onnx", Outcome::kFailed), at("s", "/ci/x/s/model.onnx"),
                       at("t", "/ci/x/t/model.onnx")},
                      inner) == std::vector<std::string>{"q", "s", "t"});
}

TEST_CASE("the issue's repro: a regression under a child PATH is found", "[suite][baseline]") {
  const std::vector<TestResult> baseline = {at("sub/good", "tree/sub/good/model.onnx")};
  const BaselineDiff d = compare_with_baseline({at("good", "tree/sub/good/model.onnx", Outcome::kFailed)}, baseline);
  REQUIRE(d.regressions.size() == 1);
  CHECK(d.regressions[0].name == "good");
  CHECK(d.regressions[0].before == Outcome::kPassed);
  CHECK(d.matched == 1);
  CHECK(d.not_run == 0);
}

TEST_CASE("an updated baseline promotes fixes, keeps known failures and refuses regressions", "[suite][baseline]") {
  const std::vector<TestResult> baseline = {at("a", "t/a/model.onnx"), at("b", "t/b/model.onnx", Outcome::kFailed),
                                            at("c", "t/c/model.onnx", Outcome::kFailed),
                                            at("gone", "t/gone/model.onnx", Outcome::kFailed)};
  const std::vector<TestResult> now = {at("a", "t/a/model.onnx", Outcome::kError), at("b", "t/b/model.onnx"),
                                       at("c", "t/c/model.onnx", Outcome::kFailed),
                                       at("new", "t/new/model.onnx", Outcome::kFailed)};
  std::map<std::string, Outcome> updated;
  for (const TestResult& r : updated_baseline(now, &baseline, false)) updated[r.name] = r.outcome;
  // "new" fails and the baseline does not know it: a regression, so it is not recorded
  // (as a known failure it would pass the next run).
  CHECK(updated ==
        std::map<std::string, Outcome>{
            {"a", Outcome::kPassed}, {"b", Outcome::kPassed}, {"c", Outcome::kFailed}, {"gone", Outcome::kFailed}});
  // Without a baseline there is nothing to regress against: every outcome as it is.
  std::map<std::string, Outcome> fresh;
  for (const TestResult& r : updated_baseline(now, nullptr, false)) fresh[r.name] = r.outcome;
  CHECK(fresh ==
        std::map<std::string, Outcome>{
            {"a", Outcome::kError}, {"b", Outcome::kPassed}, {"c", Outcome::kFailed}, {"new", Outcome::kFailed}});
}

// Found by black-box testing: a skip that became a failure was taken for a known failure.
TEST_CASE("a test the baseline skipped that now fails is a regression, and stays skipped when updated",
          "[suite][baseline]") {
  const std::vector<TestResult> baseline = {
      at("u", "t/u/model.onnx", Outcome::kUnsupported), at("n", "t/n/model.onnx", Outcome::kNoData),
      at("v", "t/v/model.onnx", Outcome::kUnsupported), at("w", "t/w/model.onnx", Outcome::kUnsupported),
      at("f", "t/f/model.onnx", Outcome::kFailed)};
  const std::vector<TestResult> now = {at("u", "t/u/model.onnx", Outcome::kFailed),
                                       at("n", "t/n/model.onnx", Outcome::kError), at("v", "t/v/model.onnx"),
                                       at("w", "t/w/model.onnx", Outcome::kNoData),
                                       at("f", "t/f/model.onnx", Outcome::kCrashed)};
  const BaselineDiff d = compare_with_baseline(now, baseline);
  REQUIRE(d.regressions.size() == 2);
  CHECK((d.regressions[0].name == "u" && d.regressions[0].before == Outcome::kUnsupported &&
         d.regressions[0].now == Outcome::kFailed));
  CHECK((d.regressions[1].name == "n" && d.regressions[1].now == Outcome::kError));
  REQUIRE(d.newly_passing.size() == 1);  // v; w is skipped still, f a known failure still
  CHECK(d.newly_passing[0].name == "v");
  std::map<std::string, Outcome> updated;
  for (const TestResult& r : updated_baseline(now, &baseline, false)) updated[r.name] = r.outcome;
  CHECK(updated == std::map<std::string, Outcome>{{"f", Outcome::kCrashed},
                                                  {"n", Outcome::kNoData},
                                                  {"u", Outcome::kUnsupported},
                                                  {"v", Outcome::kPassed},
                                                  {"w", Outcome::kNoData}});
}

TEST_CASE("a test that ran fewer test sets than its baseline regressed, and more sets raise the count",
          "[suite][baseline]") {
  auto with_sets = [](TestResult r, int sets) {
    r.sets = sets;
    return r;
  };
  const std::vector<TestResult> baseline = {with_sets(at("a", "t/a/model.onnx"), 3),
                                            with_sets(at("b", "t/b/model.onnx", Outcome::kFailed), 2),
                                            with_sets(at("c", "t/c/model.onnx"), 2),
                                            with_sets(at("d", "t/d/model.onnx"), 1),
                                            with_sets(at("old", "t/old/model.onnx"), kSetsNotRecorded),
                                            with_sets(at("e", "t/e/model.onnx", Outcome::kError), 1)};
  const std::vector<TestResult> now = {
      with_sets(at("a", "t/a/model.onnx"), 2),                    // a set deleted: passes on less
      with_sets(at("b", "t/b/model.onnx", Outcome::kFailed), 1),  // a known failure on less data
      with_sets(at("c", "t/c/model.onnx", Outcome::kNoData), 0),  // all its data gone
      with_sets(at("d", "t/d/model.onnx"), 4),                    // more sets: fine
      with_sets(at("old", "t/old/model.onnx"), 1),                // an older baseline: no count, no check
      with_sets(at("e", "t/e/model.onnx", Outcome::kError), 0)};  // stopped early: its count says nothing
  const BaselineDiff d = compare_with_baseline(now, baseline);
  REQUIRE(d.regressions.size() == 3);
  CHECK(d.regressions[0].name == "a");
  CHECK(d.regressions[0].now == Outcome::kPassed);
  CHECK((d.regressions[0].sets == 2 && d.regressions[0].baseline_sets == 3));
  CHECK(d.regressions[1].name == "b");
  CHECK((d.regressions[1].sets == 1 && d.regressions[1].baseline_sets == 2));
  CHECK(d.regressions[2].name == "c");
  CHECK((d.regressions[2].now == Outcome::kNoData && d.regressions[2].sets == 0));
  CHECK(d.newly_passing.empty());
  // Updating accepts no regression: the counts stay the baseline's; d's rises to 4, and
  // old's is recorded now.
  std::map<std::string, std::pair<Outcome, int>> updated;
  for (const TestResult& r : updated_baseline(now, &baseline, false)) updated[r.name] = {r.outcome, r.sets};
  CHECK(updated == std::map<std::string, std::pair<Outcome, int>>{{"a", {Outcome::kPassed, 3}},
                                                                  {"b", {Outcome::kFailed, 2}},
                                                                  {"c", {Outcome::kPassed, 2}},
                                                                  {"d", {Outcome::kPassed, 4}},
                                                                  {"e", {Outcome::kError, 0}},
                                                                  {"old", {Outcome::kPassed, 1}}});
  CHECK(compare_with_baseline(now, updated_baseline(now, &baseline, false)).regressions.size() == 3);
}

TEST_CASE("a baseline test the run selects that is gone is missing, and one it does not select is not run",
          "[suite][baseline]") {
  // Written by `onnx-run test tree`; compared by `onnx-run test tree/sub`, where sub/gone is deleted.
  const std::vector<TestResult> baseline = {
      at("sub/a", "tree/sub/a/model.onnx"), at("sub/gone", "tree/sub/gone/model.onnx", Outcome::kFailed),
      at("sub/skip", "tree/sub/skip/model.onnx"), at("other/z", "tree/other/z/model.onnx")};
  const std::vector<TestResult> now = {at("a", "tree/sub/a/model.onnx")};
  RunScope scope;
  scope.selected = {identity_of(now[0])};
  scope.paths = {"tree/sub"};
  scope.exclude = "skip";
  BaselineDiff d = compare_with_baseline(now, baseline, false, &scope);
  REQUIRE(d.missing.size() == 1);
  CHECK(d.missing[0].name == "gone");  // in this run's terms
  CHECK(d.missing[0].baseline_name == "sub/gone");
  CHECK(d.missing[0].before == Outcome::kFailed);  // a known failure deleted is missing too
  CHECK(d.not_run == 2);                           // sub/skip excluded, other/z under another PATH
  // Without a scope, as before: not run.
  CHECK(compare_with_baseline(now, baseline).missing.empty());
  // The update drops the missing test and keeps those not run, all named as the baseline
  // names them: "a" beside "other/z" would put other/z below tree/sub for the next run.
  std::vector<std::string> names;
  for (const TestResult& r : updated_baseline(now, &baseline, false, &scope)) names.push_back(r.name);
  CHECK(names == std::vector<std::string>{"sub/a", "sub/skip", "other/z"});
  // Sharded: a missing test counts in its own slice only.
  scope.shard_count = 2;
  size_t missing = 0;
  for (int k = 1; k <= 2; ++k) {
    scope.shards = {k};
    missing += compare_with_baseline({}, baseline, false, &scope).missing.size();
  }
  CHECK(missing == 1);
  // A PATH that is the test itself (tree/sub/a) teaches nothing of the tree around it.
  scope.shard_count = 0;
  scope.shards.clear();
  scope.paths = {"tree/sub/a/"};
  CHECK(compare_with_baseline(now, baseline, false, &scope).missing.empty());
}

TEST_CASE("an updated baseline names every test one way, and the next run of the same command is clean",
          "[suite][baseline]") {
  auto scope_of = [](const std::vector<TestResult>& now, std::vector<std::string> paths) {
    RunScope scope;
    for (const TestResult& r : now) scope.selected.push_back(identity_of(r));
    scope.paths = std::move(paths);
    return scope;
  };
  auto names_of = [](const std::vector<TestResult>& tests) {
    std::vector<std::string> names;
    for (const TestResult& r : tests) names.push_back(r.name);
    return names;
  };
  // Written by `test /t/tree`, updated by `test /t/tree/m` (m/z new): the baseline's
  // names hold the run's, so m's tests take them, and a/conv is not below tree/m next time.
  const std::vector<TestResult> tree = {at("a/conv", "/t/tree/a/conv/model.onnx"), at("m/x", "/t/tree/m/x/model.onnx")};
  const std::vector<TestResult> in_m = {at("x", "/t/tree/m/x/model.onnx"), at("z", "/t/tree/m/z/model.onnx")};
  RunScope scope = scope_of(in_m, {"/t/tree/m"});
  const std::vector<TestResult> updated = updated_baseline(in_m, &tree, false, &scope);
  CHECK(names_of(updated) == std::vector<std::string>{"m/x", "m/z", "a/conv"});
  BaselineDiff d = compare_with_baseline(in_m, updated, false, &scope);
  CHECK(d.missing.empty());
  CHECK(d.matched == 2);
  CHECK(d.not_run == 1);
  // Written by `test /t/tree/m`, updated by `test /t/tree --filter m/x` (a/conv new):
  // the run's names hold the baseline's kept m/y, so it takes the run's.
  const std::vector<TestResult> m = {at("x", "/t/tree/m/x/model.onnx"), at("y", "/t/tree/m/y/model.onnx")};
  const std::vector<TestResult> whole = {at("m/x", "/t/tree/m/x/model.onnx"),
                                         at("a/conv", "/t/tree/a/conv/model.onnx")};
  scope = scope_of(whole, {"/t/tree"});
  scope.filter = "m/x|a/";
  CHECK(names_of(updated_baseline(whole, &m, false, &scope)) == std::vector<std::string>{"m/x", "a/conv", "m/y"});
  // Several PATHs (`test /t/tree/m /t/tree/a`): one folder still holds them all.
  const std::vector<TestResult> three = {at("a/conv", "/t/tree/a/conv/model.onnx"), at("b/e", "/t/tree/b/e/model.onnx"),
                                         at("m/x", "/t/tree/m/x/model.onnx")};
  const std::vector<TestResult> two = {at("conv", "/t/tree/a/conv/model.onnx"), at("x", "/t/tree/m/x/model.onnx"),
                                       at("z", "/t/tree/m/z/model.onnx")};
  scope = scope_of(two, {"/t/tree/a", "/t/tree/m"});
  CHECK(names_of(updated_baseline(two, &three, false, &scope)) ==
        std::vector<std::string>{"a/conv", "m/x", "m/z", "b/e"});
  // A PATH that is a model folder with tests below it (`test /t/tree/m`: m, then sub):
  // m keeps the baseline's name, not "m/m".
  const std::vector<TestResult> with_m = {at("m", "/t/tree/m/model.onnx"), at("m/sub", "/t/tree/m/sub/model.onnx"),
                                          at("a/conv", "/t/tree/a/conv/model.onnx")};
  const std::vector<TestResult> m_run = {at("m", "/t/tree/m/model.onnx"), at("sub", "/t/tree/m/sub/model.onnx"),
                                         at("new", "/t/tree/m/new/model.onnx")};
  scope = scope_of(m_run, {"/t/tree/m"});
  const std::vector<TestResult> ratcheted = updated_baseline(m_run, &with_m, false, &scope);
  CHECK(names_of(ratcheted) == std::vector<std::string>{"m", "m/sub", "m/new", "a/conv"});
  // A test whose folder is named "model", or a folder with data.json alone whose name has
  // a dot, says where the baseline's names start as any other does (they were taken for
  // NAME.onnx tests, and a new a/new written as "new").
  const std::vector<TestResult> odd = {at("a/model", "/t/tree/a/model/model.onnx"), at("r/v1.2", "/t/tree/r/v1.2")};
  for (const TestResult& known : odd) {
    const std::vector<TestResult> run_odd = {at(known.name, known.model), at("a/new", "/t/tree/a/new/model.onnx")};
    scope = scope_of(run_odd, {"/t/tree"});
    CHECK(names_of(updated_baseline(run_odd, &odd, false, &scope)).at(1) == "a/new");
  }
  // Written by `test /t/tree/m` (m, sub), run as `test /t/tree --exclude ^m$`: m is
  // left out by the exclude, not "m/m" and missing.
  const std::vector<TestResult> from_m = {at("m", "/t/tree/m/model.onnx"), at("sub", "/t/tree/m/sub/model.onnx")};
  const std::vector<TestResult> rest = {at("m/sub", "/t/tree/m/sub/model.onnx")};
  scope = scope_of(rest, {"/t/tree"});
  scope.exclude = "^m$";
  d = compare_with_baseline(rest, from_m, false, &scope);
  CHECK(d.missing.empty());
  CHECK(d.not_run == 1);
}

// Reports record absolute model paths: a baseline test is put in this run's tree by them
// and named as discovery would name it there, and a test of the same end elsewhere in a
// tree that is still here is another test.
TEST_CASE("absolute paths: missing tests named where this run finds them, a tree still here not moved",
          "[suite][baseline]") {
  auto diff = [](const std::vector<TestResult>& now, const std::vector<TestResult>& baseline,
                 std::vector<std::string> paths, const std::string& filter = "") {
    RunScope scope;
    for (const TestResult& r : now) scope.selected.push_back(identity_of(r));
    scope.paths = std::move(paths);
    scope.filter = filter;
    return compare_with_baseline(now, baseline, false, &scope);
  };
  auto missing_names = [](const BaselineDiff& d) {
    std::vector<std::string> names;
    for (const MissingTest& m : d.missing) names.push_back(m.name);
    return names;
  };
  // The PATH is a model folder with tests below it: those deleted are missing (they were
  // "not run": the PATH's own test taught nothing of the names below it).
  const std::vector<TestResult> folder = {at("p", "/t/p/model.onnx"), at("sub", "/t/p/sub/model.onnx"),
                                          at("a", "/t/p/a.onnx", Outcome::kFailed)};
  BaselineDiff d = diff({at("p", "/t/p/model.onnx")}, folder, {"/t/p"});
  CHECK(missing_names(d) == std::vector<std::string>{"sub", "a"});
  // Run over the parent: the baseline's "p" was its PATH, named by its own folder, so
  // "p" here and there says nothing of the other names (they were "sub" and "a" before).
  d = diff({at("p", "/t/p/model.onnx")}, folder, {"/t"}, "^p");
  CHECK(missing_names(d) == std::vector<std::string>{"p/sub", "p/a"});
  // Written by `test /ci/1`, run as `test /ci/2/tree` on a checkout elsewhere: tree/gone
  // is missing, named as the tests both know say; other/x lies under no PATH typed.
  const std::vector<TestResult> ci = {at("tree/good", "/ci/1/tree/good/model.onnx"),
                                      at("tree/gone", "/ci/1/tree/gone/model.onnx"),
                                      at("other/x", "/ci/1/other/x/model.onnx")};
  d = diff({at("good", "/ci/2/tree/good/model.onnx")}, ci, {"/ci/2/tree"});
  CHECK(d.matched == 1);
  CHECK(missing_names(d) == std::vector<std::string>{"gone"});
  CHECK(d.not_run == 1);
  // Written by `test /t/tree` (sub a known failure); a new failing x/sub run by `test
  // /t/tree/x` is not tree/sub: the tree is still here (x/keep is), so nothing moved.
  const std::vector<TestResult> tree = {at("sub", "/t/tree/sub/model.onnx", Outcome::kFailed),
                                        at("x/keep", "/t/tree/x/keep/model.onnx")};
  d = diff({at("keep", "/t/tree/x/keep/model.onnx"), at("sub", "/t/tree/x/sub/model.onnx", Outcome::kFailed)}, tree,
           {"/t/tree/x"});
  CHECK(d.matched == 1);
  REQUIRE(d.regressions.size() == 1);
  CHECK(d.regressions[0].name == "sub");
  CHECK(d.regressions[0].new_test);
  // Alone, it still lies in the folder the baseline ran: not a move either.
  CHECK(matched_names({at("sub", "/t/tree/x/sub/model.onnx")}, tree) == std::vector<std::string>{""});
  // The same in a checkout elsewhere: x/keep says the tree moved from /t to /b, which
  // puts tree/sub at /b/tree/sub, not at /b/tree/x/sub.
  CHECK(matched_names({at("keep", "/b/tree/x/keep/model.onnx"), at("sub", "/b/tree/x/sub/model.onnx")}, tree) ==
        std::vector<std::string>{"x/keep", ""});
  // A move whose shared end reaches past the names stands: shards merged from two
  // checkouts, one where the baseline was written; a tree moved into a folder of its own
  // old parent.
  const std::vector<TestResult> two = {at("a", "/w/tree/a/model.onnx"), at("b", "/w/tree/b/model.onnx")};
  CHECK(matched_names({at("a", "/w/tree/a/model.onnx"), at("b", "/v/tree/b/model.onnx")}, two) ==
        std::vector<std::string>{"a", "b"});
  CHECK(matched_names({at("a", "/w/sub/tree/a/model.onnx"), at("b", "/w/sub/tree/b/model.onnx")}, two) ==
        std::vector<std::string>{"a", "b"});
  // A top-level conv beside a/conv, in a checkout elsewhere: both paths end in
  // conv/model.onnx, but a/conv's name says "a" where the run's path says "pr-12".
  const std::vector<TestResult> convs = {at("conv", "/ws/main/conv/model.onnx", Outcome::kFailed),
                                         at("a/conv", "/ws/main/a/conv/model.onnx")};
  CHECK(matched_names({at("conv", "/ws/pr-12/conv/model.onnx"), at("a/conv", "/ws/pr-12/a/conv/model.onnx")}, convs) ==
        std::vector<std::string>{"conv", "a/conv"});
  // Shards merged from Jenkins' two workspaces, proj and proj@2: only the names agree
  // there, and the folder is in two places at once.
  const std::vector<TestResult> ws = {at("a", "/ws/proj/a/model.onnx"), at("b", "/ws/proj/b/model.onnx")};
  CHECK(matched_names({at("a", "/ws/proj/a/model.onnx"), at("b", "/ws/proj@2/b/model.onnx")}, ws) ==
        std::vector<std::string>{"a", "b"});
}

TEST_CASE("a report without \"sets\" reads as not recorded, and is written back so", "[suite][baseline]") {
  nlohmann::json j = result_to_json(result("a", Outcome::kPassed));
  CHECK(j["sets"] == 0);
  j.erase("sets");
  const TestResult r = result_from_json(j);
  CHECK(r.sets == kSetsNotRecorded);
  CHECK_FALSE(nlohmann::json(result_to_json(r)).contains("sets"));
}

TEST_CASE("a baseline that is not a report is refused", "[suite]") {
  TempDir d;
  write_text_file(d.file("bad.json"), "{not json");
  write_text_file(d.file("notests.json"), R"({"summary": {}})");
  write_text_file(d.file("badoutcome.json"), R"({"tests": [{"name": "a", "outcome": "fine"}]})");
  // A model path that is not text matched nothing: the test was "missing", unchanged.
  write_text_file(d.file("badmodel.json"), R"({"tests": [{"name": "a", "outcome": "passed", "model": 5}]})");
  for (const char* f : {"bad.json", "notests.json", "badoutcome.json", "badmodel.json"}) {
    try {
      read_baseline(d.file(f));
      FAIL("accepted " << f);
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::kInvalid);
    }
  }
  CHECK_THROWS_AS(read_baseline(d.file("missing.json")), Error);
}
