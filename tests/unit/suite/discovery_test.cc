// Discovery, filtering and sharding of `onnx-run test`, on trees made in a temp folder.
// Discovery only walks the file system, so most models here are empty placeholder files.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <set>

#include "core/error.h"
#include "suite/discovery.h"
#include "support/model_tree.h"
#include "support/paths.h"

using namespace onnxrun;
using namespace onnxrun::test;

namespace {

std::vector<std::string> names(const std::vector<TestCase>& tests) {
  std::vector<std::string> out;
  for (const TestCase& t : tests) out.push_back(t.name);
  return out;
}

// node/test_{2,10,1}/model.onnx with sets, light/light_a.onnx with an output,
// real/test_r/data.json, and a model folder that must not be searched further.
void make_tree(const TempDir& d) {
  for (const char* n : {"test_2", "test_10", "test_1"}) {
    write_text_file(d.file(std::string("node/") + n + "/model.onnx"), "");
    write_text_file(d.file(std::string("node/") + n + "/test_data_set_10/input_0.pb"), "");
    write_text_file(d.file(std::string("node/") + n + "/test_data_set_2/input_0.pb"), "");
  }
  write_text_file(d.file("node/test_1/inner/model.onnx"), "");  // below a model folder: a test too
  write_text_file(d.file("node/test_1/variant.onnx"), "");      // beside model.onnx, no data: none
  write_text_file(d.file("light/light_a.onnx"), "");
  write_text_file(d.file("light/light_a_output_0.pb"), "");
  write_text_file(d.file("light/light_a_input_0.pb"), "");
  write_text_file(d.file("real/test_r/data.json"), R"({"url": "x/light_r.onnx"})");
  write_text_file(d.file("notes/readme.txt"), "no tests here");
}

}  // namespace

TEST_CASE("discovery finds every layout under a tree, naturally sorted", "[suite]") {
  TempDir d;
  make_tree(d);
  const auto tests = discover_tests({d.path()});
  CHECK(names(tests) == std::vector<std::string>{"light/light_a", "node/test_1", "node/test_1/inner", "node/test_2",
                                                 "node/test_10", "real/test_r"});
  const TestCase& light = tests[0];
  CHECK(light.kind == CaseKind::kFile);
  CHECK(light.model == d.file("light/light_a.onnx"));
  CHECK(light.files.inputs == std::vector<std::string>{d.file("light/light_a_input_0.pb")});
  CHECK(light.files.outputs == std::vector<std::string>{d.file("light/light_a_output_0.pb")});
  const TestCase& folder = tests[1];
  CHECK(folder.kind == CaseKind::kFolder);
  CHECK(folder.model == d.file("node/test_1/model.onnx"));
  REQUIRE(folder.sets.size() == 2);
  CHECK(folder.sets[0] == d.file("node/test_1/test_data_set_2"));  // natural order: 2 before 10
  CHECK(folder.sets[1] == d.file("node/test_1/test_data_set_10"));
  CHECK(tests[5].kind == CaseKind::kMissingModel);
  CHECK(tests[5].dir == d.file("real/test_r"));
}

TEST_CASE("a model folder or model file given directly is one test named after it", "[suite]") {
  TempDir d;
  make_tree(d);
  CHECK(names(discover_tests({d.file("node/test_2")})) == std::vector<std::string>{"test_2"});
  CHECK(names(discover_tests({d.file("node/test_2/model.onnx")})) == std::vector<std::string>{"test_2"});
  const auto file = discover_tests({d.file("light/light_a.onnx")});
  REQUIRE(file.size() == 1);
  CHECK(file[0].name == "light_a");
  CHECK(file[0].kind == CaseKind::kFile);
}

