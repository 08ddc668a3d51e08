// `onnx-run test --baseline` as CI uses it: tests matched by what they are (the model's
// path) rather than by the PATH typed, one line saying how many baseline tests matched,
// a baseline matching nothing refused (2), every regression exit 1 with one line on
// stderr, and --update-baseline ratcheting the expectation.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "support/check_exit.h"
#include "support/model_builder.h"
#include "support/model_tree.h"
#include "support/paths.h"
#include "support/process.h"
#include "support/shard_runs.h"

using namespace onnxrun::test;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

TEST_CASE("a tree whose folder name is not UTF-8 passes against its own baseline", "[cli][baseline]") {
  TempDir d;
  write_leaky_test(d.file("t/caf\xe9"));
  write_leaky_test(d.file("t/ok"));
  const std::string b = d.file("b.json");
  REQUIRE_EXIT(run_cli({"test", d.file("t"), "--json", b, "--junit", d.file("b.xml"), "-q"}), 0);
  const auto r = run_cli({"test", d.file("t"), "--baseline", b, "-q"});
  CHECK_EXIT(r, 0);  // it exited 1: "caf\ufffd (passed -> missing)"
  CHECK_THAT(r.out, Contains("matched 2 of its 2 tests"));
  // One name in every door: the bad byte as the text \xe9.
  const auto j = read_json_file(b);
  CHECK(test_names(j) == std::vector<std::string>{"caf\\xe9", "ok"});
  CHECK(j["tests"][0]["model"] == d.file("t/caf\\xe9/model.onnx"));
  CHECK_THAT(read_file(d.file("b.xml")), Contains("name=\"caf\\xe9\""));
  CHECK_THAT(run_cli({"test", d.file("t"), "--list"}).out, Contains("caf\\xe9\n"));
  CHECK_EXIT(run_cli({"test", d.file("t"), "--baseline", b, "--update-baseline", b, "-q"}), 0);
  CHECK(test_names(read_json_file(b)) == std::vector<std::string>{"caf\\xe9", "ok"});
}

TEST_CASE("a baseline written from a parent folder still finds the regression (the issue's repro)", "[cli][baseline]") {
  TempDir d;
  write_leaky_test(d.file("tree/sub/good"));
  REQUIRE_EXIT(run_cli({"test", d.file("tree"), "-q", "--json", d.file("tree.json")}), 0);
  write_leaky_test(d.file("tree/sub/good"), 3.0f);  // broken
  const auto r = run_cli({"test", d.file("tree/sub"), "--baseline", d.file("tree.json")});
  CHECK_EXIT(r, 1);  // it exited 0: "0 regressions, 0 newly passing, 1 baseline tests not run"
  CHECK_THAT(r.out, Contains("Regressions against " + d.file("tree.json") + " (1):\n  good: passed -> failed\n"));
  CHECK_THAT(r.out, Contains("Baseline: 1 regression, 0 newly passing; matched 1 of its 1 test\n"));
  CHECK(r.err == "onnx-run: 1 regression against " + d.file("tree.json") + ": good (passed -> failed)\n");
  // And the other way round: a baseline from the child, a run from the parent.
  write_leaky_test(d.file("tree/sub/good"));
  write_leaky_test(d.file("tree/other/fine"));
  REQUIRE_EXIT(run_cli({"test", d.file("tree/sub"), "-q", "--json", d.file("sub.json")}), 0);
  write_leaky_test(d.file("tree/sub/good"), 3.0f);
  const auto up = run_cli({"test", d.file("tree"), "--baseline", d.file("sub.json")});
  CHECK_EXIT(up, 1);
  CHECK_THAT(up.out, Contains("  sub/good: passed -> failed\n") && Contains("matched 1 of its 1 test\n"));
}

