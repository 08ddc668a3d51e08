// The files rules of DESIGN.md through the real binary: -o files appear only after the
// run succeeded, SIGINT/SIGTERM leave all of a run's outputs or nothing (and no
// temporaries), `onnx-run test` reports go to symlinks and devices properly, and a
// failure is exactly one stderr line even after a warning.
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/check_exit.h"
#include "support/model_builder.h"
#include "support/model_tree.h"
#include "support/paths.h"
#include "support/process.h"

extern char** environ;

using namespace onnxrun::test;
namespace fs = std::filesystem;
using TP = onnx::TensorProto;

namespace {

size_t count_lines(const std::string& s) { return static_cast<size_t>(std::count(s.begin(), s.end(), '\n')); }

// x[n] -> LeakyRelu -> y1, x -> LeakyRelu -> y2: two outputs as large as --shape says.
std::string two_output_model(const std::string& dir) {
  onnx::ModelProto m = make_model(16);
  add_symbolic_input(m, "x", TP::FLOAT, {"n"});
  add_output(m, "y1", TP::FLOAT, {-1});
  add_output(m, "y2", TP::FLOAT, {-1});
  add_node(m, "LeakyRelu", {"x"}, {"y1"}, "a");
  add_node(m, "LeakyRelu", {"x"}, {"y2"}, "b");
  return save_model(m, dir + "/two.onnx");
}

// Starts argv with stdout to /dev/null and stderr to `err`, SIGINT/SIGTERM at their defaults.
pid_t spawn(const std::vector<std::string>& argv, const std::string& err) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t def;
  sigemptyset(&def);
  sigaddset(&def, SIGINT);
  sigaddset(&def, SIGTERM);
  posix_spawnattr_setsigdefault(&attr, &def);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, args[0], &fa, &attr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  REQUIRE(rc == 0);
  return pid;
}

// SIGTERM/SIGINT at random moments of `argv`, a run that writes its files into `out` (a
// folder it makes, or, every third round, one that stands with an earlier run's files of
// the same names): all of the run's files or none, never a temporary, never a made folder
// left behind, and the earlier files as they were unless all of the run's replaced them.
void check_signals_leave_all_or_none(const std::vector<std::string>& argv, const std::string& out,
                                     const std::string& err) {
  // A whole run first: how long it takes, and what its files are.
  const auto t0 = std::chrono::steady_clock::now();
  auto full = run_process(argv);
  const auto full_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
  REQUIRE_EXIT(full, 0);
  REQUIRE(full.err.empty());
  const std::vector<std::string> all = names_in(out);
  REQUIRE(all.size() >= 2);
  std::vector<uintmax_t> sizes;
  for (const std::string& f : all) sizes.push_back(fs::file_size(out + "/" + f));
  auto has_sizes = [&](auto size_of) {
    for (size_t k = 0; k < all.size(); ++k)
      if (fs::file_size(out + "/" + all[k]) != size_of(k)) return false;
    return true;
  };
  const auto earlier_size = [](size_t) { return std::string("earlier").size(); };
  const auto run_size = [&](size_t k) { return sizes[k]; };

  std::mt19937 rng(12345);
  std::uniform_int_distribution<int> delay_ms(0, static_cast<int>(std::min<long long>(full_ms, 1500)));
  int killed = 0, with_outputs = 0, finished = 0, early = 0;
  for (int round = 0; round < 12; ++round) {
    fs::remove_all(out);
    // Every third round starts from an earlier run's outputs: a run that is interrupted
    // must leave them as they were (a commit under way puts back what it replaced).
    const bool earlier = round % 3 == 2;
    if (earlier) {
      fs::create_directories(out);
      for (const std::string& f : all) write_text_file(out + "/" + f, "earlier");
    }
    const int sig = round % 2 ? SIGINT : SIGTERM;
    const pid_t pid = spawn(argv, err);
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms(rng)));
    ::kill(pid, sig);
    int status = 0;
    REQUIRE(wait_bounded(pid, status, 120));  // a run that hangs after the signal fails here
    if (WIFSIGNALED(status)) {
      // The signal came before main() installed the handler (a sanitized build starts
      // slowly): the process had written nothing yet.
      ++early;
      CHECK(names_in(out) == (earlier ? all : std::vector<std::string>{}));
      if (earlier) CHECK(has_sizes(earlier_size));
      continue;
    }
    REQUIRE(WIFEXITED(status));  // the handler exits; no death by signal
    const int code = WEXITSTATUS(status);
    std::ifstream ef(err);
    std::stringstream es;
    es << ef.rdbuf();
    const std::string text = es.str();
    const auto names = names_in(out);
    INFO("round " << round << " signal " << sig << " exit " << code << " stderr: " << text);
    if (code == 0) {
      ++finished;  // the run ended before the signal came
      CHECK(names == all);
    } else {
      ++killed;
      CHECK(code == 128 + sig);
      CHECK(text == (sig == SIGINT ? "onnx-run: interrupted (SIGINT)\n" : "onnx-run: interrupted (SIGTERM)\n"));
      if (earlier) {
        CHECK(names == all);  // no temporary, no backup left beside them
        // The earlier files, or the run's where the signal came after its commit: never a mix.
        if (has_sizes(run_size)) ++with_outputs;
        else CHECK(has_sizes(earlier_size));
        continue;
      }
      CHECK((names.empty() || names == all));
      if (names == all) ++with_outputs;
      else CHECK_FALSE(fs::exists(out));  // the folder the run made goes with its files
    }
    if (names == all) CHECK(has_sizes(run_size));
  }
  WARN("kill test of " << argv[argv.size() - 2] << ": a whole run " << full_ms << " ms; 12 signals: " << killed
                       << " killed the run (" << with_outputs << " of those after the outputs were in place), "
                       << finished << " came after it ended, " << early << " before the handler was installed");
  CHECK(killed > 0);
}

}  // namespace

