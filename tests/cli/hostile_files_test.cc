// Issue 32, the third round of hostile input, through the real binary: names onnx-run
// chooses inside its folders replace what stands there, never follow it; non-regular
// inputs (devices, FIFOs) are refused at once in every door, never read without bound
// or waited on; --max-memory counts declared sizes before inflating; discovery is linear
// with a depth limit; the smaller points (a merge's "sets", 100 GB .npz, EACCES, two
// engines' shard variables).
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "support/check_exit.h"
#include "support/model_builder.h"
#include "support/paths.h"
#include "support/process.h"

using namespace onnxrun::test;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

size_t count_lines(const std::string& s) { return static_cast<size_t>(std::count(s.begin(), s.end(), '\n')); }

// onnx-run under `timeout`: a refusal that regresses into a hang or an unbounded read
// fails the test (exit 124) instead of stalling the suite.
ProcessResult run_bounded(const std::vector<std::string>& args, int seconds = 30) {
  std::vector<std::string> argv = {"/usr/bin/timeout", "-s", "KILL", std::to_string(seconds), onnx_run_binary()};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_process(argv);
}

// A model folder m/ with model.onnx and test_data_set_0 (input_0.pb, output_0.pb).
std::string model_with_set(const TempDir& d) {
  const std::string m = d.file("m");
  fs::create_directories(m + "/test_data_set_0");
  save_model(leaky_relu_model(16), m + "/model.onnx");
  write_message(m + "/test_data_set_0/input_0.pb", float_tensor("x", {2, 3}, {1, -2, 3, 4, 5, 6}));
  write_message(m + "/test_data_set_0/output_0.pb", float_tensor("y", {2, 3}, {1, -0.02f, 3, 4, 5, 6}));
  return m;
}

void check_refusal(const ProcessResult& r, const std::string& what) {
  CHECK_EXIT(r, 3);
  CHECK(count_lines(r.err) == 1);
  CHECK_THAT(r.err, Contains("onnx-run: ") && Contains(what));
}

}  // namespace

TEST_CASE("a symlink at a name onnx-run chooses is replaced, never written through", "[cli][hostile]") {
  TempDir d;
  const std::string model = save_model(leaky_relu_model(16), d.file("m.onnx"));
  write_file(d.file("secret"), "secret");
  for (const char* dir : {"out", "saved", "dump"}) fs::create_directories(d.file(dir));
  fs::create_symlink(d.file("secret"), d.file("out/output_0.pb"));
  fs::create_symlink(d.file("secret"), d.file("saved/input_0.pb"));
  fs::create_symlink(d.file("secret"), d.file("dump/y.pb"));
  fs::create_symlink(d.file("secret"), d.file("dump/values.tsv"));
  const auto r = run_bounded({model, "-i", "x=[[1,-2,3],[4,5,6]]", "-o", d.file("out"), "--save-inputs",
                              d.file("saved"), "--dump-intermediates", d.file("dump"), "-q"});
  REQUIRE_EXIT(r, 0);
  CHECK(read_file(d.file("secret")) == "secret");
  for (const char* f : {"out/output_0.pb", "saved/input_0.pb", "dump/y.pb", "dump/values.tsv"}) {
    INFO(f);
    CHECK(fs::is_regular_file(fs::symlink_status(d.file(f))));
  }
}

TEST_CASE("a FIFO at an output's name is replaced, not waited on", "[cli][hostile]") {
  TempDir d;
  const std::string model = save_model(leaky_relu_model(16), d.file("m.onnx"));
  fs::create_directories(d.file("out"));
  REQUIRE(::mkfifo(d.file("out/output_0.npy").c_str(), 0600) == 0);
  const auto r = run_bounded({model, "-i", "x=[[1,-2,3],[4,5,6]]", "-o", d.file("out"), "--format", "npy"});
  REQUIRE_EXIT(r, 0);
  CHECK(fs::is_regular_file(fs::symlink_status(d.file("out/output_0.npy"))));
}