// Found by black-box testing, both.
TEST_CASE("a test typed as . from inside its folder matches its baseline entry, and a moved one does not",
          "[cli][baseline]") {
  TempDir d;
  write_leaky_test(d.file("tree/m"));
  write_leaky_test(d.file("tree/n"));
  REQUIRE_EXIT(run_cli({"test", d.file("tree"), "-q", "--json", d.file("tree.json")}), 0);
  write_leaky_test(d.file("tree/m"), 3.0f);  // broken
  // It exited 2: "./model.onnx" named no folder, so it matched neither m nor n.
  for (const std::string& typed : {".", "model.onnx", "./"}) {
    const auto r = run_process({"/bin/sh", "-c", "cd \"$1\" && exec \"$2\" test \"$3\" --baseline \"$4\"", "sh",
                                d.file("tree/m"), onnx_run_binary(), typed, d.file("tree.json")});
    INFO(typed);
    CHECK_EXIT(r, 1);
    CHECK_THAT(r.out, Contains("  m: passed -> failed\n") && Contains("matched 1 of its 2 tests (1 not run)\n"));
  }
  // A test moved to another folder is missing from the baseline and new in the run, not
  // the baseline's test of the same name: y/t's path says y where the baseline's x/t says x.
  write_leaky_test(d.file("two/x/t"), 3.0f);  // a known failure
  write_leaky_test(d.file("two/x/u"));
  REQUIRE_EXIT(run_cli({"test", d.file("two/x"), "-q", "--json", d.file("x.json")}), 1);
  fs::create_directories(d.file("two/y"));
  fs::rename(d.file("two/x/t"), d.file("two/y/t"));
  const auto moved = run_cli({"test", d.file("two"), "--baseline", d.file("x.json")});
  CHECK_EXIT(moved, 1);  // it exited 0: y/t was taken for the known failure t
  CHECK_THAT(moved.out, Contains("  y/t: new test, failed\n") && Contains("  x/t (was failed)\n"));
  // The same with the baseline's PATHs typed relative, from inside two/x (found by an
  // outside tester): its "t/model.onnx" said nothing of the x above it, and matched y/t.
  fs::rename(d.file("two/y/t"), d.file("two/x/t"));
  const auto typed = run_process({"/bin/sh", "-c", "cd \"$1\" && exec \"$2\" test t u -q --json \"$3\"", "sh",
                                  d.file("two/x"), onnx_run_binary(), d.file("rel.json")});
  REQUIRE_EXIT(typed, 1);
  CHECK(read_json_file(d.file("rel.json"))["tests"][0]["model"] == d.file("two/x/t/model.onnx"));
  fs::rename(d.file("two/x/t"), d.file("two/y/t"));
  const auto moved_rel = run_cli({"test", d.file("two"), "--baseline", d.file("rel.json")});
  CHECK_EXIT(moved_rel, 1);  // it exited 0
  CHECK_THAT(moved_rel.out, Contains("  y/t: new test, failed\n") && Contains("  x/t (was failed)\n"));
}

TEST_CASE("a baseline none of whose tests is selected is a usage error, before anything runs", "[cli][baseline]") {
  TempDir d;
  write_leaky_test(d.file("a/one"));
  write_leaky_test(d.file("b/two"));
  REQUIRE_EXIT(run_cli({"test", d.file("a"), "-q", "--json", d.file("a.json")}), 0);
  const auto r = run_cli({"test", d.file("b"), "--baseline", d.file("a.json"), "--json", d.file("r.json")});
  CHECK_EXIT(r, 2);
  CHECK(r.out.empty());
  CHECK_THAT(r.err, Catch::StartsWith("onnx-run: --baseline " + d.file("a.json") + ": none of its 1 tests is among"));
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK_FALSE(fs::exists(d.file("r.json")));
}

TEST_CASE("a baseline against a selection of no tests is a usage error too, before anything runs", "[cli][baseline]") {
  TempDir d;
  write_leaky_test(d.file("t/one"));
  write_leaky_test(d.file("t/two"));
  REQUIRE_EXIT(run_cli({"test", d.file("t"), "-q", "--json", d.file("base.json")}), 0);
  for (const std::vector<std::string>& select :
       {std::vector<std::string>{"--filter", "zzz"}, std::vector<std::string>{"--exclude", "."}}) {
    std::vector<std::string> args{"test", d.file("t"), "--baseline", d.file("base.json"), "--json", d.file("r.json")};
    args.insert(args.end(), select.begin(), select.end());
    const auto r = run_cli(args);
    CHECK_EXIT(r, 2);  // it exited 0: "matched 0 of its 2 tests (2 not run)"
    CHECK(r.out.empty());
    CHECK(r.err == "onnx-run: --baseline " + d.file("base.json") +
                       ": none of its 2 tests is among the 0 selected here (tests match by model path, from its end); "
                       "is it the baseline of these tests?\n");
    CHECK_FALSE(fs::exists(d.file("r.json")));
  }
  // Without a baseline, a selection of nothing is a usage error too (it exited 0: a typo
  // in a CI filter stayed green), named by its own message.
  const auto r = run_cli({"test", d.file("t"), "-q", "--filter", "zzz"});
  CHECK_EXIT(r, 2);
  CHECK(r.err == "onnx-run: --filter 'zzz' selects none of the 2 tests found under " + d.file("t") + "\n");
}

