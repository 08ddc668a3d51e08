// Messages and help a user stumbles on, each as it was reported: the command list of
// `help` and `--help`, --threads 0 said, --shape refused where it would be ignored, a
// test set that does not fit said once, and `bench --help` describing its options.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "support/check_exit.h"
#include "support/model_builder.h"
#include "support/model_tree.h"
#include "support/paths.h"
#include "support/process.h"
#include "support/shortcuts.h"
#include "support/tensors.h"

using namespace onnxrun;
using namespace onnxrun::test;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

TEST_CASE("help NAME that is no command lists every command, report included", "[cli][messages]") {
  const auto r = run_cli({"help", "nosuch"});
  CHECK_EXIT(r, 2);
  CHECK_THAT(r.err, Contains("(commands: run, test, report, info, bench, compare, verify, help)"));
  CHECK_THAT(run_cli({"help", "--help"}).out, Contains("run, test, report, info, bench, compare, verify, help"));
}

TEST_CASE("the --help command table has one column for the summaries", "[cli][messages]") {
  const auto r = run_cli({"--help"});
  REQUIRE_EXIT(r, 0);
  std::istringstream in(r.out.substr(r.out.find("Commands (onnx-run help COMMAND for each):")));
  std::string line;
  std::getline(in, line);
  std::set<size_t> columns;
  for (int k = 0; k < 7 && std::getline(in, line); ++k) {
    INFO(line);
    REQUIRE(line.rfind("  ", 0) == 0);
    const size_t name_end = line.find(' ', 2);
    columns.insert(line.find_first_not_of(' ', name_end));
  }
  CHECK(columns.size() == 1);  // "compare" was one column off
}

TEST_CASE("--threads says what 0 means", "[cli][messages]") {
  for (const char* command : {"run", "test", "bench"}) {
    INFO(command);
    CHECK_THAT(run_cli({command, "--help"}).out, Contains("0: one per core"));
  }
}

TEST_CASE("--shape with test sets is refused, not ignored", "[cli][messages]") {
  TempDir d;
  write_leaky_test(d.file("m"));
  for (const std::vector<std::string>& extra : {std::vector<std::string>{}, {"-d", d.file("m/test_data_set_0")}}) {
    std::vector<std::string> args{d.file("m/model.onnx"), "--shape", "x=2,4"};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = run_cli(args);
    CHECK_EXIT(r, 2);
    CHECK(r.out.empty());
    CHECK_THAT(r.err, StartsWith("onnx-run: --shape x=2,4: test sets bring their own input shapes"));
  }
  // With --random the shape is used.
  CHECK_EXIT(run_cli({d.file("m/model.onnx"), "--shape", "x=4", "--random", "-q"}), 0);
}

TEST_CASE("--shape against a file input's own shape is refused, not ignored", "[cli][messages]") {
  TempDir d;
  write_leaky_test(d.file("m"));  // x: float[4]
  onnx::ModelProto sym = make_model(16);
  add_symbolic_input(sym, "x", onnx::TensorProto::FLOAT, {"N"});
  add_output(sym, "y", onnx::TensorProto::FLOAT, {4});
  add_node(sym, "LeakyRelu", {"x"}, {"y"}, "a");
  const std::string sym_model = save_model(sym, d.file("sym.onnx"));
  const std::string pb = d.file("x.pb");
  write_float_tensor(pb, {1, -2, 3, -4}, "x");
  write_npz_file(d.file("x.npz"), {{"x", float_tensor({1, -2, 3, -4})}});
  const std::string model = d.file("m/model.onnx");
  const std::string file_says = ", whose shape is [4]; --shape is for made-up inputs and -i literals\n";
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{model, "-i", "x=" + pb, "--shape", "x=2,2"}, "--shape x=2,2: input 'x' is given by -i x=" + pb},
      {{sym_model, "-i", pb, "--shape", "x=5"}, "--shape x=5: input 'x' is given by -i " + pb},
      {{sym_model, "--npz", d.file("x.npz"), "--shape", "x=5", "--json"},
       "--shape x=5: input 'x' is given by --npz " + d.file("x.npz")},
  };
  for (const auto& [args, said] : cases) {
    std::vector<std::string> all = args;
    all.insert(all.end(), {"-o", d.file("out")});
    const auto r = run_cli(all);
    CHECK_EXIT(r, 2);
    CHECK(r.out.empty());
    CHECK(r.err == "onnx-run: " + said + file_says);
    CHECK_FALSE(std::filesystem::exists(d.file("out")));
  }
  // bench shares the options: any --shape beside a file is refused there.
  CHECK_EXIT(run_cli({"bench", sym_model, "-i", pb, "--shape", "x=5"}), 2);
  // A --shape that agrees with the file changes nothing.
  CHECK_EXIT(run_cli({sym_model, "-i", pb, "--shape", "x=4", "-q"}), 0);
  // An input its initializer gives is not made up either: the --shape would be dropped.
  onnx::ModelProto init = make_model(16);
  add_symbolic_input(init, "x", onnx::TensorProto::FLOAT, {"N"});
  add_output(init, "y", onnx::TensorProto::FLOAT, {4});
  *init.mutable_graph()->add_initializer() = float_tensor("x", {4}, {1, -2, 3, -4});
  add_node(init, "LeakyRelu", {"x"}, {"y"}, "a");
  const auto r = run_cli({save_model(init, d.file("init.onnx")), "--shape", "x=9"});
  CHECK_EXIT(r, 2);
  CHECK(r.err ==
        "onnx-run: --shape x=9: input 'x' is given by the model's initializer ([4]); --shape is for made-up inputs "
        "and -i literals\n");
}

