// The conventions people bring from git, coreutils and cargo: `help [COMMAND]`, global
// options before or after the command, --version on every command, an unknown option
// named before anything else, numeric options that say what they wanted, and no empty
// path taken for no path.
#include <catch2/catch.hpp>

#include <regex>
#include <string>
#include <vector>

#include "support/check_exit.h"
#include "support/model_tree.h"
#include "support/paths.h"
#include "support/process.h"

using namespace onnxrun::test;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

std::string quick_model() { return testdata_dir() + "/quick/leaky_double.onnx"; }

// A usage error: exit 2, exactly `line` on stderr, nothing on stdout.
void require_usage_error(const std::vector<std::string>& args, const std::string& line) {
  const auto r = run_cli(args);
  CHECK_EXIT(r, 2);
  CHECK(r.err == line + "\n");
  CHECK(r.out.empty());
}

}  // namespace

TEST_CASE("onnx-run help [COMMAND] prints what --help prints", "[cli][conventions]") {
  const auto top = run_cli({"help"});
  CHECK_EXIT(top, 0);
  CHECK(top.out == run_cli({"--help"}).out);
  CHECK_THAT(top.out, Contains("Commands (onnx-run help COMMAND for each):"));
  for (const char* command : {"run", "test", "info", "bench", "help"}) {
    const auto r = run_cli({"help", command});
    CHECK_EXIT(r, 0);
    CHECK(r.out == run_cli({command, "--help"}).out);
  }
  require_usage_error({"help", "tset"},
                      "onnx-run: help: 'tset' is not a command; did you mean `onnx-run help test`? (commands: run, "
                      "test, report, info, bench, compare, verify, help)");
}

TEST_CASE("usage lines name the command and its arguments in capitals", "[cli][conventions]") {
  CHECK_THAT(run_cli({"run", "--help"}).out, Contains("\nUsage: onnx-run [run] MODEL [OPTIONS]\n"));
  CHECK_THAT(run_cli({"test", "--help"}).out, Contains("\nUsage: onnx-run test PATH... [OPTIONS]\n"));
  CHECK_THAT(run_cli({"info", "--help"}).out, Contains("\nUsage: onnx-run info MODEL [OPTIONS]\n"));
}

TEST_CASE("--version works on every command", "[cli][conventions]") {
  for (std::vector<std::string> args : {std::vector<std::string>{"--version"},
                                        {"run", "--version"},
                                        {"test", "--version"},
                                        {"info", "--version"},
                                        {"bench", "--version"},
                                        {"help", "--version"}}) {
    const auto r = run_cli(args);
    CHECK_EXIT(r, 0);
    CHECK_THAT(r.out, StartsWith("onnx-run 0.") && Contains("ONNX opsets up to"));
  }
}

TEST_CASE("global options work before and after the command", "[cli][conventions]") {
  TempDir d;
  write_leaky_test(d.file("t"));
  for (std::vector<std::string> args : {std::vector<std::string>{"-q", "test", d.path()},
                                        {"-v", "test", d.path()},
                                        {"-vv", "test", d.path()},
                                        {"--threads", "2", "test", d.path()},
                                        {"--threads=2", "-q", "test", d.path()},
                                        {"--max-memory", "1G", "test", d.path()},
                                        {"test", d.path(), "-q", "--threads", "2"}}) {
    const auto r = run_cli(args);
    CHECK_EXIT(r, 0);
    CHECK_THAT(r.out, Contains("1 passed, 0 failed"));
  }
  CHECK_EXIT(run_cli({"-q", "info", quick_model()}), 0);
  CHECK_EXIT(run_cli({"--max-memory=1G", "bench", quick_model(), "--shape", "x=4", "--repeat", "1", "--warmup", "0"}),
             0);
  // -q before the command is the same -q: only failures print (the summary's time aside).
  auto untimed = [](const std::string& s) { return std::regex_replace(s, std::regex(R"(in [0-9.]+ s\))"), "in T s)"); };
  CHECK(untimed(run_cli({"-q", "test", d.path()}).out) == untimed(run_cli({"test", d.path(), "-q"}).out));
  // Before a model, they are run's options as ever.
  CHECK_EXIT(run_cli({"-q", quick_model(), "--shape", "x=3"}), 0);
}

TEST_CASE("an unknown option is named first, with the nearest real one", "[cli][conventions]") {
  require_usage_error({"--tresholds"}, "onnx-run: unknown option --tresholds (see onnx-run --help)");
  require_usage_error({"--thread", "2"},
                      "onnx-run: unknown option --thread; did you mean --threads? (see onnx-run --help)");
  require_usage_error({"-V"}, "onnx-run: unknown option -V; did you mean --version? (see onnx-run --help)");
  // A short option in the other case is the one slip a letter tells (Caps Lock, -O for -o);
  // a letter no option has in either case gets no guess.
  require_usage_error({quick_model(), "-O", "out"},
                      "onnx-run: unknown option -O; did you mean -o? (see onnx-run --help)");
  require_usage_error({quick_model(), "-Z"}, "onnx-run: unknown option -Z (see onnx-run --help)");
  require_usage_error({"info", "--jsno"},
                      "onnx-run: unknown option --jsno; did you mean --json? (see onnx-run info --help)");
  require_usage_error({"test", "--junti=r.xml"},
                      "onnx-run: unknown option --junti; did you mean --junit? (see onnx-run test --help)");
  // A value that starts with '-' is a value, not an unknown option.
  const auto r = run_cli({quick_model(), "--shape", "x=3", "--range", "-5,5", "-q"});
  CHECK_EXIT(r, 0);
}