// Found by an outside tester: tests were told apart by their model's real path, so a
// folder whose model.onnx links to another test's model vanished with its own (failing)
// test sets, and `test a b` and `test b a` gave different verdicts.
TEST_CASE("a test is its folder: a model linked from another test's folder is a test of its own", "[suite]") {
  TempDir d;
  make_tree(d);
  std::filesystem::create_directories(d.file("linked/test_data_set_0"));
  std::filesystem::create_symlink(d.file("node/test_2/model.onnx"), d.file("linked/model.onnx"));
  std::filesystem::create_symlink(d.file("light/light_a.onnx"), d.file("linked/light_a.onnx"));
  write_text_file(d.file("linked/light_a_output_0.pb"), "");
  for (const auto& paths : {std::vector<std::string>{d.file("node/test_2"), d.file("linked")},
                            std::vector<std::string>{d.file("linked"), d.file("node/test_2")}}) {
    auto found = names(discover_tests(paths));
    std::sort(found.begin(), found.end());
    CHECK(found == std::vector<std::string>{"light_a", "linked", "test_2"});
  }
  // The same folder reached twice, through a PATH and through a link to it, is one test.
  std::filesystem::create_directory_symlink(d.file("node/test_2"), d.file("alias"));
  CHECK(names(discover_tests({d.file("node/test_2"), d.file("alias"), d.file("node/test_2/model.onnx")})) ==
        std::vector<std::string>{"test_2"});
  const auto all = names(discover_tests({d.path()}));
  CHECK(std::count(all.begin(), all.end(), "linked") == 1);
  CHECK(std::count(all.begin(), all.end(), "node/test_2") + std::count(all.begin(), all.end(), "alias") == 1);
}

TEST_CASE("a name that is not UTF-8 has its bad bytes escaped, so reports keep it", "[suite]") {
  // Well-formed sequences stay; a lone byte, an overlong form, a surrogate, a cut
  // sequence and a code point above U+10FFFF become \xNN, byte by byte.
  CHECK(valid_utf8("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80") == "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
  CHECK(valid_utf8("caf\xe9") == "caf\\xe9");
  CHECK(valid_utf8("\xc0\x80|\xed\xa0\x80|\xe2\x82|\xf4\x90\x80\x80") ==
        "\\xc0\\x80|\\xed\\xa0\\x80|\\xe2\\x82|\\xf4\\x90\\x80\\x80");
  CHECK(valid_utf8(valid_utf8("caf\xe9")) == valid_utf8("caf\xe9"));
  TempDir d;
  write_text_file(d.file("t/caf\xe9/model.onnx"), "");
  write_text_file(d.file("t/ok/model.onnx"), "");
  const auto tests = discover_tests({d.file("t")});
  CHECK(names(tests) == std::vector<std::string>{"caf\\xe9", "ok"});
  CHECK(tests[0].model == d.file("t/caf\xe9/model.onnx"));  // the file it opens
  CHECK(reported_model(tests[0]) == d.file("t/caf\\xe9/model.onnx"));
  CHECK(names(select_tests(tests, Selection{"xe9", ""})) == std::vector<std::string>{"caf\\xe9"});
}

TEST_CASE("a model reached through link/.. is recorded by the path that names it", "[suite]") {
  TempDir d;
  write_text_file(d.file("real/tree/a/model.onnx"), "");
  write_text_file(d.file("real/other/c/model.onnx"), "");
  std::filesystem::create_directory_symlink(d.file("real/tree"), d.file("link"));
  // Lexically, link/.. is d itself, and d/other/c/model.onnx no file: a baseline written
  // so matched nothing run by the real path.
  std::vector<std::string> models;
  for (const TestCase& t : discover_tests({d.file("link/..")})) models.push_back(reported_model(t));
  CHECK(models == std::vector<std::string>{d.file("real/other/c/model.onnx"), d.file("real/tree/a/model.onnx")});
  // Other links stay as typed, and "." goes.
  CHECK(absolute_path(d.file("link/./a/model.onnx")) == d.file("link/a/model.onnx"));
  CHECK(absolute_path(d.file("link/a/../a")) == d.file("real/tree/a"));
  CHECK(absolute_path(d.file("gone/../x")) == d.file("x"));  // nothing to resolve: as written
}

TEST_CASE("printable escapes C1 controls and U+FFFE/U+FFFF as their bytes, once", "[suite]") {
  CHECK(printable("a\xc2\x9b"
                  "2J\xc2\x80\xc2\x9f|\xef\xbf\xbe|\xef\xbf\xbf") ==
        "a\\xc2\\x9b2J\\xc2\\x80\\xc2\\x9f|\\xef\\xbf\\xbe|\\xef\\xbf\\xbf");
  // Their neighbours are characters: U+00A0, U+00FF, U+FFFD, U+FFFC, U+EFFF stay.
  const std::string kept = "\xc2\xa0\xc3\xbf\xef\xbf\xbd\xef\xbf\xbc\xee\xbf\xbf";
  CHECK(printable(kept) == kept);
  CHECK(printable_lines("\xc2\x85\n\x1b") == "\\xc2\\x85\n\\x1b");
  // A cut sequence at the end is left to valid_utf8; escaping again changes nothing.
  CHECK(printable("\xc2") == "\xc2");
  CHECK(printable(printable("\xc2\x9b")) == printable("\xc2\x9b"));
  // At discovery, so that every door has the one name.
  TempDir d;
  write_text_file(d.file("t/c\xc2\x9b/model.onnx"), "");
  CHECK(names(discover_tests({d.file("t")})) == std::vector<std::string>{"c\\xc2\\x9b"});
}

TEST_CASE("a model found from two paths runs once, equal names are made unique", "[suite]") {
  TempDir d;
  make_tree(d);
  CHECK(discover_tests({d.path(), d.file("node/test_2")}).size() == 6);
  TempDir e;
  write_text_file(e.file("a/test_2/model.onnx"), "");
  const auto both = discover_tests({d.file("node/test_2"), e.file("a/test_2")});
  CHECK(names(both) == std::vector<std::string>{"test_2", "test_2#2"});
  // The same names whatever order the PATHs come in (shards typed otherwise must agree).
  const auto swapped = discover_tests({e.file("a/test_2"), d.file("node/test_2")});
  REQUIRE(swapped.size() == 2);
  for (size_t k = 0; k < 2; ++k) {
    CHECK(swapped[k].name == both[k].name);
    CHECK(swapped[k].model == both[k].model);
  }
}

TEST_CASE("a model folder's other folders and its own-data models beside it are searched", "[suite]") {
  TempDir d;
  write_text_file(d.file("g/model.onnx"), "");  // a model folder, no test sets: no data
  write_text_file(d.file("g/bad/model.onnx"), "");
  write_text_file(d.file("g/bad/test_data_set_0/output_0.pb"), "");
  write_text_file(d.file("g/light.onnx"), "");
  write_text_file(d.file("g/light_output_0.pb"), "");
  write_text_file(d.file("g/.hidden/model.onnx"), "");
  const auto tests = discover_tests({d.path()});
  CHECK(names(tests) == std::vector<std::string>{"g", "g/bad", "g/light"});
  REQUIRE(tests.size() == 3);
  CHECK(tests[1].sets == std::vector<std::string>{d.file("g/bad/test_data_set_0")});
  CHECK(tests[2].kind == CaseKind::kFile);
}

TEST_CASE("discovery refuses a missing path and a path without tests", "[suite]") {
  TempDir d;
  make_tree(d);
  try {
    discover_tests({d.file("nope")});
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::kUsage);
    CHECK_THAT(e.what(), Catch::Contains("no such file or folder"));
  }
  try {
    discover_tests({d.path(), d.file("notes")});
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::kUsage);
    CHECK_THAT(e.what(), Catch::Contains("no tests found"));
  }
}