TEST_CASE("-d with a test set that does not fit says so once, on stderr", "[cli][messages]") {
  TempDir d;
  write_leaky_test(d.file("m"));
  write_float_tensor(d.file("m/test_data_set_0/input_0.pb"), {1, 2, 3}, "x");  // float[3] for float[4]
  const auto r = run_cli({d.file("m/model.onnx"), "-d", d.file("m/test_data_set_0")});
  CHECK_EXIT(r, 3);
  CHECK(r.out.empty());  // it was printed on stdout as well
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK_THAT(r.err, StartsWith("onnx-run: test_data_set_0: "));
}

TEST_CASE("bench --help describes --repeat and --duration, and no internal function", "[cli][messages]") {
  const auto r = run_cli({"bench", "--help"});
  REQUIRE_EXIT(r, 0);
  CHECK_THAT(r.out, !Contains("Executor::run"));
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    if (line.find("--repeat") == 2 || line.find("--duration") == 2) {
      INFO(line);
      CHECK_THAT(line, Contains("timed runs"));
    }
  }
}

TEST_CASE("names from a model or a folder reach standard output with their control characters escaped",
          "[cli][messages][bad-input]") {
  // An escape sequence in a node, value or folder name would rewrite the terminal or forge
  // a line of a CI log in every door that prints names: verify, info, --print-graph, test
  // (its progress, --list and report) and compare. Each writes it as \x1b, as stderr does.
  const std::string esc = "\x1b[2K";
  TempDir d;
  onnx::ModelProto m = make_model(16);
  add_input(m, "x", onnx::TensorProto::FLOAT, {2});
  add_output(m, "y" + esc, onnx::TensorProto::FLOAT, {2});
  add_float_attr(*add_node(m, "LeakyRelu", {"x"}, {"y" + esc}, "n" + esc), "alpha", 0.5f);
  const std::string model = save_model(m, d.file("m.onnx"));
  write_tensor_file(d.file("x.pb"), float_tensor({2}, {-2, 2}), "x");
  write_tensor_file(d.file("y.pb"), float_tensor({2}, {-1, 3}), "y" + esc);
  const std::string tree = d.file("tree"), test = tree + "/t" + esc;
  write_leaky_test(test, 2.0f);  // a wrong expected output: the report names the test
  std::filesystem::create_directories(d.file("a" + esc));
  std::filesystem::create_directories(d.file("b"));
  write_tensor_file(d.file("a" + esc) + "/v.pb", float_tensor({2}, {1, 2}), "v" + esc);
  write_tensor_file(d.file("b") + "/v.pb", float_tensor({2}, {1, 3}), "v" + esc);
  const std::vector<std::pair<std::vector<std::string>, int>> doors = {
      {{"verify", model, d.file("x.pb"), d.file("y.pb")}, 1},
      {{"info", model}, 0},
      {{model, "-i", "x=[1,2]", "--print-graph"}, 0},
      {{"test", tree}, 1},
      {{"test", tree, "--list"}, 0},
      {{"compare", d.file("a" + esc), d.file("b")}, 1},
  };
  for (const auto& [args, code] : doors) {
    const ProcessResult r = run_cli(args);
    INFO(args[0] << " " << args[1] << "\n" << r.out);
    CHECK_EXIT(r, code);
    CHECK(r.out.find('\x1b') == std::string::npos);
    CHECK_THAT(r.out, Contains("\\x1b[2K"));
    CHECK(r.err.find('\x1b') == std::string::npos);
  }
}