TEST_CASE("SIGTERM/SIGINT at any moment: all of the run's outputs or none, never a temporary or a made folder",
          "[cli][signals]") {
  TempDir d;
  const std::string model = two_output_model(d.path());
  check_signals_leave_all_or_none(
      {onnx_run_binary(), model, "--shape", "x=20000000", "--random", "-q", "-o", d.file("out")}, d.file("out"),
      d.file("stderr"));
}

TEST_CASE("SIGTERM/SIGINT at any moment: --dump-intermediates leaves all of its values or none, as -o does",
          "[cli][signals]") {
  // The dump used to put each value in place as it came: a signal left the values so
  // far, and the folder the run had made for them.
  TempDir d;
  const std::string model = two_output_model(d.path());
  check_signals_leave_all_or_none(
      {onnx_run_binary(), model, "--shape", "x=20000000", "--random", "-q", "--dump-intermediates", d.file("dump")},
      d.file("dump"), d.file("stderr"));
}

TEST_CASE("a run that fails part way leaves no dumped value, and a dump folder that stood is left as it was",
          "[cli][dump]") {
  // x -> LeakyRelu -> h -> LeakyRelu -> y, and a folder standing where y.pb would go: h is
  // dumped before y fails, and used to stay.
  TempDir d;
  onnx::ModelProto m = make_model(16);
  add_symbolic_input(m, "x", TP::FLOAT, {"n"});
  add_output(m, "y", TP::FLOAT, {-1});
  add_node(m, "LeakyRelu", {"x"}, {"h"}, "a");
  add_node(m, "LeakyRelu", {"h"}, {"y"}, "b");
  const std::string model = save_model(m, d.file("chain.onnx"));
  fs::create_directories(d.file("dump/y.pb/inside"));
  const auto r = run_cli({model, "-i", "x=[-1,2]", "--no-fuse", "--dump-intermediates", d.file("dump")});
  CHECK_EXIT(r, 3);
  CHECK(r.err == "onnx-run: cannot write " + d.file("dump/y.pb") + ": it is a folder\n");
  CHECK(names_in(d.file("dump")) == std::vector<std::string>{"y.pb"});
  CHECK(names_in(d.file("dump/y.pb")) == std::vector<std::string>{"inside"});
}

// Found by black-box testing: a SIGTERM while the commit was removing the replaced files'
// links (the set already kept) left them as hidden .old files, and one in the middle of
// the undo removed a file it had just put back. ONNXRUN_TEST_COMMIT_SIGNAL=N (a test hook,
// io/output_set.cc) raises SIGTERM at the commit's Nth step: every gap of it, every door.
TEST_CASE("SIGTERM at each step of the commit: every earlier file as it was, or the whole new set, and nothing else",
          "[cli][signals]") {
  TempDir d;
  onnx::ModelProto m = make_model(16);  // a, b -> three outputs
  add_input(m, "a", TP::FLOAT, {3});
  add_input(m, "b", TP::FLOAT, {3});
  for (const char* y : {"y1", "y2", "y3"}) add_output(m, y, TP::FLOAT, {3});
  add_node(m, "LeakyRelu", {"a"}, {"y1"});
  add_node(m, "LeakyRelu", {"b"}, {"y2"});
  add_node(m, "LeakyRelu", {"a"}, {"y3"});
  const std::string model = save_model(m, d.file("m.onnx"));
  for (const std::string format : {"pb", "npy", "npz"}) {
    auto run = [&](const std::string& dir, const std::vector<std::string>& env) {
      return run_cli_env(env, {model, "-i", "a=[-1,2,-3]", "-i", "b=[4,-5,6]", "-o", dir + "/o", "--save-inputs",
                               dir + "/s", "--format", format, "-q"});
    };
    const std::string clean = d.file("fresh-" + format);
    REQUIRE_EXIT(run(clean, {}), 0);
    std::map<std::string, std::string> fresh;  // "o/output_0.pb" -> the new bytes
    for (const char* sub : {"o", "s"})
      for (const std::string& n : names_in(clean + "/" + sub))
        fresh[std::string(sub) + "/" + n] = read_file(clean + "/" + sub + "/" + n);
    int kept_earlier = 0, got_new = 0;
    for (int step = 1;; ++step) {
      INFO("--format " << format << ", SIGTERM at step " << step);
      REQUIRE(step < 20);
      const std::string dir = d.file("run");
      fs::remove_all(dir);
      for (const auto& [name, bytes] : fresh) {
        fs::create_directories(fs::path(dir + "/" + name).parent_path());
        write_text_file(dir + "/" + name, "earlier " + name);
      }
      const auto r = run(dir, {"ONNXRUN_TEST_COMMIT_SIGNAL=" + std::to_string(step)});
      for (const char* sub : {"o", "s"}) {  // exactly the set's names: no temporary, no .old link
        std::vector<std::string> want;
        for (const auto& [name, bytes] : fresh)
          if (name.rfind(std::string(sub) + "/", 0) == 0) want.push_back(name.substr(2));
        CHECK(names_in(dir + "/" + sub) == want);
      }
      size_t earlier = 0, now_new = 0;
      for (const auto& [name, bytes] : fresh) {
        const std::string got = read_file(dir + "/" + name);
        earlier += got == "earlier " + name;
        now_new += got == bytes;
      }
      if (r.exit_code == 0) {  // past the last step
        CHECK(now_new == fresh.size());
        break;
      }
      CHECK_EXIT(r, 128 + SIGTERM);
      CHECK(r.err == "onnx-run: interrupted (SIGTERM)\n");
      CHECK((earlier == fresh.size() || now_new == fresh.size()));  // never a mix
      kept_earlier += earlier == fresh.size();
      got_new += now_new == fresh.size();
    }
    CHECK(kept_earlier > 0);  // signals before the set was kept
    CHECK(got_new > 0);       // and after
  }
}