TEST_CASE("filter and exclude select by regex on the name", "[suite]") {
  TempDir d;
  make_tree(d);
  const auto all = discover_tests({d.path()});
  Selection s;
  s.filter = "^node/test_[0-9]+$";
  CHECK(names(select_tests(all, s)) == std::vector<std::string>{"node/test_1", "node/test_2", "node/test_10"});
  s.exclude = "_1";  // test_1 and test_10
  CHECK(names(select_tests(all, s)) == std::vector<std::string>{"node/test_2"});
  s = {};
  s.exclude = "light|real|inner";
  CHECK(select_tests(all, s).size() == 3);
  s.filter = "(";
  CHECK_THROWS_AS(select_tests(all, s), Error);
}

// Found while writing fuzz_cli: 30,000 nested groups, or 100,000 characters, overflowed the stack of
// libstdc++'s recursive regex compiler (SIGSEGV). Such patterns are refused, one line.
TEST_CASE("a filter pattern too long or too deeply nested is refused, not compiled", "[suite]") {
  const std::vector<TestCase> tests{TestCase{"node/test_a"}};
  auto refusal = [&](const std::string& filter) {
    Selection s;
    s.filter = filter;
    try {
      select_tests(tests, s);
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::kUsage);
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  CHECK_THAT(refusal(std::string(30000, '(') + "a" + std::string(30000, ')')),
             Catch::Contains("--filter: a pattern of 60001 characters; at most 4096"));
  CHECK_THAT(refusal(std::string(1000, '(') + "a" + std::string(1000, ')')),
             Catch::Contains("--filter: groups nested 1000 deep; at most 64"));
  CHECK_THAT(refusal(std::string(100000, 'a')),
             Catch::Contains("--filter: a pattern of 100000 characters; at most 4096"));
  // At the limits the pattern compiles and matches, under ASan's larger frames too.
  Selection s;
  s.filter = std::string(64, '(') + "node/test_a" + std::string(64, ')') + "|" + std::string(4096 - 140, 'x');
  CHECK(select_tests(tests, s).size() == 1);
  s.filter = "\\(\\(\\(";  // escaped parentheses open no group
  CHECK(select_tests(tests, s).empty());
}

// Found in review: libstdc++'s backtracking search of `(a|aa)+b` in a name of 90 a's ran
// for hours (a step count in the Fibonacci numbers). A pattern now takes time linear in
// the name, whatever it is: without that, this test would not end.
TEST_CASE("a filter pattern is searched without backtracking, with ECMAScript's meaning", "[suite]") {
  const std::string long_name(4000, 'a');
  const std::vector<TestCase> tests{TestCase{long_name}, TestCase{"node/test_ab"}};
  Selection s;
  s.filter = "(a|aa)+b";
  CHECK(names(select_tests(tests, s)) == std::vector<std::string>{"node/test_ab"});
  s.filter = "(a+)+$";
  CHECK(select_tests(tests, s).size() == 1);
  s.filter = "^(a|aa)+$";
  CHECK(names(select_tests(tests, s)) == std::vector<std::string>{long_name});
  // Anchors, alternatives and lookaheads keep their meaning inside the whole-name match.
  s.filter = "^test";
  CHECK(select_tests(tests, s).empty());
  s.filter = "^node|zzz";
  CHECK(select_tests(tests, s).size() == 1);
  s.filter = "b$|^q";
  CHECK(select_tests(tests, s).size() == 1);
  s.filter = "test_(?=ab)";
  CHECK(select_tests(tests, s).size() == 1);
  // A pattern that the wrapping would make valid is still refused, and back-references,
  // which need backtracking, are refused by name.
  for (const char* bad : {"a)|(b", "(a)\\1"}) {
    s.filter = bad;
    try {
      select_tests(tests, s);
      FAIL("accepted " << bad);
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::kUsage);
    }
  }
  s.filter = "(a)\\1";
  CHECK_THROWS_WITH(select_tests(tests, s), Catch::Contains("back-references are not supported"));
}

