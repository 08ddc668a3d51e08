// The verdict in every door that compares (a run on -i with --expected, the test sets
// beside a model, -d, compare, test): a mismatch exits 1 with exactly one `onnx-run:`
// line on stderr and the report on stdout; "exact" only for bit-identical outputs;
// --exact refuses any bit difference and --max-ulp N bounds the ULP distance, alike in
// every door.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include <fmt/core.h>

#include <sys/stat.h>
#include <unistd.h>

#include "support/check_exit.h"
#include "support/model_builder.h"
#include "support/model_tree.h"
#include "support/paths.h"
#include "support/process.h"
#include "support/shortcuts.h"
#include "support/tensors.h"

using namespace onnxrun::test;
namespace fs = std::filesystem;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

// m/model.onnx (LeakyRelu, alpha 0.1, float[4]) run on x = {0, -0, 1, -2}, which gives
// {0, -0, 1, -0.2}; `expected` is what the test set, exp/ and --expected say instead.
struct Doors {
  TempDir d;
  explicit Doors(const std::vector<float>& expected) {
    const std::vector<float> x{0.0f, -0.0f, 1.0f, -2.0f};
    write_leaky_model(d.file("m/model.onnx"), 0.1f);
    write_float_tensor(d.file("m/test_data_set_0/input_0.pb"), x, "x");
    write_float_tensor(d.file("m/test_data_set_0/output_0.pb"), expected, "y");
    write_float_tensor(d.file("x.pb"), x, "x");
    write_float_tensor(d.file("exp/output_0.pb"), expected, "y");
    REQUIRE_EXIT(run_cli({d.file("m/model.onnx"), "-i", d.file("x.pb"), "-o", d.file("act"), "-q"}), 0);
  }
  // Each door that compares, with `extra` options.
  std::vector<std::vector<std::string>> doors(const std::vector<std::string>& extra = {}) const {
    std::vector<std::vector<std::string>> all = {
        {d.file("m/model.onnx"), "-i", d.file("x.pb"), "--expected", d.file("exp")},
        {d.file("m/model.onnx")},
        {d.file("m/model.onnx"), "-d", d.file("m/test_data_set_0")},
        {"compare", d.file("act"), d.file("exp")},
        {"test", d.file("m")},
    };
    for (auto& args : all) args.insert(args.end(), extra.begin(), extra.end());
    return all;
  }
  // verify with the run's input and exp/'s output as the other runtime's values.
  std::vector<std::string> verify(const std::vector<std::string>& extra = {}) const {
    std::vector<std::string> args{"verify", d.file("m/model.onnx"), d.file("x.pb"), d.file("exp/output_0.pb")};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }
};

std::string joined(const std::vector<std::string>& args) {
  std::string out;
  for (const std::string& a : args) out += (out.empty() ? "" : " ") + a;
  return out;
}

// Exit 1 and exactly one line on stderr, "onnx-run: ..." (it was silent).
void check_one_line_failure(const ProcessResult& r) {
  CHECK_EXIT(r, 1);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK_THAT(r.err, StartsWith("onnx-run: "));
  CHECK_FALSE(r.out.empty());  // the report stays on stdout
}

const float kOneUp = std::nextafter(1.0f, 2.0f);

// run_cli(args) with stdout on /dev/full: every write to it fails (ENOSPC).
ProcessResult run_cli_to_full(const std::vector<std::string>& args) {
  std::vector<std::string> argv{"/bin/sh", "-c", "exec \"$0\" \"$@\" >/dev/full", onnx_run_binary()};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_process(argv);
}

}  // namespace