TEST_CASE("a new test that fails is a regression: no baseline records it as known", "[cli][baseline]") {
  TempDir d;
  write_leaky_test(d.file("t/old"));
  REQUIRE_EXIT(run_cli({"test", d.file("t"), "-q", "--json", d.file("base.json")}), 0);
  write_leaky_test(d.file("t/new"), 2.0f);
  const auto r = run_cli({"test", d.file("t"), "--baseline", d.file("base.json")});
  CHECK_EXIT(r, 1);
  CHECK_THAT(r.out, Contains("  new: new test, failed\n"));
  CHECK_THAT(r.err, Contains(": new (new test, failed)\n"));
}

// CI checks the tree out under another folder name and runs a subfolder of it, where a
// new test shares its folder name with the baseline's known failure at the top.
TEST_CASE("a new failing test in a checkout under another name is not a known failure of the same name",
          "[cli][baseline]") {
  TempDir d;
  write_leaky_test(d.file("dev/tree/sub"), 2.0f);  // a known failure
  write_leaky_test(d.file("dev/tree/x/y"));
  REQUIRE_EXIT(run_cli({"test", d.file("dev/tree"), "-q", "--json", d.file("base.json")}), 1);
  write_leaky_test(d.file("ci/x/y"));
  write_leaky_test(d.file("ci/x/sub"), 2.0f);  // new, failing
  const auto r = run_cli({"test", d.file("ci/x"), "--baseline", d.file("base.json")});
  CHECK_EXIT(r, 1);
  CHECK_THAT(r.out, Contains("  sub: new test, failed\n"));
  CHECK_EXIT(
      run_cli({"test", d.file("ci/x"), "-q", "--baseline", d.file("base.json"), "--update-baseline", d.file("u.json")}),
      1);
  // Each --shard slice is matched as the whole run is: the slice holding sub alone fails too.
  int failing_slices = 0;
  for (int k = 1; k <= 4; ++k) {
    const auto slice =
        run_cli({"test", d.file("ci/x"), "-q", "--shard", std::to_string(k) + "/4", "--baseline", d.file("base.json")});
    failing_slices += slice.exit_code == 1;
    CHECK(slice.exit_code == (slice.err.find("sub (new test, failed)") != std::string::npos ? 1 : 0));
  }
  CHECK(failing_slices == 1);
  // The update records the kept sub where this checkout has it (ci/sub), so the next run
  // of the same command still takes x/sub for a new test.
  CHECK_THAT(read_file(d.file("u.json")), Contains(d.file("ci/sub/model.onnx")));
  CHECK_EXIT(run_cli({"test", d.file("ci/x"), "-q", "--baseline", d.file("u.json")}), 1);
}

// A checkout whose root folder is named like a folder inside the tree: dev/tree checked
// out as ci/x, where the run's y at ci/x/y ends as the baseline's x/y does.
TEST_CASE("a checkout named like a folder inside its tree matches test for test", "[cli][baseline]") {
  TempDir d;
  for (const char* n : {"a", "x/y", "y", "z"}) write_leaky_test(d.file(std::string("dev/tree/") + n));
  write_leaky_test(d.file("dev/tree/q"), 2.0f);  // a known failure
  const std::string base = d.file("base.json");
  REQUIRE_EXIT(run_cli({"test", d.file("dev/tree"), "-q", "--json", base}), 1);
  fs::create_directories(d.file("ci"));
  fs::copy(d.file("dev/tree"), d.file("ci/x"), fs::copy_options::recursive);
  auto r = run_cli({"test", d.file("ci/x"), "--baseline", base});
  CHECK_EXIT(r, 0);
  CHECK_THAT(r.out, Contains("matched 5 of its 5 tests\n"));
  fs::remove_all(d.file("ci/x/z"));
  r = run_cli({"test", d.file("ci/x"), "--baseline", base});
  CHECK_EXIT(r, 1);
  CHECK(r.err == "onnx-run: 1 regression against " + base + ": z (passed -> missing)\n");
}