TEST_CASE("run -o: a folder in an output's place is refused first, a symlink is replaced, not followed", "[cli]") {
  TempDir d;
  const std::string model = save_model(leaky_relu_model(16), d.file("m.onnx"));
  // An output's name taken by a folder: refused before the run, nothing written.
  fs::create_directories(d.file("out/output_0.pb"));
  auto r = run_cli({model, "-i", "x=[[1,-2,3],[4,5,6]]", "-o", d.file("out")});
  CHECK_EXIT(r, 3);
  CHECK(count_lines(r.err) == 1);
  CHECK_THAT(r.err, Catch::Contains("is a folder"));
  CHECK(names_in(d.file("out")) == std::vector<std::string>{"output_0.pb"});
  fs::remove_all(d.file("out"));
  // A symlink at the name (issue 32): the entry is replaced, the link's target untouched.
  fs::create_directories(d.file("real"));
  fs::create_directories(d.file("out"));
  write_file(d.file("real/y.pb"), "old");
  fs::create_symlink(d.file("real/y.pb"), d.file("out/output_0.pb"));
  r = run_cli({model, "-i", "x=[[1,-2,3],[4,5,6]]", "-o", d.file("out")});
  REQUIRE_EXIT(r, 0);
  CHECK_FALSE(fs::is_symlink(d.file("out/output_0.pb")));
  CHECK(read_file(d.file("real/y.pb")) == "old");
  CHECK(names_in(d.file("real")) == std::vector<std::string>{"y.pb"});
}

// Found by black-box testing: -o, --save-inputs and --dump-intermediates followed a link
// that another user planted in /tmp (/tmp/out -> a folder of yours) and wrote there, which
// the report options refuse, as the kernel's protected_symlinks does.
TEST_CASE("every output folder through another user's symlink in a sticky folder is refused, nothing written",
          "[cli][sticky]") {
  TempDir d;
  fs::create_directories(d.file("victim"));
  if (!plant_foreign_symlink(d.file("tmp"), "link", d.file("victim"))) {
    WARN("not root: cannot make a symlink owned by another user; the refusal is untested here");
    return;
  }
  write_leaky_test(d.file("t"));  // a model (x[4]) and its test set
  const std::string model = d.file("t/model.onnx"), set = d.file("t/test_data_set_0");
  const std::string x = set + "/input_0.pb";
  const std::string link = d.file("tmp/link");
  const std::vector<std::vector<std::string>> doors = {
      {model, "-i", "x=[1,-2,3,4]", "-o", link},  // whole run
      {model, "-i", x, "-o", link},               // block by block
      {model, "-i", x, "-o", link, "--format", "npz"},
      {model, "-i", x, "-o", link + "/made/below"},  // a step of the path, not its end
      {model, "-i", "x=[1,-2,3,4]", "--save-inputs", link},
      {model, "-i", x, "--dump-intermediates", link},
      {model, "-d", set, "-o", link},
      {"test", d.file("t"), "--json", link + "/r.json"},  // a report, below the link
      {"test", d.file("t"), "--junit", link + "/r.xml"},
  };
  for (const auto& args : doors) {
    const ProcessResult r = run_cli(args);
    INFO(args[args.size() - 2] << " " << args.back());
    CHECK_EXIT(r, 3);
    CHECK(count_lines(r.err) == 1);
    CHECK_THAT(r.err, Catch::Contains(link + " is another user's symlink in a sticky world-writable folder"));
    CHECK(names_in(d.file("victim")).empty());
  }
  // The same link of one's own (or of the folder's owner) is followed, as the kernel does.
  REQUIRE(::lchown(link.c_str(), 0, 0) == 0);
  REQUIRE_EXIT(run_cli({model, "-i", x, "-o", link, "-q"}), 0);
  CHECK(names_in(d.file("victim")) == std::vector<std::string>{"output_0.pb"});
}