TEST_CASE("a live run's output survives another run into the same folder from another PID namespace",
          "[cli][hostile]") {
  if (::geteuid() != 0 || run_process({"/usr/bin/unshare", "--pid", "--fork", "true"}).exit_code != 0) {
    WARN("skipped: needs root and unshare --pid");
    return;
  }
  TempDir d;
  onnx::ModelProto m = make_model(16);
  add_symbolic_input(m, "x", onnx::TensorProto::FLOAT, {"n"});
  add_output(m, "y1", onnx::TensorProto::FLOAT, {-1});
  add_output(m, "y2", onnx::TensorProto::FLOAT, {-1});
  add_node(m, "LeakyRelu", {"x"}, {"y1"}, "a");
  add_node(m, "LeakyRelu", {"x"}, {"y2"}, "b");
  const std::string model = save_model(m, d.file("two.onnx"));
  const std::vector<std::string> big = {"/usr/bin/timeout", "-s",         "KILL",     "60", onnx_run_binary(), model,
                                        "--shape",          "x=30000000", "--random", "-o", d.file("ns"),      "-q"};
  // The big run in the background; the small one, in a new PID namespace, while it writes.
  std::vector<std::string> both = {"/bin/sh", "-c", ""};
  std::string cmd;
  for (const std::string& a : big) cmd += "'" + a + "' ";
  cmd += "& sleep 0.3; unshare --pid --fork '" + onnx_run_binary() + "' '" + model + "' --shape x=10 --random -o '" +
         d.file("ns") + "' -q; wait $!";
  both[2] = cmd;
  const auto r = run_process(both);
  CHECK_EXIT(r, 0);
  CHECK(r.err.empty());
  CHECK(names_in(d.file("ns")) == std::vector<std::string>{"output_0.pb", "output_1.pb"});
}

// The same, without timing: the temporaries of a live writer (this process) that a run in
// a new PID namespace cannot see. The former clean-up took a temporary whose PID looked
// dead for debris; now a temporary is a locked file of onnx-run's own pattern, and a file
// of any other pattern is never touched.
TEST_CASE("a live writer's temporary is not debris to a run in another PID namespace", "[cli][hostile]") {
  if (::geteuid() != 0 || run_process({"/usr/bin/unshare", "--pid", "--fork", "true"}).exit_code != 0) {
    WARN("skipped: needs root and unshare --pid");
    return;
  }
  TempDir d;
  const std::string model = model_with_set(d) + "/model.onnx";
  fs::create_directories(d.file("out"));
  const std::string old_pattern = d.file("out/.output_0.pb.tmp." + std::to_string(::getpid()) + ".abcdef");
  const std::string held = d.file("out/.output_0.pb.onnx-run.abcdefghijkl.tmp");
  std::ofstream(old_pattern) << "a live writer's";
  std::ofstream(held) << "a live writer's";
  const int fd = ::open(held.c_str(), O_RDONLY | O_CLOEXEC);
  REQUIRE(fd >= 0);
  REQUIRE(::flock(fd, LOCK_EX) == 0);
  const auto r = run_process({"/usr/bin/unshare", "--pid", "--fork", onnx_run_binary(), model, "-i",
                              "x=[[1,-2,3],[4,5,6]]", "-o", d.file("out"), "-q"});
  ::close(fd);
  CHECK_EXIT(r, 0);
  CHECK(fs::exists(old_pattern));
  CHECK(fs::exists(held));
  CHECK(fs::exists(d.file("out/output_0.pb")));
}

// info shows an initializer's type, shape and size, never its values: it reads none of
// its data (finding 5: 5.3 GiB for a 1.9 GB model). Under a memory limit smaller than
// the initializer, info describes the model, while a run of it is refused.
TEST_CASE("info reads no tensor data: a large initializer is described within a small --max-memory", "[cli][hostile]") {
  TempDir d;
  const int64_t n = 1 << 18;  // 1 MiB of floats
  onnx::ModelProto m = leaky_relu_model(16);
  std::vector<float> values(static_cast<size_t>(n), -1.5f);
  *m.mutable_graph()->add_initializer() = float_tensor("w", {n}, values);
  *m.mutable_graph()->add_initializer() = float_tensor("alpha", {}, {0.5f});
  const std::string model = save_model(m, d.file("big.onnx"));
  const auto text = run_bounded({"info", model, "--max-memory", "256K"});
  CHECK_EXIT(text, 0);
  CHECK_THAT(text.out, Contains("w  float[262144]  1.0 MiB") && Contains("alpha  float[]  4 B"));
  const auto json = run_bounded({"info", model, "--json", "--max-memory", "256K"});
  CHECK_EXIT(json, 0);
  CHECK_THAT(json.out, Contains("\"bytes\": 1048576"));
  check_refusal(run_bounded({model, "-i", "x=[[1,-2,3],[4,5,6]]", "--max-memory", "256K"}), "--max-memory");
  // A damaged file is refused by info as before, with protobuf's word.
  std::string bytes = serialize(m);
  bytes.resize(bytes.size() / 2);
  write_file(d.file("cut.onnx"), bytes);
  check_refusal(run_bounded({"info", d.file("cut.onnx")}), "not a valid ONNX model");
}