// A ratchet run of one model folder typed as its PATH: its test says nothing of where the
// tree around it went, so the tests the update keeps stay where the baseline had them.
TEST_CASE("a ratchet of a model folder PATH leaves the kept tests where they were", "[cli][baseline]") {
  TempDir d;
  for (const char* n : {"tree/t/b", "tree/t/a/q", "tree/sub/a/q"}) write_leaky_test(d.file(n));
  const std::string u = d.file("u.json");
  REQUIRE_EXIT(run_cli({"test", d.file("tree/t"), "-q", "--json", u}), 0);
  REQUIRE_EXIT(run_cli({"test", d.file("tree/sub/a/q"), "-q", "--baseline", u, "--update-baseline", u}), 0);
  CHECK_THAT(read_file(u), Contains(d.file("tree/t/b/model.onnx")));
  CHECK_EXIT(run_cli({"test", d.file("tree"), "-q", "--baseline", u}), 0);
}

TEST_CASE("--update-baseline keeps known failures, promotes fixes, never accepts a regression", "[cli][baseline]") {
  TempDir d;
  write_leaky_test(d.file("t/pass"));
  write_leaky_test(d.file("t/known"), 2.0f);
  write_leaky_test(d.file("t/fixed"), 2.0f);
  const auto first = run_cli({"test", d.file("t"), "-q", "--update-baseline", d.file("b.json")});
  CHECK_EXIT(first, 1);  // no baseline: the failures are failures
  CHECK(outcomes(d.file("b.json")) ==
        std::map<std::string, std::string>{{"fixed", "failed"}, {"known", "failed"}, {"pass", "passed"}});
  write_leaky_test(d.file("t/fixed"));
  write_leaky_test(d.file("t/pass"), 2.0f);
  const auto r =
      run_cli({"test", d.file("t"), "-q", "--baseline", d.file("b.json"), "--update-baseline", d.file("b.json")});
  CHECK_EXIT(r, 1);  // pass regressed
  CHECK(outcomes(d.file("b.json")) ==
        std::map<std::string, std::string>{{"fixed", "passed"}, {"known", "failed"}, {"pass", "passed"}});
  // The updated baseline is a --json report: it serves as the next --baseline.
  write_leaky_test(d.file("t/pass"));
  CHECK_EXIT(run_cli({"test", d.file("t"), "-q", "--baseline", d.file("b.json")}), 0);
}

TEST_CASE("--update-baseline does not accept a new test that fails: it stays a regression", "[cli][baseline]") {
  TempDir d;
  write_leaky_test(d.file("t/old"));
  REQUIRE_EXIT(run_cli({"test", d.file("t"), "-q", "--update-baseline", d.file("b.json")}), 0);
  write_leaky_test(d.file("t/new"), 2.0f);  // a new test, broken from the start
  const auto r =
      run_cli({"test", d.file("t"), "-q", "--baseline", d.file("b.json"), "--update-baseline", d.file("b.json")});
  CHECK_EXIT(r, 1);
  CHECK_THAT(r.err, Contains(": new (new test, failed)\n"));
  // It was recorded as a known failure, so the next run against the updated baseline exited 0.
  CHECK(outcomes(d.file("b.json")) == std::map<std::string, std::string>{{"old", "passed"}});
  const auto again = run_cli({"test", d.file("t"), "-q", "--baseline", d.file("b.json")});
  CHECK_EXIT(again, 1);
  CHECK_THAT(again.err, Contains(": new (new test, failed)\n"));
  // With --strict a new unsupported test is a regression too, and is not accepted either;
  // without it, it is no regression and is recorded as it is.
  write_unknown_op_model(d.file("t/new/model.onnx"), "NoSuchOp");
  CHECK_EXIT(run_cli({"test", d.file("t"), "-q", "--strict", "--baseline", d.file("b.json"), "--update-baseline",
                      d.file("b.json")}),
             1);
  CHECK(outcomes(d.file("b.json")) == std::map<std::string, std::string>{{"old", "passed"}});
  CHECK_EXIT(
      run_cli({"test", d.file("t"), "-q", "--baseline", d.file("b.json"), "--update-baseline", d.file("b.json")}), 0);
  CHECK(outcomes(d.file("b.json")) == std::map<std::string, std::string>{{"new", "unsupported"}, {"old", "passed"}});
}