// Found by black-box testing: `-d SET -o SET` replaced the expected output it had just
// been compared with (a pass within tolerance then passes --exact too), and `-i D/output_0.pb
// -o D` its own input. Refused as a report over a file its command reads is.
TEST_CASE("run -o and --save-inputs refuse to replace a file the run reads, and write nothing", "[cli]") {
  TempDir d;
  fs::copy(testdata_dir() + "/leakyrelu_opset16_float_default", d.file("m"), fs::copy_options::recursive);
  fs::create_directory_symlink(d.file("m/test_data_set_0"), d.file("link"));
  const std::string model = d.file("m/model.onnx"), set = d.file("m/test_data_set_0");
  const std::string expected = read_file(set + "/output_0.pb"), input = read_file(set + "/input_0.pb");
  const std::vector<std::vector<std::string>> refused = {
      {"-d", set, "-o", set},                                     // the expected output
      {"-d", set, "-o", d.file("link")},                          // the same, through a link
      {"-i", set + "/output_0.pb", "-o", set},                    // an input read there
      {"-i", set + "/input_0.pb", "--save-inputs", set},          // the input saved over itself
      {"-i", set + "/input_0.pb", "--expected", set, "-o", set},  // --expected's folder
      {"-i", set + "/input_0.pb", "-o", set, "--format", "npy", "--expected", set + "/output_0.pb"}};
  for (const auto& args : refused) {
    std::vector<std::string> argv = {model};
    argv.insert(argv.end(), args.begin(), args.end());
    const auto r = run_cli(argv);
    INFO(r.err);
    if (args.back() == set + "/output_0.pb") {  // output_0.npy replaces nothing read
      CHECK_EXIT(r, 0);
      fs::remove(set + "/output_0.npy");
      continue;
    }
    CHECK_EXIT(r, 2);
    CHECK(count_lines(r.err) == 1);
    CHECK_THAT(r.err, Catch::Contains("is a file this run reads"));
    CHECK(r.out.empty());
    CHECK(names_in(set) == std::vector<std::string>{"input_0.pb", "output_0.pb"});
    CHECK(read_file(set + "/output_0.pb") == expected);
    CHECK(read_file(set + "/input_0.pb") == input);
  }
  // A dump names its files after the values: no folder the run reads from (y.pb there
  // would have replaced an expected output named so).
  for (const std::string& dump : {set, d.file("link")}) {
    const auto r = run_cli({model, "-d", set, "--dump-intermediates", dump});
    CHECK_EXIT(r, 2);
    CHECK(count_lines(r.err) == 1);
    CHECK_THAT(r.err, Catch::Contains("a file this run reads; give the dump a folder of its own"));
    CHECK(names_in(set) == std::vector<std::string>{"input_0.pb", "output_0.pb"});
  }
  // Other folders take them.
  const auto r = run_cli({model, "-d", set, "-o", d.file("out"), "--dump-intermediates", d.file("dump"), "-q"});
  CHECK_EXIT(r, 0);
  CHECK(names_in(d.file("out")) == std::vector<std::string>{"output_0.pb"});
  CHECK(names_in(d.file("dump")) == std::vector<std::string>{"values.tsv", "y.pb"});
}

// Found by black-box testing: the guards compared paths, so the set's folder reached through
// a bind mount of it (as containers have) was another folder: `-i SET/output_0.pb -o
// MOUNT` replaced the input, `test --baseline SET/b.json --json MOUNT/b.json` the baseline.
// Folders are compared by identity (device, inode). Only root
// may mount, in a mount namespace of its own (unshare -m) that leaves nothing mounted.
TEST_CASE("run -o, --save-inputs, --dump-intermediates and reports refuse a folder read through a bind mount",
          "[cli]") {
  if (::geteuid() != 0) {
    WARN("skipped: a bind mount needs root");
    return;
  }
  TempDir d;
  fs::copy(testdata_dir() + "/leakyrelu_opset16_float_default", d.file("m"), fs::copy_options::recursive);
  fs::create_directories(d.file("mnt"));
  const std::string model = d.file("m/model.onnx"), set = d.file("m/test_data_set_0"), mnt = d.file("mnt");
  // argv run with `set` mounted at `mnt`, in a mount namespace of its own.
  auto mounted = [&](const std::vector<std::string>& args) {
    std::vector<std::string> argv = {"/usr/bin/unshare",
                                     "-m",
                                     "/bin/sh",
                                     "-c",
                                     "mount --bind \"$1\" \"$2\" && shift 2 && exec \"$@\"",
                                     "sh",
                                     set,
                                     mnt};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_process(argv);
  };
  if (mounted({"/bin/true"}).exit_code != 0) {
    WARN("skipped: unshare -m or mount --bind is not allowed here");
    return;
  }
  const std::string expected = read_file(set + "/output_0.pb"), input = read_file(set + "/input_0.pb");
  const std::vector<std::vector<std::string>> refused = {{"-d", set, "-o", mnt},
                                                         {"-i", set + "/output_0.pb", "-o", mnt},
                                                         {"-i", set + "/input_0.pb", "--save-inputs", mnt},
                                                         {"-d", set, "--dump-intermediates", mnt}};
  for (const auto& args : refused) {
    std::vector<std::string> argv = {onnx_run_binary(), model};
    argv.insert(argv.end(), args.begin(), args.end());
    const auto r = mounted(argv);
    INFO(args[1] << " " << args[2] << ": " << r.err);
    CHECK_EXIT(r, 2);
    CHECK(count_lines(r.err) == 1);
    CHECK_THAT(r.err, Catch::Contains("a file this run reads"));
    CHECK(names_in(set) == std::vector<std::string>{"input_0.pb", "output_0.pb"});
    CHECK(read_file(set + "/output_0.pb") == expected);
    CHECK(read_file(set + "/input_0.pb") == input);
  }
  // A report over a file the command reads: the baseline, through the mount.
  REQUIRE_EXIT(run_cli({"test", d.file("m"), "--json", set + "/base.json", "-q"}), 0);
  const std::string baseline = read_file(set + "/base.json");
  const auto r = mounted(
      {onnx_run_binary(), "test", d.file("m"), "--baseline", set + "/base.json", "--json", mnt + "/base.json", "-q"});
  INFO(r.err);
  CHECK_EXIT(r, 2);
  CHECK_THAT(r.err, Catch::Contains("is a file this command reads; the report would replace it"));
  CHECK(read_file(set + "/base.json") == baseline);
  CHECK(names_in(mnt).empty());  // nothing was left mounted
}