// Memory the system will not give (here an address-space limit far below --max-memory's
// default): the refusal names the file being read, not only "out of memory".
TEST_CASE("out of memory while reading a file names the file", "[cli][hostile]") {
#if defined(__SANITIZE_ADDRESS__)
  WARN("skipped: AddressSanitizer reserves terabytes of address space, so no binary of this build runs under --as");
  return;
#endif
  TempDir d;
  const std::string report = d.file("big.json");
  std::ofstream(report).close();
  fs::resize_file(report, 150'000'000);  // sparse: nothing is written, the read's buffer fails
  const auto r = run_process({"/usr/bin/prlimit", "--as=120000000", onnx_run_binary(), "report", "merge", report});
  check_refusal(r, report + ": out of memory while reading it");
}

TEST_CASE("devices are refused at once in every door, whatever --max-memory says", "[cli][hostile]") {
  TempDir d;
  const std::string m = model_with_set(d);
  const std::string model = m + "/model.onnx";
  check_refusal(run_bounded({model, "-i", "x=/dev/zero"}), "/dev/zero: is not a regular file (a character device)");
  check_refusal(run_bounded({model, "-i", "x=[[1,-2,3],[4,5,6]]", "--expected", "/dev/full", "--max-memory", "1G"}),
                "/dev/full: is not a regular file");
  fs::create_directories(d.file("b"));
  fs::create_symlink("/dev/zero", d.file("b/y.npy"));
  check_refusal(run_bounded({"compare", m + "/test_data_set_0", d.file("b")}), "is not a regular file");
}

TEST_CASE("FIFOs are refused at once in every door, never waited on", "[cli][hostile]") {
  TempDir d;
  const std::string m = model_with_set(d);
  // compare: a test set's output_1.pb
  fs::create_directories(d.file("a"));
  fs::create_directories(d.file("b"));
  fs::copy_file(m + "/test_data_set_0/output_0.pb", d.file("a/output_0.pb"));
  fs::copy_file(m + "/test_data_set_0/output_0.pb", d.file("a/output_1.pb"));
  fs::copy_file(m + "/test_data_set_0/output_0.pb", d.file("b/output_0.pb"));
  REQUIRE(::mkfifo(d.file("b/output_1.pb").c_str(), 0600) == 0);
  check_refusal(run_bounded({"compare", d.file("a"), d.file("b")}), "output_1.pb: is not a regular file (a FIFO)");
  // --expected DIR: the FIFO is refused, as in compare, not skipped.
  check_refusal(run_bounded({m + "/model.onnx", "-i", "x=[[1,-2,3],[4,5,6]]", "--expected", d.file("b")}),
                "output_1.pb: is not a regular file (a FIFO)");
  // a test set's output_1.pb: named as a FIFO, not counted as an output too many
  REQUIRE(::mkfifo((m + "/test_data_set_0/output_1.pb").c_str(), 0600) == 0);
  check_refusal(run_bounded({m + "/model.onnx"}), "output_1.pb: is not a regular file (a FIFO)");
  fs::remove(m + "/test_data_set_0/output_1.pb");
  // a test set's input, by `onnx-run MODEL` and by `onnx-run test`
  fs::remove(m + "/test_data_set_0/input_0.pb");
  REQUIRE(::mkfifo((m + "/test_data_set_0/input_0.pb").c_str(), 0600) == 0);
  check_refusal(run_bounded({m + "/model.onnx"}), "input_0.pb: is not a regular file (a FIFO)");
  const auto t = run_bounded({"test", m});
  CHECK(t.exit_code != 0);
  CHECK(t.exit_code != 137);
  CHECK_THAT(t.out + t.err, Contains("is not a regular file (a FIFO)"));
}