TEST_CASE("every door's mismatch is one onnx-run: line on stderr, exit 1", "[cli][verdict]") {
  const Doors doors({0.0f, -0.0f, 1.5f, -0.2f});
  for (const auto& args : doors.doors()) {
    INFO(joined(args));
    const auto r = run_cli(args);
    check_one_line_failure(r);
    if (args[0] == "test") {
      CHECK_THAT(r.err, Contains("1 of 1 test did not pass: m (failed)"));
    } else if (args[0] == "compare") {
      CHECK_THAT(r.err, Contains("1 of 1 value differs (y: 1 of 4 elements beyond tolerance, max abs err 0.5"));
    } else {
      CHECK_THAT(r.err, Contains("1 of 1 output differs (y: 1 of 4 elements beyond tolerance, max abs err 0.5, "
                                 "max ulp 4194304)"));
    }
  }
  // -q too: the line on stderr does not depend on what stdout shows.
  for (const auto& args : doors.doors({"-q"})) {
    INFO(joined(args));
    const auto r = run_cli(args);
    CHECK_EXIT(r, 1);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  }
}

TEST_CASE("+0 and -0 against +0 and +0 is not exact, and fails under --exact in every door", "[cli][verdict]") {
  const Doors doors({0.0f, 0.0f, 1.0f, -0.2f});  // the run gives -0 at [1]
  for (const auto& args : doors.doors({"--rtol", "0", "--atol", "0"})) {
    INFO(joined(args));
    const auto r = run_cli(args);
    CHECK_EXIT(r, 0);  // equal numbers: within any tolerance
    CHECK_THAT(r.out, !Contains(", exact)"));
    if (args[0] != "test") CHECK_THAT(r.out, Contains("1 of 4 not bit-identical"));
  }
  for (const auto& args : doors.doors({"--exact"})) {
    INFO(joined(args));
    const auto r = run_cli(args);
    check_one_line_failure(r);
    if (args[0] != "test") CHECK_THAT(r.err, Contains("1 of 4 elements not bit-identical, max ulp 0"));
  }
}

TEST_CASE("--max-ulp 1 accepts a 1-ULP difference that --exact and --max-ulp 0 refuse", "[cli][verdict]") {
  const Doors doors({0.0f, -0.0f, kOneUp, -0.2f});
  for (const auto& args : doors.doors({"--max-ulp", "1"})) {
    INFO(joined(args));
    const auto r = run_cli(args);
    CHECK_EXIT(r, 0);
    if (args[0] != "test") CHECK_THAT(r.out, Contains("max ulp 1") && !Contains(", exact)"));
  }
  for (const std::vector<std::string>& strict : {std::vector<std::string>{"--exact"}, {"--max-ulp", "0"}}) {
    for (const auto& args : doors.doors(strict)) {
      INFO(joined(args));
      check_one_line_failure(run_cli(args));
    }
  }
  // Per output: y:1 is y's own bound.
  for (const auto& args : doors.doors({"--max-ulp", "y:1"})) {
    INFO(joined(args));
    CHECK_EXIT(run_cli(args), 0);
  }
}