// Found by black-box testing: the guard above knew the inputs and expected outputs, not
// the model nor any external-data file. A model named output_0.pb was replaced by the
// output, an input's or the model's own external data destroyed, and the dump went into
// the model's folder.
TEST_CASE("run -o, --save-inputs and --dump-intermediates refuse the model and every external-data file it reads",
          "[cli]") {
  TempDir d;
  const std::string m1 = d.file("m1"), m2 = d.file("m2"), m3 = d.file("m3");
  for (const std::string& dir : {m1, m2, m3}) fs::create_directories(dir);
  // m1: the model under names -o and --save-inputs choose.
  const onnx::ModelProto plain = leaky_relu_xy_model();
  for (const char* name : {"output_0.pb", "output_0.npy", "outputs.npz", "input_0.pb"})
    save_model(plain, m1 + "/" + name);
  // m2: an input whose data is kept in m2/output_0.pb.
  onnx::TensorProto x = float_tensor("X", {3}, {-1, 2, -3});
  make_external(&x, {{"location", "output_0.pb"}, {"length", "12"}});
  write_message(m2 + "/x.pb", x);
  write_file(m2 + "/output_0.pb", float_bytes({-1, 2, -3}));
  save_model(plain, m2 + "/m.onnx");
  // m3: the model's weight kept in m3/output_0.pb (and, for npy, m3/output_0.npy).
  for (const char* data : {"output_0.pb", "output_0.npy"}) {
    onnx::ModelProto weighted = make_model(16);
    add_input(weighted, "X", TP::FLOAT, {3});
    add_output(weighted, "Y", TP::FLOAT, {3});
    onnx::TensorProto w = float_tensor("W", {3}, {1, 2, 3});
    make_external(&w, {{"location", data}, {"length", "12"}});
    *weighted.mutable_graph()->add_initializer() = w;
    add_node(weighted, "Mul", {"X", "W"}, {"M"});
    add_node(weighted, "LeakyRelu", {"M"}, {"Y"});
    save_model(weighted, m3 + "/" + data + ".onnx");
    write_file(m3 + "/" + data, float_bytes({1, 2, 3}));
  }
  fs::create_directories(d.file("sub"));
  const std::string literal = "X=[1,1,1]";
  const std::vector<std::vector<std::string>> refused = {
      {m1 + "/output_0.pb", "-i", literal, "-o", m1},                           // the model itself
      {m1 + "/output_0.npy", "-i", literal, "-o", m1, "--format", "npy"},       // in every format
      {m1 + "/outputs.npz", "-i", literal, "-o", m1, "--format", "npz"},        //
      {m1 + "/input_0.pb", "-i", literal, "--save-inputs", m1},                 // --save-inputs
      {m2 + "/m.onnx", "-i", m2 + "/x.pb", "-o", m2},                           // an input's data
      {m3 + "/output_0.pb.onnx", "-i", literal, "-o", m3},                      // the model's weights
      {m3 + "/output_0.npy.onnx", "-i", literal, "-o", m3, "--format", "npy"},  //
      {m3 + "/output_0.pb.onnx", "-i", literal, "-o", d.file("sub/../m3")},     // through ".."
      {m2 + "/m.onnx", "-i", literal, "--dump-intermediates", m2},              // the model's folder
      {m1 + "/output_0.pb", "-i", literal, "--dump-intermediates", m1, "-o", d.file("out")}};
  std::map<std::string, std::string> before;  // every file's bytes
  std::map<std::string, std::vector<std::string>> names;
  for (const std::string& dir : {m1, m2, m3}) {
    names[dir] = names_in(dir);
    for (const std::string& n : names[dir]) before[dir + "/" + n] = read_file(dir + "/" + n);
  }
  for (const auto& argv : refused) {
    const auto r = run_cli(argv);
    INFO(argv[0] << " " << argv.back() << ": " << r.err);
    CHECK_EXIT(r, 2);
    CHECK(count_lines(r.err) == 1);
    CHECK_THAT(r.err, Catch::Contains("a file this run reads"));
    CHECK(r.out.empty());
    for (const auto& [path, bytes] : before) CHECK(read_file(path) == bytes);
    for (const auto& [dir, listed] : names) CHECK(names_in(dir) == listed);
    CHECK_FALSE(fs::exists(d.file("out")));
  }
  // The same runs into a folder of their own write, and read what they read before.
  auto r = run_cli({m3 + "/output_0.pb.onnx", "-i", literal, "-o", d.file("out"), "-q"});
  REQUIRE_EXIT(r, 0);
  CHECK(names_in(d.file("out")) == std::vector<std::string>{"output_0.pb"});
  r = run_cli({m2 + "/m.onnx", "-i", m2 + "/x.pb", "--save-inputs", d.file("saved"), "-q"});
  REQUIRE_EXIT(r, 0);
  CHECK(names_in(d.file("saved")) == std::vector<std::string>{"input_0.pb"});
}

// Issue 32: clean-up trusts no process id. A file of the old ".NAME.tmp.PID.XXXXXX"
// pattern is the user's (it was removed when its PID looked dead); a temporary of the
// current pattern goes only when no writer holds its lock, whatever the format and
// whichever file it was for.
TEST_CASE("run -o removes only temporaries nobody holds, and no file of another pattern", "[cli]") {
  TempDir d;
  const std::string model = save_model(leaky_relu_model(16), d.file("m.onnx"));
  fs::create_directories(d.file("out"));
  const auto hour = std::chrono::hours(1);
  auto debris = [&](const std::string& name) {
    write_file(d.file("out/" + name), "half a tensor");
    fs::last_write_time(d.file("out/" + name), fs::file_time_type::clock::now() - hour);
  };
  debris(".output_0.pb.tmp.999999999.abcdef");        // a user's file now: kept
  debris(".output_0.pb.onnx-run.abcdefABCDEF.tmp");   // nobody's lock: removed
  debris(".output_1.npy.onnx-run.Zz0123456789.tmp");  // another file's: removed too
  debris(".output_0.pb.onnx-run.heldheldheld.tmp");   // a live writer's: kept
  debris(".output_0.pb.onnx-run.short.tmp");          // not the pattern: kept
  const int held = ::open(d.file("out/.output_0.pb.onnx-run.heldheldheld.tmp").c_str(), O_RDWR);
  REQUIRE(held >= 0);
  REQUIRE(::flock(held, LOCK_EX) == 0);  // as the writer holds it, in any PID namespace
  auto r = run_cli({model, "-i", "x=[[1,-2,3],[4,5,6]]", "-o", d.file("out"), "--format", "npy"});
  REQUIRE_EXIT(r, 0);
  ::close(held);
  CHECK(names_in(d.file("out")) == std::vector<std::string>{".output_0.pb.onnx-run.heldheldheld.tmp",
                                                            ".output_0.pb.onnx-run.short.tmp",
                                                            ".output_0.pb.tmp.999999999.abcdef", "output_0.npy"});
  // A failing run cleans alike: its folder was opened before it failed.
  debris(".output_0.pb.onnx-run.abcdefABCDEF.tmp");
  r = run_cli({model, "-i", "x=[[1,-2,3],[4,5,6]]", "-o", d.file("out"), "-i", "x=[1,2]"});
  CHECK_EXIT(r, 3);
  CHECK_FALSE(fs::exists(d.file("out/.output_0.pb.onnx-run.abcdefABCDEF.tmp")));
}