namespace {

// The "sets" each test of the report at `path` records, by name.
std::map<std::string, int> sets_of(const std::string& path) {
  std::map<std::string, int> sets;
  const nlohmann::json report = read_json_file(path);
  for (const auto& t : report["tests"]) sets[t["name"]] = t["sets"];
  return sets;
}

}  // namespace

TEST_CASE("a test that runs fewer test sets than its baseline is a regression, through every door", "[cli][baseline]") {
  TempDir d;
  write_leaky_test(d.file("t/two"));
  fs::copy(d.file("t/two/test_data_set_0"), d.file("t/two/test_data_set_1"), fs::copy_options::recursive);
  for (const char* n : {"a", "b", "c"}) write_leaky_test(d.file(std::string("t/") + n));
  REQUIRE_EXIT(run_cli({"test", d.file("t"), "-q", "--json", d.file("base.json")}), 0);
  REQUIRE(sets_of(d.file("base.json"))["two"] == 2);

  fs::remove_all(d.file("t/two/test_data_set_1"));  // it passes, on half its data
  const auto r = run_cli({"test", d.file("t"), "--baseline", d.file("base.json"), "--json", d.file("r.json"), "--junit",
                          d.file("r.xml"), "--update-baseline", d.file("up.json")});
  CHECK_EXIT(r, 1);  // it exited 0: passed -> passed
  const std::string change = "passed -> passed, ran 1 of the baseline's 2 test sets";
  CHECK_THAT(r.out, Contains("Regressions against " + d.file("base.json") + " (1):\n  two: " + change + "\n"));
  CHECK(r.err == "onnx-run: 1 regression against " + d.file("base.json") + ": two (" + change + ")\n");
  CHECK(sets_of(d.file("r.json"))["two"] == 1);
  CHECK(sets_of(d.file("up.json"))["two"] == 2);  // not accepted by updating
  auto xml_text = [](std::string s) {
    for (size_t at = 0; (at = s.find_first_of("'>", at)) != std::string::npos;)
      s.replace(at, 1, s[at] == '>' ? "&gt;" : "&apos;");
    return s;
  };
  // The reports CI publishes are as red as the exit status: the JUnit said 0 failures,
  // the JSON only "passed".
  auto check_reports = [&](const std::string& json, const std::string& xml, const std::string& now,
                           const std::string& what) {
    const auto regressions = read_json_file(json)["baseline"]["regressions"];
    REQUIRE(regressions.size() == 1);
    CHECK(regressions[0] == nlohmann::json{{"name", "two"},
                                           {"before", "passed"},
                                           {"now", now},
                                           {"change", what},
                                           {"sets", what.find("ran 1") != std::string::npos ? 1 : 0},
                                           {"baseline_sets", 2}});
    const std::string x = read_file(xml);
    CHECK_THAT(x, Contains("tests=\"4\" failures=\"1\" errors=\"0\" skipped=\"0\""));
    CHECK_THAT(x,
               Contains("name=\"two\" time=") && Contains("<failure type=\"regression\" message=\"" + xml_text(what) +
                                                          " (against " + d.file("base.json") + ")\""));
    CHECK_EXIT(run_process({"/usr/bin/xmllint", "--noout", "--schema",
                            std::string(ONNXRUN_SOURCE_DIR) + "/tests/data/junit/junit-xunit-rules.xsd", xml}),
               0);
  };
  check_reports(d.file("r.json"), d.file("r.xml"), "passed", change);
  // Sharded and merged: the same verdict.
  std::vector<std::string> merge{"report", "merge",          "--baseline", d.file("base.json"),
                                 "--json", d.file("m.json"), "--junit",    d.file("m.xml")};
  for (int k = 1; k <= 2; ++k) {
    const std::string json = d.file("s" + std::to_string(k) + ".json");
    run_cli({"test", d.file("t"), "-q", "--shard", std::to_string(k) + "/2", "--json", json});
    merge.push_back(json);
  }
  const auto merged = run_cli(merge);
  CHECK_EXIT(merged, 1);
  CHECK(merged.err == r.err);
  check_reports(d.file("m.json"), d.file("m.xml"), "passed", change);

  fs::remove_all(d.file("t/two/test_data_set_0"));  // all its data gone: no data, skipped
  const auto none = run_cli({"test", d.file("t"), "-q", "--baseline", d.file("base.json"), "--json", d.file("r.json"),
                             "--junit", d.file("r.xml")});
  CHECK_EXIT(none, 1);
  CHECK_THAT(none.err, Contains("two (passed -> no data, ran 0 of the baseline's 2 test sets)"));
  // A skip in JUnit's terms, but a regression: a failure, not <skipped>.
  check_reports(d.file("r.json"), d.file("r.xml"), "no data", "passed -> no data, ran 0 of the baseline's 2 test sets");

  // More sets than the baseline's: no regression, and the update raises the count.
  for (int k = 0; k < 3; ++k)
    fs::copy(d.file("t/a/test_data_set_0"), d.file("t/two/test_data_set_" + std::to_string(k)),
             fs::copy_options::recursive);
  CHECK_EXIT(
      run_cli({"test", d.file("t"), "-q", "--baseline", d.file("base.json"), "--update-baseline", d.file("up.json")}),
      0);
  CHECK(sets_of(d.file("up.json"))["two"] == 3);
  fs::remove_all(d.file("t/two/test_data_set_2"));
  CHECK_EXIT(run_cli({"test", d.file("t"), "-q", "--baseline", d.file("up.json")}), 1);

  // A baseline of an older onnx-run recorded no counts: no check, as before.
  std::ifstream in(d.file("up.json"));
  nlohmann::json old = nlohmann::json::parse(in);
  for (auto& t : old["tests"]) t.erase("sets");
  std::ofstream(d.file("old.json")) << old.dump();
  CHECK_EXIT(run_cli({"test", d.file("t"), "-q", "--baseline", d.file("old.json")}), 0);
}