TEST_CASE("a NAME:V naming no output is a usage error in every door, nothing written", "[cli][verdict]") {
  // 1 ULP off: the default tolerance passes it, so a typo'd name that fell back to it
  // passed silently in `test` (exit 0, "1 passed").
  const Doors doors({0.0f, -0.0f, kOneUp, -0.2f});
  const std::string b = doors.d.file("base.json");
  REQUIRE_EXIT(run_cli({"test", doors.d.file("m"), "--json", b, "-q"}), 0);
  const std::string baseline = read_file(b);
  const std::string r = doors.d.file("r.out");
  for (const std::vector<std::string>& typo :
       {std::vector<std::string>{"--max-ulp", "Y:0"}, {"--atol", "Y:0"}, {"--rtol", "Y:0"}}) {
    std::vector<std::vector<std::string>> all = doors.doors(typo);
    all.push_back(doors.verify(typo));
    for (const std::vector<std::string>& report : {std::vector<std::string>{"--json", r},
                                                   {"--junit", r},
                                                   {"--baseline", b, "--update-baseline", b},
                                                   {"--isolate", "--json", r}}) {
      all.push_back({"test", doors.d.file("m"), "-q"});
      all.back().insert(all.back().end(), typo.begin(), typo.end());
      all.back().insert(all.back().end(), report.begin(), report.end());
    }
    for (const auto& args : all) {
      INFO(joined(args));
      const auto run = run_cli(args);
      CHECK_EXIT(run, 2);
      CHECK(std::count(run.err.begin(), run.err.end(), '\n') == 1);
      CHECK_THAT(run.err, StartsWith("onnx-run: " + typo[0] + " Y:0: no value 'Y' among ") && Contains("(y)"));
      CHECK_FALSE(fs::exists(r));
      CHECK(read_file(b) == baseline);
    }
  }
  // The right name is taken; a run of one slice of several cannot know the other
  // slices' outputs, and a run in which no model loaded knows none: neither checks.
  CHECK_EXIT(run_cli({"test", doors.d.file("m"), "--max-ulp", "y:0", "-q"}), 1);
  CHECK_EXIT(run_cli({"test", doors.d.file("m"), "--max-ulp", "Y:0", "--shard", "1/1", "-q"}), 2);
  for (int k = 1; k <= 2; ++k)
    CHECK_EXIT(run_cli({"test", doors.d.file("m"), "--max-ulp", "Y:0", "--shard", fmt::format("{}/2", k), "-q"}), 0);
  write_text_file(doors.d.file("broken/model.onnx"), "garbage");
  const auto none = run_cli({"test", doors.d.file("broken"), "--max-ulp", "Y:0", "-q"});
  CHECK_EXIT(none, 1);
  CHECK_THAT(none.err, Contains("(error)"));
}

TEST_CASE("a data.json beside the model judges its test sets alike in every door that runs them", "[cli][verdict]") {
  // 0.5 off at [2]: `test` passed with the data.json below while `onnx-run MODEL` and -d
  // ignored it and failed, and a NAME that is no output was ignored everywhere.
  const Doors doors({0.0f, -0.0f, 1.5f, -0.2f});
  const std::string model = doors.d.file("m/model.onnx"), json = doors.d.file("m/data.json");
  const std::string r = doors.d.file("r.out");
  const std::vector<std::vector<std::string>> test_set_doors = {{model},
                                                                {model, "-d", doors.d.file("m/test_data_set_0")},
                                                                {"test", doors.d.file("m"), "--json", r},
                                                                {"test", doors.d.file("m"), "--isolate", "--json", r}};
  auto in_every_door = [&](const std::vector<std::string>& extra, auto&& check) {
    for (std::vector<std::string> args : test_set_doors) {
      args.insert(args.end(), extra.begin(), extra.end());
      INFO(joined(args));
      fs::remove(r);
      check(run_cli(args), args[0] == "test");
    }
  };
  in_every_door({"-q"}, [](const ProcessResult& run, bool) { CHECK_EXIT(run, 1); });
  // Per output or for every output; over the command line's tolerance (regression-runs.md).
  for (const char* tol : {R"({"atol": {"y": 0.5}})", R"({"atol": 0.5, "rtol": 0})"}) {
    write_text_file(json, tol);
    in_every_door({"-q", "--atol", "0"}, [](const ProcessResult& run, bool) { CHECK_EXIT(run, 0); });
  }
  // A NAME that is no output: one line, exit 2, no report.
  for (const char* key : {"atol", "rtol"}) {
    write_text_file(json, fmt::format(R"({{"{}": {{"Y": 0.5}}}})", key));
    in_every_door({"-q"}, [&](const ProcessResult& run, bool) {
      CHECK_EXIT(run, 2);
      CHECK(run.err == fmt::format("onnx-run: {}: \"{}\": {{\"Y\": 0.5}}: no value 'Y' among the model's outputs (y)\n",
                                   json, key));
      CHECK_FALSE(fs::exists(r));
    });
  }
  // A tolerance that is no number is the data's fault: exit 3 where the model runs, the
  // test's error in `test`.
  write_text_file(json, R"({"atol": {"y": -1}})");
  in_every_door({"-q"}, [](const ProcessResult& run, bool test_door) {
    CHECK_EXIT(run, test_door ? 1 : 3);
    CHECK_THAT(test_door ? run.out : run.err, Contains("\"atol\" of output \"y\" must be a non-negative number"));
  });
}