TEST_CASE("warnings and -v or -vv lines reach stderr and the reports of test with names escaped",
          "[cli][messages][bad-input]") {
  // Warnings quote the model's names (a symbolic dim, an output computed in a shape other
  // than the declared one; -v and -vv name values, nodes and files): raw, this name would
  // clear the line and print a forged one at column 0 of the terminal or the CI log.
  const std::string evil = "\x1b[2K\r\nonnx-run: forged\x07";
  TempDir d;
  const std::string set = d.file("tree/t/test_data_set_0");
  std::filesystem::create_directories(set);
  onnx::ModelProto m = make_model(16);
  add_symbolic_input(m, "x", onnx::TensorProto::FLOAT, {"N" + evil});
  add_output(m, "y" + evil, onnx::TensorProto::FLOAT, {4});
  add_node(m, "LeakyRelu", {"x"}, {"y" + evil}, "n" + evil);
  const std::string model = save_model(m, d.file("tree/t/model.onnx"));
  const std::string alone = save_model(m, d.file("m.onnx"));  // no test sets: made-up inputs
  write_message(set + "/input_0.pb", float_tensor("x", {3}, {-1, 2, 3}));
  write_message(set + "/output_0.pb", float_tensor("y" + evil, {3}, {5, 5, 5}));  // differs: a failure
  auto raw_control = [](const std::string& s) {
    return std::any_of(s.begin(), s.end(), [](char c) { return (c >= 0 && c < 0x20 && c != '\n') || c == 0x7f; });
  };
  const std::vector<std::pair<std::vector<std::string>, int>> doors = {
      {{alone}, 0},  // made up: the symbolic dim and the declared shape
      {{model, "-i", "x=[1,2,3]", "-v", "-o", d.file("out")}, 0},
      {{model, "-i", "x=[1,2,3]", "-vv", "--json"}, 0},
      {{model, "-i", "x=[1,2,3]", "--save-inputs", d.file("si"), "--dump-intermediates", d.file("dump"), "-v"}, 0},
      {{model, "-d", set}, 1},
      {{"bench", model, "-i", "x=[1,2,3]", "--repeat", "2", "-v"}, 0},
      {{"test", d.file("tree"), "--junit", d.file("r.xml"), "-v"}, 1},
  };
  for (const auto& [args, code] : doors) {
    const ProcessResult r = run_cli(args);
    INFO(args.front() << " ... " << args.back() << "\n" << r.err);
    CHECK_EXIT(r, code);
    CHECK_FALSE(raw_control(r.err));
    CHECK_FALSE(raw_control(r.out));
    CHECK_THAT(r.err + r.out, Contains("\\x1b[2K\\x0d\\x0aonnx-run: forged\\x07"));
    CHECK(r.err.find("\nonnx-run: forged") == std::string::npos);
    CHECK(r.out.find("\nonnx-run: forged") == std::string::npos);
  }
  // JUnit: the warning in <system-err> and the failure's report, the name escaped as on
  // stderr; no carriage return or newline of a name's starts a line.
  const std::string xml = read_file(d.file("r.xml"));
  CHECK_FALSE(raw_control(xml));
  CHECK(xml.find("\nonnx-run: forged") == std::string::npos);
  CHECK_THAT(xml, Contains("<system-err>warning: graph output &apos;y\\x1b[2K\\x0d\\x0aonnx-run: forged\\x07&apos; "
                           "is declared float[4] but computed as float[3]</system-err>"));
  CHECK_THAT(xml, Contains("test_data_set_0: output &apos;y\\x1b[2K\\x0d\\x0aonnx-run: forged\\x07&apos;: 3 of 3"));
  // --json: the warning escaped as the message is (it kept the raw ESC, CR and LF).
  REQUIRE_EXIT(run_cli({"test", d.file("tree"), "-q", "--json", d.file("r.json")}), 1);
  const std::string json = read_file(d.file("r.json"));
  CHECK(json.find("\\u001b") == std::string::npos);
  CHECK_THAT(json, Contains("graph output 'y\\\\x1b[2K\\\\x0d\\\\x0aonnx-run: forged\\\\x07' is declared"));
  // -q: no warning at all.
  const ProcessResult quiet = run_cli({model, "-i", "x=[1,2,3]", "-q"});
  CHECK_EXIT(quiet, 0);
  CHECK(quiet.err.empty());
}

TEST_CASE("an error naming a node escapes its name: no line of the model's choosing in test's report",
          "[cli][messages][bad-input]") {
  // A model refused for a node (LeakyRelu on int32) names the node in its message, which
  // `test` prints under the test's line: a newline in the name started a line there that
  // looked like the runner's own.
  const std::string evil = "\n[1/1] passed      forged\r";
  TempDir d;
  std::filesystem::create_directories(d.file("tree/t"));  // no test set: the load refuses it first
  onnx::ModelProto m = make_model(16);
  add_input(m, "x", onnx::TensorProto::INT32, {2});
  add_output(m, "y", onnx::TensorProto::INT32, {2});
  add_node(m, "LeakyRelu", {"x"}, {"y"}, "n" + evil);
  const std::string model = save_model(m, d.file("tree/t/model.onnx"));
  for (const std::vector<std::string>& args : {std::vector<std::string>{"test", d.file("tree")},
                                               {"test", d.file("tree"), "--isolate"},
                                               {"test", d.file("tree"), "--json", d.file("r.json")},
                                               {model, "-i", "x=[1,2]"},
                                               {"info", model}}) {
    const ProcessResult r = run_cli(args);
    INFO(args.front() << " " << args.back() << "\n" << r.out << r.err);
    CHECK(r.out.find("\n[1/1] passed") == std::string::npos);
    CHECK(r.err.find("\n[1/1] passed") == std::string::npos);
    CHECK(r.out.find('\r') == std::string::npos);
    CHECK(r.err.find('\r') == std::string::npos);
    CHECK_THAT(r.out + r.err, Contains("node 'n\\x0a[1/1] passed      forged\\x0d' (LeakyRelu)"));
  }
  CHECK_THAT(read_file(d.file("r.json")), Contains("node 'n\\\\x0a[1/1] passed      forged\\\\x0d' (LeakyRelu)"));
}