TEST_CASE("a baseline test gone from the corpus is a regression: text, --json, --junit, --update-baseline",
          "[cli][baseline]") {
  TempDir d;
  for (const char* n : {"a", "b", "gone"}) write_leaky_test(d.file(std::string("t/") + n));
  REQUIRE_EXIT(run_cli({"test", d.file("t"), "-q", "--json", d.file("base.json")}), 0);
  fs::remove_all(d.file("t/gone"));
  const auto r = run_cli({"test", d.file("t"), "--baseline", d.file("base.json"), "--json", d.file("r.json"), "--junit",
                          d.file("r.xml"), "--update-baseline", d.file("up.json")});
  CHECK_EXIT(r, 1);  // it exited 0: "matched 2 of its 3 tests (1 not run)"
  CHECK_THAT(r.out, Contains("\nMissing: 1 test of the baseline " + d.file("base.json") +
                             " that this run selects, not found (deleted, moved or renamed):\n  gone (was passed)\n"));
  CHECK_THAT(r.out, Contains("Baseline: 0 regressions, 0 newly passing, 1 missing; matched 2 of its 3 tests\n"));
  CHECK(r.err == "onnx-run: 1 regression against " + d.file("base.json") + ": gone (passed -> missing)\n");
  const auto json = read_json_file(d.file("r.json"));
  CHECK(json["tests"].size() == 2);
  CHECK(json["baseline"]["path"] == d.file("base.json"));
  REQUIRE(json["baseline"]["missing"].size() == 1);
  CHECK(json["baseline"]["missing"][0]["name"] == "gone");
  CHECK(json["baseline"]["missing"][0]["outcome"] == "passed");
  const std::string xml = read_file(d.file("r.xml"));
  CHECK_THAT(xml, Contains("tests=\"3\" failures=\"1\""));
  CHECK_THAT(xml, Contains("<testcase classname=\".\" name=\"gone\"") && Contains("<failure type=\"missing\""));
  // Still valid under the xunit plugin's junit-10 rules (junit_report_test.cc).
  CHECK_EXIT(
      run_process({"/usr/bin/xmllint", "--noout", "--schema",
                   std::string(ONNXRUN_SOURCE_DIR) + "/tests/data/junit/junit-xunit-rules.xsd", d.file("r.xml")}),
      0);
  // The update drops it: deleting a test is one deliberate ratchet step.
  CHECK(outcomes(d.file("up.json")) == std::map<std::string, std::string>{{"a", "passed"}, {"b", "passed"}});
  CHECK_EXIT(run_cli({"test", d.file("t"), "-q", "--baseline", d.file("up.json")}), 0);
  // A baseline without one (no --baseline) records no "baseline" in the report.
  REQUIRE_EXIT(run_cli({"test", d.file("t"), "-q", "--json", d.file("r.json")}), 0);
  CHECK_FALSE(read_json_file(d.file("r.json")).contains("baseline"));
}