// The light layout (NAME.onnx beside NAME_input_K.pb / NAME_output_K.pb) is a door that
// reads a set: what stands at such a name and is no regular file is refused as in
// test_data_set_N/, never skipped (the run passed, or called a FIFO input_0 "missing").
TEST_CASE("the light layout refuses a FIFO, folder or dangling link at a data file's name", "[cli][hostile]") {
  TempDir d;
  const std::string model = save_model(leaky_relu_model(16), d.file("light.onnx"));
  write_message(d.file("light_input_0.pb"), float_tensor("x", {2, 3}, {1, -2, 3, 4, 5, 6}));
  write_message(d.file("light_output_0.pb"), float_tensor("y", {2, 3}, {1, -0.02f, 3, 4, 5, 6}));
  REQUIRE_EXIT(run_bounded({model, "-q"}), 0);
  // `onnx-run MODEL` (exit 3, as for test_data_set_0/) and `onnx-run test` (the test errs),
  // given the model or its folder.
  auto refused_in_both_doors = [&](const std::string& what) {
    INFO(what);
    check_refusal(run_bounded({model, "-q"}), what);
    for (const std::string& path : {model, d.path()}) {
      const auto t = run_bounded({"test", path});
      CHECK_EXIT(t, 1);
      CHECK_THAT(t.out + t.err, Contains(what));
    }
  };
  for (const char* name : {"light_input_1.pb", "light_output_1.pb"}) {
    REQUIRE(::mkfifo(d.file(name).c_str(), 0600) == 0);
    refused_in_both_doors(std::string(name) + ": is not a regular file (a FIFO)");
    fs::remove(d.file(name));
  }
  fs::create_directories(d.file("light_input_1.pb"));
  refused_in_both_doors("light_input_1.pb: is a folder, not a file");
  fs::remove(d.file("light_input_1.pb"));
  fs::create_symlink(d.file("gone"), d.file("light_output_1.pb"));
  refused_in_both_doors("light_output_1.pb: No such file or directory");
  fs::remove(d.file("light_output_1.pb"));
  // The only input a FIFO: named as one, not reported missing.
  fs::remove(d.file("light_input_0.pb"));
  REQUIRE(::mkfifo(d.file("light_input_0.pb").c_str(), 0600) == 0);
  refused_in_both_doors("light_input_0.pb: is not a regular file (a FIFO)");
}

TEST_CASE("an .npz is refused by its declared size before it is inflated", "[cli][hostile]") {
  TempDir d;
  // 256 MiB of float32 zeros, deflated to a few hundred KiB.
  const std::string npz = d.file("bomb.npz");
  const std::string py =
      "import zipfile,sys\n"
      "n=64*1024*1024\n"
      "h=\"{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }\" % n\n"
      "h=h+' '*(64-(10+len(h)+1)%64)+'\\n'\n"
      "with zipfile.ZipFile(sys.argv[1],'w',zipfile.ZIP_DEFLATED) as z:\n"
      "  with z.open('y.npy','w',force_zip64=True) as f:\n"
      "    f.write(b'\\x93NUMPY\\x01\\x00'+len(h).to_bytes(2,'little')+h.encode())\n"
      "    for k in range(n*4//(1<<20)): f.write(bytes(1<<20))\n";
  const auto made = run_process({"/usr/bin/python3", "-c", py, npz});
  REQUIRE_EXIT(made, 0);
  REQUIRE(fs::file_size(npz) < (size_t{4} << 20));
  // --expected holds the expected outputs whole: refused, the member named by the check
  // made before inflating (after it, the tensor's allocation would have refused it,
  // naming no member).
  const auto r = run_bounded(
      {save_model(leaky_relu_model(16), d.file("m.onnx")), "--random", "--expected", npz, "--max-memory", "64M"});
  CHECK_EXIT(r, 3);
  CHECK_THAT(r.err, Contains("bomb.npz: y"));
  CHECK_THAT(r.err, Contains("needs"));
  // compare reads both sides a block at a time: the bomb is inflated twice, each a block
  // at a time, within the limit, and agrees with itself.
  const auto c = run_bounded({"compare", npz, npz, "--max-memory", "64M", "-q"});
  CHECK_EXIT(c, 0);
  // A 100 GB .npz (sparse): the memory limit refuses it, not protobuf's 2 GiB.
  const std::string huge = d.file("huge.npz");
  {
    std::FILE* f = std::fopen(huge.c_str(), "wb");
    REQUIRE(f);
    std::fclose(f);
    fs::resize_file(huge, uint64_t{100} << 30);
  }
  const auto h = run_bounded({"compare", huge, npz, "--max-memory", "1G"});
  CHECK_EXIT(h, 3);
  CHECK_THAT(h.err, !Contains("protobuf") && Contains("huge.npz"));
}

TEST_CASE("discovery is linear in depth and stops at its documented limit", "[cli][hostile]") {
  TempDir d;
  std::string deep = d.file("t");
  for (int k = 0; k < 250; ++k) deep += "/a";
  fs::create_directories(deep);
  const auto t0 = std::chrono::steady_clock::now();
  auto r = run_bounded({"test", d.file("t")});
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
  CHECK_EXIT(r, 2);
  CHECK_THAT(r.err, Contains("no tests found"));
  CHECK(ms < 10000);
  // Deeper, the folder at depth 257 is a test that errs (discovery_gaps_test.cc).
  for (int k = 0; k < 20; ++k) deep += "/a";
  fs::create_directories(deep);
  r = run_bounded({"test", d.file("t")});
  CHECK_EXIT(r, 1);
  CHECK(count_lines(r.err) == 1);
  CHECK_THAT(r.out, Contains("deeper than 256 levels below"));
}