// Issue 32: SIGKILL runs no handler. The temporaries are unnamed (O_TMPFILE) while they
// are written, so a killed run leaves nothing but in the instant of a commit, between a
// temporary's link and its rename: then one named temporary of its own
// (".NAME.onnx-run.XXXXXXXXXXXX.tmp"), which the next run into the folder removes (its
// lock is free). A sanitized build, slower, was once killed in that instant.
TEST_CASE("a run killed by SIGKILL leaves no temporary", "[cli][signals]") {
  TempDir d;
  const std::string model = two_output_model(d.path());
  for (const char* format : {"pb", "npy", "npz"}) {
    const std::string out = d.file(std::string("out_") + format);
    fs::create_directories(out);
    const pid_t pid =
        spawn({onnx_run_binary(), model, "--shape", "x=50000000", "--random", "-o", out, "--format", format, "-q"},
              d.file("stderr"));
    // Until the run has opened its files (its temporaries), or ended.
    bool seen = false;
    for (int k = 0; k < 400 && !seen; ++k) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      const std::string fds = "/proc/" + std::to_string(pid) + "/fd";
      std::error_code ec;
      for (fs::directory_iterator it(fds, ec), end; !ec && it != end; it.increment(ec))
        if (fs::read_symlink(it->path(), ec).string().rfind(out, 0) == 0) seen = true;
    }
    ::kill(pid, SIGKILL);
    int status = 0;
    REQUIRE(wait_bounded(pid, status, 120));  // a run that hangs after the signal fails here
    INFO(format << ": the run's files were " << (seen ? "" : "not ") << "seen open");
    bool debris = false;
    for (const std::string& n : names_in(out)) {
      INFO("left: " << n);
      const bool temporary = n.rfind(".output", 0) == 0 && n.find(".onnx-run.") != std::string::npos && n.size() > 4 &&
                             n.compare(n.size() - 4, 4, ".tmp") == 0;
      CHECK((n.rfind("output", 0) == 0 || temporary));
      debris = debris || temporary;
    }
    if (debris) {  // the next run removes it
      const auto again = run_cli({model, "--shape", "x=10", "--random", "-o", out, "--format", format, "-q"});
      CHECK_EXIT(again, 0);
      for (const std::string& n : names_in(out)) CHECK(n.rfind("output", 0) == 0);
    }
  }
}

TEST_CASE("onnx-run test reports: a folder is refused at once, a symlink and a device are written through", "[cli]") {
  TempDir d;
  const std::string tree = testdata_dir() + "/leakyrelu_opset16_float_alpha0.1";
  fs::create_directories(d.file("dir"));
  auto r = run_cli({"test", tree, "--junit", d.file("dir"), "-q"});
  CHECK_EXIT(r, 3);
  CHECK(r.out.empty());  // before the first test ran
  CHECK(count_lines(r.err) == 1);
  CHECK_THAT(r.err, Catch::Contains("is a folder"));
  r = run_cli({"test", tree, "--json", d.file("missing/r.json"), "-q"});
  CHECK_EXIT(r, 3);
  CHECK_THAT(r.err, Catch::Contains("does not exist"));

  write_file(d.file("old.xml"), "old");
  fs::create_symlink("old.xml", d.file("link.xml"));
  r = run_cli({"test", tree, "--junit", d.file("link.xml"), "-q"});
  CHECK_EXIT(r, 0);
  CHECK(fs::is_symlink(d.file("link.xml")));
  CHECK_THAT(read_file(d.file("old.xml")), Catch::Contains("<testsuite"));

  if (::geteuid() == 0) {
    const std::string dev = d.file("null");
    if (::mknod(dev.c_str(), S_IFCHR | 0666, ::makedev(1, 3)) == 0) {
      r = run_cli({"test", tree, "--junit", dev, "--json", dev, "-q"});
      CHECK_EXIT(r, 0);
      struct stat st {};
      REQUIRE(::lstat(dev.c_str(), &st) == 0);
      CHECK(S_ISCHR(st.st_mode));
      CHECK(st.st_rdev == ::makedev(1, 3));
    }
  }
}