TEST_CASE("baseline tests the run does not select stay uncounted: filtered out, other PATHs, other shards",
          "[cli][baseline]") {
  TempDir d;
  for (const char* n : {"sub/x", "sub/y", "other/z"}) write_leaky_test(d.file(std::string("tree/") + n));
  REQUIRE_EXIT(run_cli({"test", d.file("tree"), "-q", "--json", d.file("base.json")}), 0);
  const std::string base = d.file("base.json");
  // Filtered out: not run.
  auto r = run_cli({"test", d.file("tree"), "--filter", "x$", "--baseline", base});
  CHECK_EXIT(r, 0);
  CHECK_THAT(r.out, Contains("matched 1 of its 3 tests (2 not run)\n"));
  // Another PATH: other/z is not under tree/sub, sub/y is (named "y" there).
  fs::remove_all(d.file("tree/other"));
  r = run_cli({"test", d.file("tree/sub"), "--baseline", base});
  CHECK_EXIT(r, 0);
  CHECK_THAT(r.out, Contains("matched 2 of its 3 tests (1 not run)\n"));
  fs::remove_all(d.file("tree/sub/y"));
  r = run_cli({"test", d.file("tree/sub"), "--baseline", base});
  CHECK_EXIT(r, 1);
  CHECK(r.err == "onnx-run: 1 regression against " + base + ": y (passed -> missing)\n");
  // A PATH that is a test itself says nothing of the tree around it.
  CHECK_EXIT(run_cli({"test", d.file("tree/sub/x"), "-q", "--baseline", base}), 0);
  CHECK_EXIT(run_cli({"test", d.file("tree/sub/x/model.onnx"), "-q", "--baseline", base}), 0);
  // Shards: each missing test is missing in its own slice only (and an empty slice is no
  // error either): over the 4 slices, sub/y and other/z once each.
  size_t missing = 0;
  for (int k = 1; k <= 4; ++k) {
    r = run_cli({"test", d.file("tree"), "-q", "--shard", std::to_string(k) + "/4", "--baseline", base});
    INFO(k);
    CHECK(r.exit_code == (r.err.empty() ? 0 : 1));
    for (size_t at = 0; (at = r.err.find(" (passed -> missing)", at)) != std::string::npos; ++at) ++missing;
  }
  CHECK(missing == 2);
}

// A baseline of two PATHs names each PATH's tests below it, so both may hold an "x" (the
// second made "x#2"). A run of one of the PATHs took the other's tests for its own and
// reported them missing; the baseline's recorded PATHs say they were never below it.
TEST_CASE("a baseline of several PATHs: a run of one of them does not miss the others' tests", "[cli][baseline]") {
  TempDir d;
  for (const char* n : {"t1/x", "t1/y", "t2/x", "t2/y", "m/x", "other/o"}) write_leaky_test(d.file(n));
  const std::string base = d.file("base.json");
  REQUIRE_EXIT(run_cli({"test", d.file("t1"), d.file("t2"), "-q", "--json", base}), 0);
  auto r = run_cli({"test", d.file("t1"), "--baseline", base});
  CHECK_EXIT(r, 0);
  CHECK_THAT(r.out, Contains("matched 2 of its 4 tests (2 not run)\n"));
  CHECK_EXIT(run_cli({"test", d.file("t2"), "-q", "--baseline", base}), 0);
  // The same through `report merge --baseline` of t1's shards.
  for (const char* k : {"1", "2"})
    REQUIRE_EXIT(run_cli({"test", d.file("t1"), "-q", "--shard", std::string(k) + "/2", "--json",
                          d.file(std::string("s") + k + ".json")}),
                 0);
  CHECK_EXIT(run_cli({"report", "merge", d.file("s1.json"), d.file("s2.json"), "--baseline", base}), 0);
  // The folder above both, t2 excluded: t2's tests would be named t2/... here, as its
  // path says; not t1/x#2, as the "t1/" that t1's tests teach would name them.
  CHECK_EXIT(run_cli({"test", d.file("."), "-q", "--filter", "^t[12]/", "--exclude", "^t2/", "--baseline", base}), 0);
  // A test deleted from the PATH run is still missing.
  fs::remove_all(d.file("t1/y"));
  r = run_cli({"test", d.file("t1"), "--baseline", base});
  CHECK_EXIT(r, 1);
  CHECK(r.err == "onnx-run: 1 regression against " + base + ": y (passed -> missing)\n");
  // A PATH of its own beside a folder of a tree: `test tree/m other`, then each alone.
  REQUIRE_EXIT(run_cli({"test", d.file("m"), d.file("other"), "-q", "--json", d.file("mo.json")}), 0);
  CHECK_EXIT(run_cli({"test", d.file("other"), "-q", "--baseline", d.file("mo.json")}), 0);
  CHECK_EXIT(run_cli({"test", d.file("m"), "-q", "--baseline", d.file("mo.json")}), 0);
}

