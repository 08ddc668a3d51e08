// `onnx-run test` over trees where a test could slip out of the run without a word: a
// model that is a broken link, a folder that cannot be listed, two tests given one name.
// CI reads the exit code and the reports; a test missing from them is a test that passed.
#include <catch2/catch.hpp>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

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

namespace {

// Removes everything below the folder `fd` refers to, by descriptors: the deep tree below
// has paths longer than PATH_MAX, which path-based removal cannot reach.
void remove_below(int fd) {
  DIR* dir = ::fdopendir(::dup(fd));
  REQUIRE(dir != nullptr);
  std::vector<std::string> names;
  while (const dirent* e = ::readdir(dir))
    if (std::string(e->d_name) != "." && std::string(e->d_name) != "..") names.push_back(e->d_name);
  ::closedir(dir);
  for (const std::string& n : names) {
    const int sub = ::openat(fd, n.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    if (sub >= 0) {
      remove_below(sub);
      ::close(sub);
      ::unlinkat(fd, n.c_str(), AT_REMOVEDIR);
    } else {
      ::unlinkat(fd, n.c_str(), 0);
    }
  }
}

}  // namespace

TEST_CASE("a model that is a broken link is a test that errs, not a test left out", "[cli][discovery]") {
  TempDir d;
  write_leaky_test(d.file("t/good"));
  write_leaky_test(d.file("t/linked"));
  // The model lives elsewhere (a volume not mounted, a store not fetched): the link dangles.
  fs::remove(d.file("t/linked/model.onnx"));
  fs::create_symlink(d.file("store/model.onnx"), d.file("t/linked/model.onnx"));
  const auto r = run_cli({"test", d.file("t"), "-q", "--json", d.file("r.json")});
  CHECK_EXIT(r, 1);  // it exited 0: "1 passed ... (1 test ...)", linked nowhere in the reports
  CHECK(outcomes(d.file("r.json")) == std::map<std::string, std::string>{{"good", "passed"}, {"linked", "error"}});
  CHECK_THAT(r.err, Contains("linked (error)"));
}

TEST_CASE("a folder where the model belongs is a test that errs, in both layouts", "[cli][discovery]") {
  TempDir d;
  write_leaky_test(d.file("t/good"));
  write_leaky_test(d.file("t/broken"));
  fs::remove(d.file("t/broken/model.onnx"));
  fs::create_directories(d.file("t/broken/model.onnx"));
  fs::create_directories(d.file("t/flat"));
  write_float_tensor(d.file("t/flat/f_output_0.pb"), {1, 2, 3}, "y");
  fs::create_directories(d.file("t/flat/f.onnx"));
  fs::create_directories(d.file("t/flat/plain.onnx"));  // no data beside it: only a folder
  const auto r = run_cli({"test", d.file("t"), "-q", "--json", d.file("r.json")});
  CHECK_EXIT(r, 1);  // it exited 0: "1 passed ... (1 test ...)", broken and flat/f nowhere
  CHECK(outcomes(d.file("r.json")) ==
        std::map<std::string, std::string>{{"good", "passed"}, {"broken", "error"}, {"flat/f", "error"}});
  CHECK_THAT(r.err, Contains("broken (error)") && Contains("flat/f (error)"));
}

TEST_CASE("a folder that cannot be listed is a test that errs, not tests left out", "[cli][discovery]") {
  TempDir d;
  write_leaky_test(d.file("t/good"));
  // Below t/deep, folders of 200-character names until the path is longer than PATH_MAX:
  // no process, root included, can list the deepest (ENAMETOOLONG), as a folder without
  // read permission cannot be listed by any user but root.
  const std::string leaf(200, 'd');
  fs::create_directories(d.file("t/deep"));
  int fd = ::open(d.file("t/deep").c_str(), O_RDONLY | O_DIRECTORY);
  REQUIRE(fd >= 0);
  size_t length = d.file("t/deep").size();
  while (length <= PATH_MAX) {
    REQUIRE(::mkdirat(fd, leaf.c_str(), 0755) == 0);
    const int sub = ::openat(fd, leaf.c_str(), O_RDONLY | O_DIRECTORY);
    REQUIRE(sub >= 0);
    ::close(fd);
    fd = sub;
    length += leaf.size() + 1;
  }
  ::close(fd);
  const auto r = run_cli({"test", d.file("t"), "-q", "--json", d.file("r.json")});
  CHECK_EXIT(r, 1);  // it exited 0: the deep folder was passed over without a word
  const auto o = outcomes(d.file("r.json"));
  CHECK(o.size() == 2);
  CHECK(o.at("good") == "passed");
  const nlohmann::json report = read_json_file(d.file("r.json"));
  bool named = false;
  for (const auto& t : report["tests"])
    if (t["name"] != "good") {
      named = true;
      CHECK(t["outcome"] == "error");
      CHECK(std::string(t["name"]).rfind("deep/", 0) == 0);
      CHECK_THAT(std::string(t["message"]), Contains("File name too long") && Contains("were not run"));
    }
  CHECK(named);
  const int top = ::open(d.file("t/deep").c_str(), O_RDONLY | O_DIRECTORY);
  REQUIRE(top >= 0);
  remove_below(top);
  ::close(top);
}

TEST_CASE("a folder deeper than the limit is a test that errs, and the rest of the tree runs", "[cli][discovery]") {
  TempDir d;
  write_leaky_test(d.file("t/good"));
  // t/deep is 1 level below t; a test at the limit (256) runs, the folder below it is
  // not searched. It stopped the whole run (exit 2), good unrun.
  std::string at_limit = "deep";
  for (int k = 1; k < 256; ++k) at_limit += "/d";
  write_leaky_test(d.file("t/" + at_limit));
  fs::create_directories(d.file("t/" + at_limit + "/d/d/d"));
  const auto r = run_cli({"test", d.file("t"), "-q", "--json", d.file("r.json")});
  CHECK_EXIT(r, 1);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  const auto o = outcomes(d.file("r.json"));
  CHECK(o == std::map<std::string, std::string>{{"good", "passed"}, {at_limit, "passed"}, {at_limit + "/d", "error"}});
  const nlohmann::json report = read_json_file(d.file("r.json"));
  for (const auto& t : report["tests"])
    if (t["outcome"] == "error")
      CHECK_THAT(std::string(t["message"]), Contains(d.file("t/" + at_limit + "/d")) &&
                                                Contains("deeper than 256 levels below") && Contains("not searched") &&
                                                Contains("were not run"));
}

// A K no count reaches (input_99999999999999999999.pb) is a gap: an error of its test,
// in both layouts, and the other tests run. It was "internal error: stol", and in the flat
// layout it stopped the whole run (exit 3). A gap in the flat layout had passed unsaid.
TEST_CASE("a data file whose K is a gap is an error of its test, in both layouts", "[cli][discovery]") {
  TempDir d;
  write_leaky_test(d.file("t/good"));
  write_leaky_test(d.file("t/sets"));
  fs::copy_file(d.file("t/sets/test_data_set_0/input_0.pb"),
                d.file("t/sets/test_data_set_0/input_99999999999999999999.pb"));
  write_leaky_test(d.file("flat"));
  fs::create_directories(d.file("t/light"));
  fs::copy_file(d.file("flat/model.onnx"), d.file("t/light/a.onnx"));
  fs::copy_file(d.file("flat/test_data_set_0/input_0.pb"), d.file("t/light/a_input_0.pb"));
  fs::copy_file(d.file("flat/test_data_set_0/output_0.pb"), d.file("t/light/a_output_0.pb"));
  fs::copy_file(d.file("flat/model.onnx"), d.file("t/light/b.onnx"));
  fs::copy_file(d.file("flat/test_data_set_0/input_0.pb"), d.file("t/light/b_input_2.pb"));
  fs::copy_file(d.file("flat/test_data_set_0/output_0.pb"), d.file("t/light/b_output_0.pb"));
  fs::copy_file(d.file("t/light/a_output_0.pb"), d.file("t/light/a_output_99999999999999999999.pb"));
  const auto r = run_cli({"test", d.file("t"), "-q", "--json", d.file("r.json")});
  CHECK_EXIT(r, 1);
  CHECK(outcomes(d.file("r.json")) ==
        std::map<std::string, std::string>{
            {"good", "passed"}, {"light/a", "error"}, {"light/b", "error"}, {"sets", "error"}});
  std::map<std::string, std::string> messages;
  const nlohmann::json report = read_json_file(d.file("r.json"));
  for (const auto& t : report["tests"]) messages[t.at("name").get<std::string>()] = t.at("message").get<std::string>();
  CHECK_THAT(messages["sets"], Contains("input_1.pb is missing (found input_99999999999999999999.pb)"));
  CHECK_THAT(messages["light/a"], Contains(d.file("t/light") + ": a_output_1.pb is missing (found "
                                                               "a_output_99999999999999999999.pb)"));
  CHECK_THAT(messages["light/b"], Contains("b_input_0.pb is missing (found b_input_2.pb)"));
}

TEST_CASE("tests keep unique names when a renamed duplicate meets a real name", "[cli][discovery]") {
  TempDir d;
  write_leaky_test(d.file("a/x"));
  write_leaky_test(d.file("a/x#2"));
  write_leaky_test(d.file("b/x"));
  const auto list = run_cli({"test", d.file("a"), d.file("b"), "--list"});
  REQUIRE_EXIT(list, 0);
  CHECK(list.out == "x\nx#2\nx#3\n");  // it listed x, x#2, x#2
  // The shards of that run merge into one report of all three tests.
  std::vector<std::string> reports;
  for (int k = 1; k <= 3; ++k) {
    const std::string json = d.file("s" + std::to_string(k) + ".json");
    REQUIRE_EXIT(run_cli({"test", d.file("a"), d.file("b"), "-q", "--shard", std::to_string(k) + "/3", "--json", json}),
                 0);
    reports.push_back(json);
  }
  std::vector<std::string> merge{"report", "merge", "-q", "--json", d.file("all.json")};
  merge.insert(merge.end(), reports.begin(), reports.end());
  CHECK_EXIT(run_cli(merge), 0);
  CHECK(outcomes(d.file("all.json")).size() == 3);
}

TEST_CASE("a test set that is a broken link errs: the test neither passes on the rest nor has no data",
          "[cli][discovery]") {
  TempDir d;
  write_leaky_test(d.file("t/some"));  // test_data_set_0 is there, test_data_set_1 is not
  fs::create_directory_symlink(d.file("store/set_1"), d.file("t/some/test_data_set_1"));
  write_leaky_test(d.file("t/none"));  // its only set is a link to nothing
  fs::remove_all(d.file("t/none/test_data_set_0"));
  fs::create_directory_symlink(d.file("store/set_0"), d.file("t/none/test_data_set_0"));
  const auto r = run_cli({"test", d.file("t"), "-q", "--json", d.file("r.json")});
  CHECK_EXIT(r, 1);  // it exited 0: some passed on set 0 alone, none was "no data" (skipped)
  CHECK(outcomes(d.file("r.json")) == std::map<std::string, std::string>{{"none", "error"}, {"some", "error"}});
  CHECK_THAT(r.out, Contains("test_data_set_1: not a test-set folder"));
}

TEST_CASE("a test set that is a file, a FIFO or a link to a file errs, in test and in the MODEL door",
          "[cli][discovery]") {
  TempDir d;
  for (const char* n : {"file", "fifo", "link"}) write_leaky_test(d.file(std::string("t/") + n));
  write_file(d.file("t/file/test_data_set_1"), "");
  REQUIRE(::mkfifo(d.file("t/fifo/test_data_set_1").c_str(), 0600) == 0);
  fs::create_symlink(d.file("t/file/model.onnx"), d.file("t/link/test_data_set_1"));
  write_file(d.file("t/link/test_data_set_notes.txt"), "");  // not a numbered set: not one
  write_leaky_test(d.file("t/dangling"));                    // a dangling link by any such name is one
  fs::create_directory_symlink(d.file("store/x"), d.file("t/dangling/test_data_set_x"));
  const auto r = run_cli({"test", d.file("t"), "-q", "--json", d.file("r.json")});
  CHECK_EXIT(r, 1);  // it exited 0: each passed on test_data_set_0 alone
  CHECK(outcomes(d.file("r.json")) ==
        std::map<std::string, std::string>{
            {"dangling", "error"}, {"fifo", "error"}, {"file", "error"}, {"link", "error"}});
  for (const char* n : {"file", "fifo", "link"}) {
    const auto m = run_cli({d.file(std::string("t/") + n + "/model.onnx"), "-q"});
    INFO(n);
    CHECK_EXIT(m, 3);
    CHECK_THAT(m.err, Contains("test_data_set_1: not a test-set folder"));
  }
}

// `onnx-run NAME.onnx` runs the data `onnx-run test NAME.onnx` runs: the light layout's
// NAME_input_K.pb / NAME_output_K.pb beside it. It ran made-up inputs instead, compared
// nothing and exited 0 where `test` failed the same model.
TEST_CASE("the MODEL door runs the light layout's files, as test does", "[cli][discovery]") {
  TempDir d;
  write_leaky_test(d.file("flat"));
  const std::vector<float> x{-4, -1, 0, 2};
  fs::create_directories(d.file("l"));
  for (const std::string name : {"good", "bad", "gap", "outputs_only"})
    fs::copy_file(d.file("flat/model.onnx"), d.file("l/" + name + ".onnx"));
  write_float_tensor(d.file("l/good_input_0.pb"), x, "x");
  write_float_tensor(d.file("l/good_output_0.pb"), leaky(x, 0.1f), "y");
  write_float_tensor(d.file("l/bad_input_0.pb"), x, "x");
  write_float_tensor(d.file("l/bad_output_0.pb"), leaky(x, 0.2f), "y");
  write_float_tensor(d.file("l/gap_input_0.pb"), x, "x");
  write_float_tensor(d.file("l/gap_output_1.pb"), leaky(x, 0.1f), "y");
  write_float_tensor(d.file("l/outputs_only_output_0.pb"), leaky(x, 0.1f), "y");

  auto r = run_cli({d.file("l/good.onnx")});
  CHECK_EXIT(r, 0);
  CHECK_THAT(r.out,
             Contains("good_*.pb: passed") && Contains("from good_input_0.pb") && Contains("ok (4 elements, exact)"));
  r = run_cli({d.file("l/good.onnx"), "--json"});
  CHECK_EXIT(r, 0);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  CHECK(j["test_sets"].size() == 1);
  CHECK(j["test_sets"][0]["name"] == "good_*.pb");
  CHECK(j["passed"] == 1);
  r = run_cli({d.file("l/good.onnx"), "-q", "-o", d.file("out")});
  CHECK_EXIT(r, 0);
  CHECK(fs::exists(d.file("out/output_0.pb")));

  for (const std::vector<std::string>& door : {std::vector<std::string>{}, {"-q"}, {"--json"}}) {
    std::vector<std::string> args{d.file("l/bad.onnx")};
    args.insert(args.end(), door.begin(), door.end());
    CHECK_EXIT(run_cli(args), 1);
    CHECK_EXIT(run_cli({"test", d.file("l/bad.onnx"), "-q"}), 1);
  }
  // A gap in K, and expected outputs with no inputs: one line, exit 3 (test: an error and
  // "unsupported", as before).
  r = run_cli({d.file("l/gap.onnx")});
  CHECK_EXIT(r, 3);
  CHECK(r.err == "onnx-run: " + d.file("l") + ": gap_output_0.pb is missing (found gap_output_1.pb)\n");
  r = run_cli({d.file("l/outputs_only.onnx")});
  CHECK_EXIT(r, 3);
  CHECK(r.err == "onnx-run: outputs_only_*.pb: missing input 'x' (float[4])\n");
  // model.onnx is a model folder's, in both doors: its test_data_set_* folders, not
  // model_output_K.pb.
  write_float_tensor(d.file("flat/model_output_0.pb"), leaky(x, 0.2f), "y");
  r = run_cli({d.file("flat/model.onnx")});
  CHECK_EXIT(r, 0);
  CHECK_THAT(r.out, Contains("test_data_set_0: passed"));
}