TEST_CASE("report merge refuses a count it cannot hold, naming it", "[cli][hostile]") {
  TempDir d;
  const std::string m = model_with_set(d);
  const std::string json = d.file("r.json");
  REQUIRE_EXIT(run_cli({"test", m, "-q", "--json", json}), 0);
  std::string text = read_file(json);
  const std::string edited = std::regex_replace(text, std::regex("\"sets\": *1"), "\"sets\": 1e26");
  REQUIRE(edited != text);
  write_file(json, edited);
  const auto r = run_cli({"report", "merge", json});
  CHECK_EXIT(r, 3);
  CHECK(count_lines(r.err) == 1);
  CHECK_THAT(r.err, Contains("\"sets\"") && Contains("1e+26"));
}

TEST_CASE("--expected in a folder that may not be searched says so, not 'no such file'", "[cli][hostile]") {
  if (::geteuid() != 0 ||
      run_process({"/usr/bin/setpriv", "--reuid", "nobody", "--regid", "nogroup", "--clear-groups", "true"})
              .exit_code != 0) {
    WARN("skipped: needs root and setpriv");
    return;
  }
  TempDir d;
  const std::string m = model_with_set(d);
  fs::permissions(d.path(), fs::perms::all);  // the way in, for nobody
  fs::permissions(m, fs::perms::all);
  fs::permissions(m + "/model.onnx", fs::perms::all);
  fs::permissions(m + "/test_data_set_0", fs::perms::owner_all);  // nobody may not search it
  const auto r =
      run_process({"/usr/bin/setpriv", "--reuid", "nobody", "--regid", "nogroup", "--clear-groups", onnx_run_binary(),
                   m + "/model.onnx", "-i", "x=[[1,-2,3],[4,5,6]]", "--expected", m + "/test_data_set_0/output_0.pb"});
  CHECK_EXIT(r, 3);
  CHECK_THAT(r.err, Contains("ermission denied") && !Contains("no such file"));
}

TEST_CASE("--dump-intermediates into the -o or --save-inputs folder is refused, nothing written", "[cli][hostile]") {
  // A value the graph calls output_0 was dumped as output_0.pb, then -o put output 0 (a
  // value of another name) in its place: values.tsv still named it output_0, and verify
  // on that folder reported a difference that was not there.
  TempDir d;
  onnx::ModelProto m = make_model(16);
  add_input(m, "x", onnx::TensorProto::FLOAT, {2, 3});
  add_output(m, "y", onnx::TensorProto::FLOAT, {2, 3});
  add_float_attr(*add_node(m, "LeakyRelu", {"x"}, {"output_0"}), "alpha", 0.1f);
  add_float_attr(*add_node(m, "LeakyRelu", {"output_0"}, {"y"}), "alpha", 0.1f);
  const std::string model = save_model(m, d.file("m.onnx"));
  fs::create_directories(d.file("out"));
  fs::create_directory_symlink(d.file("out"), d.file("link"));
  const std::vector<std::vector<std::string>> doors = {
      {"-o", d.file("out"), "--dump-intermediates", d.file("out")},
      {"-o", d.file("out"), "--dump-intermediates", d.file("link/")},
      {"--save-inputs", d.file("out/."), "--dump-intermediates", d.file("out")},
      {"-o", d.file("new"), "--dump-intermediates", d.file("x/../new")},
  };
  for (const auto& door : doors) {
    std::vector<std::string> args = {model, "-i", "x=[[1,-2,3],[4,5,6]]", "-q"};
    args.insert(args.end(), door.begin(), door.end());
    const auto r = run_bounded(args);
    CHECK_EXIT(r, 2);
    CHECK(count_lines(r.err) == 1);
    CHECK_THAT(r.err, Contains("--dump-intermediates"));
    CHECK(names_in(d.file("out")).empty());
    CHECK_FALSE(fs::exists(d.file("new")));
  }
  // Folders of their own: all three written.
  const auto r = run_bounded({model, "-i", "x=[[1,-2,3],[4,5,6]]", "-q", "-o", d.file("out"), "--save-inputs",
                              d.file("out"), "--dump-intermediates", d.file("dump")});
  REQUIRE_EXIT(r, 0);
  CHECK(names_in(d.file("out")) == std::vector<std::string>{"input_0.pb", "output_0.pb"});
  CHECK(names_in(d.file("dump")) == std::vector<std::string>{"output_0.pb", "values.tsv", "y.pb"});
  CHECK_EXIT(run_bounded({"verify", model, d.file("dump"), "-q"}), 0);
}