TEST_CASE("the ratchet run from a subfolder keeps the baseline's names: the same command is clean next time",
          "[cli][baseline]") {
  TempDir d;
  for (const char* n : {"a/conv", "m/x", "m/y"}) write_leaky_test(d.file(std::string("tree/") + n));
  const std::string u = d.file("u.json");
  REQUIRE_EXIT(run_cli({"test", d.file("tree"), "-q", "--json", u}), 0);
  const std::vector<std::string> ratchet = {"test", d.file("tree/m"), "-q", "--baseline", u, "--update-baseline", u};
  REQUIRE_EXIT(run_cli(ratchet), 0);
  CHECK(test_names(read_json_file(u)) == std::vector<std::string>{"m/x", "m/y", "a/conv"});
  // It exited 1: "a/conv (passed -> missing)", a test that is not below tree/m at all.
  const auto r = run_cli({"test", d.file("tree/m"), "--baseline", u});
  CHECK_EXIT(r, 0);
  CHECK_THAT(r.out, Contains("matched 2 of its 3 tests (1 not run)\n"));
  CHECK_EXIT(run_cli(ratchet), 0);
  CHECK_EXIT(run_cli({"test", d.file("tree"), "-q", "--baseline", u}), 0);
  // With a PATH outside the tree beside it, the run names tree/m's tests as it does, not
  // as the baseline does; the update records tree, the PATH that holds the kept a/conv,
  // beside the two typed, so the same command is clean next time, and a/conv deleted is
  // missing from a run of the whole tree.
  write_leaky_test(d.file("other/o"));
  const std::string v = d.file("v.json");
  REQUIRE_EXIT(run_cli({"test", d.file("tree"), "-q", "--json", v}), 0);
  const std::vector<std::string> two = {"test", d.file("tree/m"), d.file("other"), "-q", "--baseline", v};
  std::vector<std::string> ratchet_two = two;
  ratchet_two.insert(ratchet_two.end(), {"--update-baseline", v});
  REQUIRE_EXIT(run_cli(ratchet_two), 0);
  CHECK_EXIT(run_cli(two), 0);
  fs::remove_all(d.file("tree/a"));
  CHECK_EXIT(run_cli(two), 0);
  const auto whole = run_cli({"test", d.file("tree"), "--baseline", v});
  CHECK_EXIT(whole, 1);
  CHECK_THAT(whole.err, Contains("a/conv (passed -> missing)"));
}

TEST_CASE("a baseline of a model folder with tests below it, run from the parent: a deleted one is missing",
          "[cli][baseline]") {
  TempDir d;
  for (const char* n : {"p", "p/sub", "q"}) write_leaky_test(d.file(std::string("tree/") + n));
  const std::string base = d.file("base.json");
  REQUIRE_EXIT(run_cli({"test", d.file("tree/p"), "-q", "--json", base}), 0);  // "p" and "sub"
  fs::remove_all(d.file("tree/p/sub"));
  // It exited 0, "(1 not run)": sub was put in this run's terms as "sub", which ^p leaves out.
  const auto r = run_cli({"test", d.file("tree"), "-q", "--filter", "^p", "--baseline", base});
  CHECK_EXIT(r, 1);
  CHECK(r.err == "onnx-run: 1 regression against " + base + ": p/sub (passed -> missing)\n");
}