TEST_CASE("a data.json that is there but cannot be read is the data's error in every door", "[cli][verdict]") {
  // 1 ULP off at [2]: the default tolerance passes it, the data.json's atol 0 rtol 0 does
  // not. A data.json that was a dangling link, a folder, a FIFO or unreadable was ignored,
  // so the set passed (exit 0) with the looser tolerance in every door.
  const Doors doors({0.0f, -0.0f, kOneUp, -0.2f});
  const std::string model = doors.d.file("m/model.onnx"), json = doors.d.file("m/data.json");
  // As an unprivileged user where the tests run as root (root reads a mode-0 file).
  const bool as_nobody = ::geteuid() == 0;
  auto run = [&](const std::vector<std::string>& args) {
    if (!as_nobody) return run_cli(args);
    std::vector<std::string> argv{"/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                                  onnx_run_binary()};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_process(argv);
  };
  fs::permissions(doors.d.path(), fs::perms::all);  // the set's folders are a+rx already
  const std::vector<std::vector<std::string>> test_set_doors = {{model},
                                                                {model, "-d", doors.d.file("m/test_data_set_0")},
                                                                {"test", doors.d.file("m")},
                                                                {"test", doors.d.file("m"), "--isolate"}};
  auto in_every_door = [&](const std::string& why) {
    for (std::vector<std::string> args : test_set_doors) {
      args.push_back("-q");
      INFO(joined(args) << " (data.json: " << why << ")");
      const ProcessResult r = run(args);
      if (args[0] == "test") {
        CHECK_EXIT(r, 1);
        CHECK_THAT(r.out, Contains("error") && Contains(why));
        CHECK(r.err == "onnx-run: 1 of 1 test did not pass: m (error)\n");
      } else {
        CHECK_EXIT(r, 3);
        CHECK_THAT(r.err, StartsWith("onnx-run: ") && Contains(json) && Contains(why));
        CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
      }
    }
  };
  write_text_file(json, R"({"atol": 0, "rtol": 0})");
  fs::permissions(json, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  for (std::vector<std::string> args : test_set_doors) {
    args.push_back("-q");
    INFO(joined(args));
    CHECK_EXIT(run(args), 1);  // read: the data.json's tolerance fails the set
  }
  fs::permissions(json, fs::perms::none);
  in_every_door("Permission denied");
  fs::remove(json);
  fs::create_symlink("gone.json", json);
  in_every_door("a dangling symbolic link");
  fs::remove(json);
  fs::create_directory(json);
  in_every_door("is a folder");
  fs::remove(json);
  REQUIRE(::mkfifo(json.c_str(), 0644) == 0);
  in_every_door("a FIFO");  // refused at once: nothing writes to it
  // A folder with a data.json and no model (the model downloaded by URL): a FIFO there is
  // still the missing model (unsupported), never a wait for a writer.
  fs::create_directories(doors.d.file("real"));
  REQUIRE(::mkfifo(doors.d.file("real/data.json").c_str(), 0644) == 0);
  const ProcessResult missing = run_cli({"test", doors.d.file("real")});
  CHECK_EXIT(missing, 0);
  CHECK_THAT(missing.out, Contains("unsupported real") && Contains("model not present"));
}

TEST_CASE("--exact with --max-ulp, --atol or --rtol, or --max-ulp with another statistic, is a usage error",
          "[cli][verdict]") {
  const Doors doors({0.0f, -0.0f, 1.0f, -0.2f});
  // --exact ignores atol and rtol: one given beside it, for all or one output, was dropped.
  for (const std::vector<std::string>& bad : {std::vector<std::string>{"--exact", "--max-ulp", "1"},
                                              {"--exact", "--atol", "y:1"},
                                              {"--exact", "--rtol", "0.5"},
                                              {"--max-ulp", "1.5"},
                                              {"--max-ulp", "-1"},
                                              {"--max-ulp", "2", "--check-error-stat", "mean"}}) {
    for (const auto& args : doors.doors(bad)) {
      INFO(joined(args));
      const auto r = run_cli(args);
      CHECK_EXIT(r, 2);
      CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    }
  }
}

TEST_CASE("--max-ulp is a whole number of ULPs, read exactly: anything else is a one-line usage error",
          "[cli][verdict]") {
  const Doors doors({0.0f, -0.0f, 1.0f, -0.2f});
  for (const std::string bad : {"1e3", "y:1e3", "1.0", "+1", "0x10", "9200000000000000000", "18446744073709551616"}) {
    std::vector<std::vector<std::string>> all = doors.doors({"--max-ulp", bad});
    all.push_back(doors.verify({"--max-ulp", bad}));
    for (const auto& args : all) {
      INFO(joined(args));
      const auto r = run_cli(args);
      CHECK_EXIT(r, 2);
      CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
      CHECK_THAT(r.err, StartsWith("onnx-run: ") && Contains("--max-ulp") && Contains("whole number") &&
                            Contains("'" + bad + "'"));
    }
  }
  // 2^53 + 1, which a double would have made 2^53; the largest bound taken.
  for (const std::string big : {"9007199254740993", "9199999999999999999"}) {
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{doors.d.file("m/model.onnx"), "--json", "--max-ulp", big},
          {"compare", doors.d.file("act"), doors.d.file("exp"), "--json", "--max-ulp", big},
          doors.verify({"--json", "--max-ulp", big})}) {
      INFO(joined(args));
      const auto r = run_cli(args);
      CHECK_EXIT(r, 0);
      CHECK_THAT(r.out, Contains("\"max_ulp_bound\": " + big + ","));
    }
  }
}