TEST_CASE("a file replaced by any door keeps its mode: a 0600 report stays 0600", "[cli]") {
  TempDir d;
  const std::string tree = testdata_dir() + "/leakyrelu_opset16_float_alpha0.1";
  const std::string model = save_model(leaky_relu_model(16), d.file("m.onnx"));
  fs::create_directories(d.file("out"));
  const std::vector<std::string> files = {"r.json", "r.xml", "b.json", "merged.json", "out/output_0.pb"};
  for (const std::string& f : files) {
    write_file(d.file(f), "old");
    REQUIRE(::chmod(d.file(f).c_str(), 0600) == 0);
  }
  REQUIRE_EXIT(run_cli({"test", tree, "-q", "--json", d.file("r.json"), "--junit", d.file("r.xml"), "--update-baseline",
                        d.file("b.json")}),
               0);
  REQUIRE_EXIT(run_cli({"report", "merge", d.file("r.json"), "-q", "--json", d.file("merged.json")}), 0);
  REQUIRE_EXIT(run_cli({model, "-i", "x=[[1,-2,3],[4,5,6]]", "-o", d.file("out")}), 0);
  for (const std::string& f : files) {
    INFO(f);
    CHECK(read_file(d.file(f)) != "old");
    struct stat st {};
    REQUIRE(::stat(d.file(f).c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0600);  // it was 0644 (or the umask's): readable by all
  }
}

TEST_CASE("a failure is one stderr line even after a warning, a success prints the warning", "[cli]") {
  TempDir d;
  onnx::ModelProto m = leaky_relu_model(16);
  m.set_ir_version(99);  // newer than onnx-run knows: a warning
  const std::string model = save_model(m, d.file("m.onnx"));
  auto bad = run_cli({model, "-i", "x=[1,2,3]"});
  CHECK_EXIT(bad, 3);
  CHECK(count_lines(bad.err) == 1);
  CHECK_THAT(bad.err, Catch::StartsWith("onnx-run: "));
  CHECK_THAT(bad.err, Catch::Contains("IR version 99"));
  auto good = run_cli({model, "-i", "x=[[1,-2,3],[4,5,6]]"});
  CHECK_EXIT(good, 0);
  CHECK_THAT(good.err, Catch::Contains("warning: IR version 99 is newer"));
  // The made-up inputs notice goes the same way.
  auto made_up = run_cli({save_model(leaky_relu_model(16), d.file("ok.onnx")), "--random"});
  CHECK_EXIT(made_up, 0);
  CHECK_THAT(made_up.err, Catch::Contains("made up random inputs"));
}

TEST_CASE("a report path that would replace another report or a file the command reads is refused first", "[cli]") {
  // `test m --json m/model.onnx` used to run the test, then write the report over the
  // model; `--json r.json --junit r.json` kept only the JUnit report; `report merge
  // r.json --json r.json` replaced a shard with the merge.
  TempDir d;
  fs::copy(testdata_dir() + "/leakyrelu_opset16_float_alpha0.1", d.file("m"), fs::copy_options::recursive);
  const std::string model = d.file("m/model.onnx"), expected = d.file("m/test_data_set_0/output_0.pb");
  const std::string model_bytes = read_file(model), expected_bytes = read_file(expected);
  fs::create_symlink(model, d.file("link.json"));
  REQUIRE_EXIT(run_cli({"test", d.file("m"), "--json", d.file("shard.json"), "-q"}), 0);
  const std::string shard = read_file(d.file("shard.json"));
  const std::vector<std::vector<std::string>> refused = {
      {"test", d.file("m"), "--json", model},
      {"test", d.file("m"), "--junit", d.file("link.json")},
      {"test", d.file("m"), "--update-baseline", expected},
      {"test", d.file("m"), "--json", d.file("r.json"), "--junit", d.file("./r.json")},
      {"test", d.file("m"), "--json", d.file("r.json"), "--update-baseline", d.file("r.json")},
      {"report", "merge", d.file("shard.json"), "--json", d.file("shard.json")},
      {"report", "merge", d.file("shard.json"), "--json", d.file("r.json"), "--junit", d.file("r.json")},
      {"verify", model, d.file("m/test_data_set_0"), "--junit", expected},
      {"verify", model, d.file("m/test_data_set_0"), "--junit", d.file("link.json")},
  };
  for (const auto& args : refused) {
    const ProcessResult r = run_cli(args);
    CHECK_EXIT(r, 2);
    CHECK(r.out.empty());  // before anything ran
    CHECK(count_lines(r.err) == 1);
    CHECK(read_file(model) == model_bytes);
    CHECK(read_file(expected) == expected_bytes);
    CHECK(read_file(d.file("shard.json")) == shard);
    CHECK_FALSE(fs::exists(d.file("r.json")));
  }
  // What stays allowed: the ratchet (read before the run), reports of their own, and a
  // device that every report is written into.
  CHECK_EXIT(run_cli({"test", d.file("m"), "--baseline", d.file("shard.json"), "--update-baseline",
                      d.file("shard.json"), "-q"}),
             0);
  CHECK_EXIT(run_cli({"test", d.file("m"), "--json", "/dev/null", "--junit", "/dev/null", "-q"}), 0);
  CHECK_EXIT(run_cli({"verify", model, d.file("m/test_data_set_0"), "--junit", d.file("m/test_data_set_0/v.xml")}), 0);
  CHECK(fs::is_regular_file(d.file("m/test_data_set_0/v.xml")));
}

TEST_CASE("a dump of more values than the soft limit of open files holds them all until its commit", "[cli][dump]") {
  // Each value's temporary stays open until the dump commits: 400 values under a soft
  // limit of 256 descriptors failed ("Too many open files") until main() raised it.
  rlimit r{};
  REQUIRE(::getrlimit(RLIMIT_NOFILE, &r) == 0);
  if (r.rlim_max != RLIM_INFINITY && r.rlim_max < 1024) {
    WARN("skipped: the hard limit of open files is below 1024");
    return;
  }
  TempDir d;
  onnx::ModelProto m = make_model(16);
  add_symbolic_input(m, "x", TP::FLOAT, {"n"});
  add_output(m, "y", TP::FLOAT, {-1});
  constexpr int kNodes = 400;
  for (int k = 0; k < kNodes; ++k)
    add_node(m, "LeakyRelu", {k == 0 ? "x" : "h" + std::to_string(k)},
             {k + 1 == kNodes ? "y" : "h" + std::to_string(k + 1)}, "n" + std::to_string(k));
  const std::string model = save_model(m, d.file("long.onnx"));
  const auto r2 = run_process({"/bin/sh", "-c",
                               "ulimit -S -n 256 && exec \"$0\" \"$1\" -i 'x=[-1,2]' --no-fuse -q "
                               "--dump-intermediates \"$2\"",
                               onnx_run_binary(), model, d.file("dump")});
  CHECK_EXIT(r2, 0);
  CHECK(names_in(d.file("dump")).size() == kNodes + 1);  // every value and values.tsv
}

// Found by black-box testing: the block path holds the file of every dumped value (and
// of every -o output) open at once, and each held two descriptors, the temporary's and
// its stream's: 40 values under a hard limit of 80 failed ("Too many open files") where
// the whole path, a value at a time, passed. One descriptor per file (README "Outputs").
TEST_CASE("a dump and -o hold one descriptor per file on the block path, as on the whole path", "[cli][dump]") {
  TempDir d;
  onnx::ModelProto m = make_model(16);
  add_symbolic_input(m, "x", TP::FLOAT, {"n"});
  constexpr int kValues = 40;
  for (int k = 0; k < kValues; ++k) {
    const std::string value = "v" + std::to_string(k);
    add_node(m, "LeakyRelu", {k == 0 ? "x" : "v" + std::to_string(k - 1)}, {value}, "n" + std::to_string(k));
    add_output(m, value, TP::FLOAT, {-1});  // -o writes 40 files too
  }
  const std::string model = save_model(m, d.file("chain.onnx"));
  std::vector<float> x(1500000);  // 6 MB: the block path's
  for (size_t k = 0; k < x.size(); ++k) x[k] = k % 2 ? 0.5f * static_cast<float>(k % 7) : -1.0f;
  write_message(d.file("x.pb"), float_tensor("x", {static_cast<int64_t>(x.size())}, x));
  // onnx-run raises its soft limit to the hard one, 80: twice the files, were each two.
  auto run_limited = [&](const std::vector<std::string>& args) {
    std::vector<std::string> argv = {"/bin/sh",
                                     "-c",
                                     "ulimit -S -n 20 && ulimit -H -n 80 && exec \"$0\" \"$@\"",
                                     onnx_run_binary(),
                                     model,
                                     "-i",
                                     "x=" + d.file("x.pb"),
                                     "-q"};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_process(argv);
  };
  for (const char* option : {"-o", "--dump-intermediates"}) {
    INFO(option);
    const std::string whole = d.file(std::string("whole") + option), blocks = d.file(std::string("blocks") + option);
    REQUIRE_EXIT(run_limited({option, whole, "--exec-path", "whole"}), 0);
    CHECK_EXIT(run_limited({option, blocks}), 0);
    const std::vector<std::string> names = names_in(whole);
    CHECK(names.size() >= kValues);
    REQUIRE(names_in(blocks) == names);
    for (const std::string& n : names) CHECK(read_file(whole + "/" + n) == read_file(blocks + "/" + n));
  }
}

// Found by black-box testing: a SIGTERM after `test --json F` was in place and before
// `--junit G` left a new F beside an old G, as if they came from one run. The reports of
// a run are one output set now: the hook (ONNXRUN_TEST_COMMIT_SIGNAL=N, io/output_set.cc)
// raises SIGTERM at each step of putting them in place.
TEST_CASE("test and report merge: a SIGTERM at any step of putting the reports in place leaves all old or all new",
          "[cli][signals]") {
  TempDir d;
  fs::create_directories(d.file("t"));
  fs::copy(testdata_dir() + "/leakyrelu_opset16_float_alpha0.1", d.file("t/m"), fs::copy_options::recursive);
  REQUIRE_EXIT(run_cli({"test", d.file("t"), "--json", d.file("shard.json"), "-q"}), 0);
  const std::string dir = d.file("r");
  const std::vector<std::string> names = {"base.json", "r.json", "r.xml"};
  const std::vector<std::vector<std::string>> doors = {
      {"test", d.file("t"), "-q", "--json", dir + "/r.json", "--junit", dir + "/r.xml", "--update-baseline",
       dir + "/base.json"},
      {"report", "merge", d.file("shard.json"), "-q", "--json", dir + "/r.json", "--junit", dir + "/r.xml"}};
  for (const auto& args : doors) {
    const size_t reports = args[0] == "test" ? 3 : 2;
    int kept_earlier = 0, got_new = 0;
    for (int step = 1;; ++step) {
      INFO(args[0] << ": SIGTERM at step " << step);
      REQUIRE(step < 20);
      fs::remove_all(dir);
      fs::create_directories(dir);
      for (const std::string& n : names) write_text_file(dir + "/" + n, "earlier");
      const auto r = run_cli_env({"ONNXRUN_TEST_COMMIT_SIGNAL=" + std::to_string(step)}, args);
      CHECK(names_in(dir) == names);  // no temporary, no .old link
      size_t earlier = 0;
      for (const std::string& n : names) earlier += read_file(dir + "/" + n) == "earlier";
      const size_t now_new = names.size() - earlier;  // base.json stays "earlier" for report merge
      if (r.exit_code == 0) {
        CHECK(now_new == reports);
        break;
      }
      CHECK_EXIT(r, 128 + SIGTERM);
      CHECK((now_new == 0 || now_new == reports));  // never a new report beside an old one
      kept_earlier += now_new == 0;
      got_new += now_new == reports;
    }
    CHECK(kept_earlier > 0);
    CHECK(got_new > 0);
  }
}