TEST_CASE("shards partition the tests exactly and stably", "[suite]") {
  std::vector<TestCase> tests;
  for (int k = 0; k < 500; ++k) tests.push_back(TestCase{"node/test_" + std::to_string(k)});
  for (int n = 1; n <= 7; ++n) {
    std::multiset<std::string> seen;
    for (int k = 1; k <= n; ++k) {
      Selection s;
      parse_shard(std::to_string(k) + "/" + std::to_string(n), s);
      const auto part = select_tests(tests, s);
      if (n > 1) CHECK(part.size() < tests.size());
      for (const TestCase& t : part) seen.insert(t.name);
    }
    CHECK(seen.size() == tests.size());  // every test in exactly one shard
    CHECK(std::set<std::string>(seen.begin(), seen.end()).size() == tests.size());
  }
  // A test's shard depends on its name only: a subset's shard is the full shard's share.
  const std::vector<TestCase> fewer(tests.begin() + 100, tests.begin() + 150);
  Selection s;
  parse_shard("3/4", s);
  std::set<std::string> full;
  for (const TestCase& t : select_tests(tests, s)) full.insert(t.name);
  std::set<std::string> expected, got;
  for (const TestCase& t : fewer)
    if (full.count(t.name)) expected.insert(t.name);
  for (const TestCase& t : select_tests(fewer, s)) got.insert(t.name);
  CHECK(got == expected);
  CHECK(!got.empty());
}

TEST_CASE("--shard K/N is checked", "[suite]") {
  Selection s;
  for (const char* bad : {"0/3", "4/3", "1/0", "x", "1/", "/2", "1/2/3", "-1/2"})
    CHECK_THROWS_AS(parse_shard(bad, s), Error);
  parse_shard("2/3", s);
  CHECK(s.shard_index == 2);
  CHECK(s.shard_count == 3);
}