TEST_CASE("a mismatch whose report cannot be written is the one stdout line, exit 3, in every door", "[cli][verdict]") {
  const Doors doors({0.0f, -0.0f, 1.5f, -0.2f});
  std::vector<std::vector<std::string>> all = doors.doors();
  all.push_back(doors.verify());
  REQUIRE_EXIT(run_cli({"test", doors.d.file("m"), "-q", "--shard", "1/1", "--json", doors.d.file("s.json")}), 1);
  all.push_back({"report", "merge", doors.d.file("s.json")});
  for (const auto& args : all) {
    INFO(joined(args));
    const auto r = run_cli_to_full(args);
    CHECK_EXIT(r, 3);
    CHECK(r.err == "onnx-run: stdout: No space left on device\n");
  }
}

TEST_CASE("the --json comparison carries bit identity and the max ULP", "[cli][verdict]") {
  const Doors doors({0.0f, 0.0f, kOneUp, -0.2f});
  const auto r = run_cli({doors.d.file("m/model.onnx"), "--json", "--max-ulp", "1"});
  CHECK_EXIT(r, 0);
  CHECK_THAT(r.out, Contains("\"bit_identical\": false") && Contains("\"bit_differences\": 2") &&
                        Contains("\"max_ulp\": 1") && Contains("\"max_ulp_bound\": 1"));
}