TEST_CASE("numeric options say what they expected and what they got", "[cli][conventions]") {
  const std::string m = quick_model();
  require_usage_error({m, "--rtol", "-1"}, "onnx-run: --rtol: expected a number >= 0, got '-1' (see onnx-run --help)");
  require_usage_error({m, "--atol", "abc"},
                      "onnx-run: --atol: expected a number >= 0, got 'abc' (see onnx-run --help)");
  require_usage_error({m, "--rtol", "nan"},
                      "onnx-run: --rtol: expected a number >= 0, got 'nan' (see onnx-run --help)");
  // Unsigned options refuse negatives rather than wrap around.
  require_usage_error({m, "--seed", "-1"},
                      "onnx-run: --seed: expected a whole number >= 0, got '-1' (see onnx-run --help)");
  require_usage_error({m, "--threads", "-2"},
                      "onnx-run: --threads: expected a whole number from 0 to 4096, got '-2' (see onnx-run --help)");
  require_usage_error({"test", ".", "-j", "0"},
                      "onnx-run: --jobs: expected a whole number from 1 to 1024, got '0' (see onnx-run test --help)");
  require_usage_error({"test", ".", "--timeout", "-3"},
                      "onnx-run: --timeout: expected a number >= 0, got '-3' (see onnx-run test --help)");
  require_usage_error({"test", ".", "--slowest", "1.5"},
                      "onnx-run: --slowest: expected a whole number >= 0, got '1.5' (see onnx-run test --help)");
  require_usage_error({"bench", m, "--repeat", "0"},
                      "onnx-run: --repeat: expected a whole number from 1 to "
                      "1000000000, got '0' (see onnx-run bench --help)");
  // 1e10 s overflowed the clock's nanoseconds: a deadline already past, and 2 runs.
  require_usage_error(
      {"bench", m, "--duration", "1e10"},
      "onnx-run: --duration: expected a number > 0 and <= 1e+09, got '1e10' (see onnx-run bench --help)");
  require_usage_error({"bench", "--memcpy", "-8"},
                      "onnx-run: --memcpy: expected a whole number >= 1, got '-8' (see onnx-run bench --help)");
}

// `--json "$REPORT"` with REPORT unset in CI: the report (or the baseline, or -o's files)
// was silently not written, exit 0. Every option that takes a path, in every command.
TEST_CASE("an empty path is a usage error naming its option, in every command", "[cli][conventions]") {
  const std::string m = quick_model(), dir = testdata_dir() + "/quick";
  struct Case {
    std::vector<std::string> args;
    std::string option, command;  // as the message names them
  };
  const std::vector<Case> cases{
      {{m, "-o", ""}, "--output-dir", ""},
      {{m, "--save-inputs", ""}, "--save-inputs", ""},
      {{m, "--dump-intermediates", ""}, "--dump-intermediates", ""},
      {{m, "-d", ""}, "--test-dir", ""},
      {{m, "-i", ""}, "--input", ""},
      {{m, "--npz", ""}, "--npz", ""},
      {{m, "--expected", ""}, "--expected", ""},
      {{""}, "MODEL", ""},
      {{"test", dir, "--json", ""}, "--json", " test"},
      {{"test", dir, "--junit", ""}, "--junit", " test"},
      {{"test", dir, "--update-baseline", ""}, "--update-baseline", " test"},
      {{"test", dir, "--baseline", ""}, "--baseline", " test"},
      {{"test", ""}, "PATH", " test"},
      {{"report", "merge", m, "--json", ""}, "--json", " report"},
      {{"report", "merge", m, "--junit", ""}, "--junit", " report"},
      {{"report", "merge", m, "--baseline", ""}, "--baseline", " report"},
      {{"report", "merge", ""}, "REPORT", " report"},
      {{"compare", "", dir}, "A", " compare"},
      {{"compare", dir, ""}, "B", " compare"},
      {{"compare", dir, dir, "--model", ""}, "--model", " compare"},
      {{"verify", "", dir}, "MODEL", " verify"},
      {{"verify", m, ""}, "VALUES", " verify"},
      {{"verify", m, dir, "--junit", ""}, "--junit", " verify"},
      {{"info", ""}, "MODEL", " info"},
      {{"bench", ""}, "MODEL", " bench"},
      {{"bench", m, "-i", ""}, "--input", " bench"},
      {{"bench", m, "--npz", ""}, "--npz", " bench"},
  };
  for (const Case& c : cases) {
    INFO(c.option << c.command);
    require_usage_error(c.args,
                        "onnx-run: " + c.option + ": expected a path, got '' (see onnx-run" + c.command + " --help)");
  }
}