TEST_CASE("--max-ulp passes no wrong bool or integer in any door or on any kernel path", "[cli][verdict]") {
  // Less gives bool: the expected output is wrong at [1]. --max-ulp 1 passed it (a bool's
  // ULP distance is 0 or 1), and `compare` passed int32 5 against 6, in every door.
  TempDir d;
  fs::create_directories(d.file("m/test_data_set_0"));
  fs::create_directories(d.file("exp"));
  onnx::ModelProto m = make_model(13);
  add_input(m, "x", onnx::TensorProto::FLOAT, {4});
  add_output(m, "y", onnx::TensorProto::BOOL, {4});
  *m.mutable_graph()->add_initializer() = float_tensor("zero", {}, {0.0f});
  add_node(m, "Less", {"x", "zero"}, {"y"});
  const std::string model = save_model(m, d.file("m/model.onnx"));
  const std::string set = d.file("m/test_data_set_0");
  const onnxrun::Tensor wrong = make_tensor<uint8_t>(onnxrun::DType::kBool, {4}, {1, 1, 1, 0});
  write_float_tensor(set + "/input_0.pb", {-1, 2, -3, 4}, "x");
  onnxrun::write_tensor_file(set + "/output_0.pb", wrong, "y");
  onnxrun::write_tensor_file(d.file("exp/output_0.pb"), wrong, "y");
  onnxrun::write_tensor_file(d.file("five.pb"), make_tensor<int32_t>(onnxrun::DType::kInt32, {1}, {5}), "v");
  onnxrun::write_tensor_file(d.file("six.pb"), make_tensor<int32_t>(onnxrun::DType::kInt32, {1}, {6}), "v");
  const std::vector<std::vector<std::string>> doors = {{model, "-i", set + "/input_0.pb", "--expected", d.file("exp")},
                                                       {model},
                                                       {model, "-q"},
                                                       {model, "--json"},
                                                       {model, "-d", set},
                                                       {"test", d.file("m")},
                                                       {"test", d.file("m"), "--isolate"}};
  // What fails is said as it is: the values are unequal, not "beyond 1000 ULPs" (they are 1 apart).
  const std::string unequal = "unequal (integers and bool must be equal under any --max-ulp)";
  for (const char* bound : {"1", "y:1", "1000"})
    for (std::vector<std::string> args : doors) {
      args.insert(args.end(), {"--max-ulp", bound});
      INFO(joined(args));
      const ProcessResult r = run_cli(args);
      check_one_line_failure(r);
      // --json's stdout is the document (its comparison has the numbers, no sentence).
      const bool json = args[1] == "--json";
      if (args[0] != "test" && !json) CHECK_THAT(r.out, Contains("no tolerance passes it"));
      if (!json) CHECK_THAT(r.out, Contains(unequal));
      if (args[0] != "test") CHECK_THAT(r.err, Contains(unequal));
      CHECK_FALSE(std::regex_search(r.out + r.err, std::regex(R"(beyond \d+ ULP)")));
    }
  // verify judges the other runtime's values by the same rule and says it alike.
  const ProcessResult v =
      run_cli({"verify", model, set + "/input_0.pb", d.file("exp/output_0.pb"), "--max-ulp", "1000"});
  check_one_line_failure(v);
  CHECK_THAT(v.out, Contains(unequal));
  CHECK_THAT(v.err, Contains(unequal));
  CHECK_FALSE(std::regex_search(v.out + v.err, std::regex(R"(beyond \d+ ULP)")));
  for (const onnxrun::LeakyReluPath* p : onnxrun::leaky_relu_supported_paths())
    for (const char* bound : {"1", "1000"}) {
      INFO(p->name << " --max-ulp " << bound);
      const ProcessResult r = run_process({"/usr/bin/env", std::string("ONNXRUN_ISA=") + p->name, onnx_run_binary(),
                                           "compare", d.file("five.pb"), d.file("six.pb"), "--max-ulp", bound});
      check_one_line_failure(r);
      CHECK_THAT(r.err, Contains("1 of 1 elements " + unequal));
      CHECK_THAT(r.out, Contains(unequal));
      CHECK_THAT(r.out, Contains("max ulp 1; no tolerance passes it"));
    }
}
