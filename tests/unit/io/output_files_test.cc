// Result files (io/atomic_file.h, io/output_set.h, io/streamed_outputs.h): what each kind of
// target gets (regular file or nothing: replaced whole; symlink: its target replaced;
// FIFO, device: written in place; folder: refused), and the output set that holds a
// run's outputs back until commit.
#include <catch2/catch.hpp>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/error.h"
#include "io/atomic_file.h"
#include "io/cleanup_signals.h"
#include "io/output_set.h"
#include "io/owned_temp.h"
#include "io/streamed_outputs.h"
#include "support/model_builder.h"
#include "support/model_tree.h"
#include "support/paths.h"

using namespace onnxrun;
using namespace onnxrun::test;
namespace fs = std::filesystem;

namespace {

void write_text(const WriteTarget& target, const std::string& text) { write_text_file(target, text); }

// -o's files (or --save-inputs', kInputs) into `set`, as a whole run writes them: each
// tensor one block.
std::vector<std::string> write_output_files(OutputSet& set, const std::string& dir,
                                            const std::vector<std::string>& names, const std::vector<Tensor>& tensors,
                                            TensorFormat format = TensorFormat::kPb,
                                            TensorRole role = TensorRole::kOutputs) {
  std::vector<ValueSpec> values;
  for (size_t k = 0; k < tensors.size(); ++k) values.push_back({names[k], tensors[k].dtype(), tensors[k].shape()});
  StreamedOutputs files(set, format, dir, values, role);
  for (size_t k = 0; k < tensors.size(); ++k) files.append(k, tensors[k].raw(), tensors[k].nbytes());
  return files.finish();
}

bool has_temporaries(const std::string& dir) {
  for (const std::string& n : names_in(dir))
    if (n.find(".onnx-run.") != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("atomic write: a new file, and a regular file replaced", "[output-files]") {
  TempDir d;
  write_text(d.file("a.txt"), "one");
  CHECK(read_file(d.file("a.txt")) == "one");
  write_text(d.file("a.txt"), "two");
  CHECK(read_file(d.file("a.txt")) == "two");
  CHECK(names_in(d.path()) == std::vector<std::string>{"a.txt"});
}

namespace {
mode_t mode_of(const std::string& path) {
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  return st.st_mode & 07777;
}
}  // namespace

TEST_CASE("atomic write keeps the mode of the file it replaces, as sed -i does", "[output-files]") {
  TempDir d;
  const mode_t mask = ::umask(022);
  write_text(d.file("new.txt"), "new");
  CHECK(mode_of(d.file("new.txt")) == 0644);  // a new file: the usual permissions
  for (const mode_t mode : {0600, 0640, 0755, 0444}) {
    write_file(d.file("r.txt"), "old");
    REQUIRE(::chmod(d.file("r.txt").c_str(), mode) == 0);
    write_text(d.file("r.txt"), "replaced");  // a 0600 report became 0644
    CHECK(read_file(d.file("r.txt")) == "replaced");
    CHECK(mode_of(d.file("r.txt")) == mode);
  }
  // Through a symlink: the target's mode; the link stays a link.
  REQUIRE(::chmod(d.file("r.txt").c_str(), 0600) == 0);
  fs::create_symlink("r.txt", d.file("link.txt"));
  write_text(d.file("link.txt"), "linked");
  CHECK(mode_of(d.file("r.txt")) == 0600);
  // A file of an OutputSet, put in place on the set's commit, too.
  {
    OutputSet tx;
    write_text(tx.target(d.file("r.txt")), "in a set");
    tx.commit();
  }
  CHECK(read_file(d.file("r.txt")) == "in a set");
  CHECK(mode_of(d.file("r.txt")) == 0600);
  ::umask(mask);
}

TEST_CASE("atomic write through a symlink replaces its target and keeps the link", "[output-files]") {
  TempDir d;
  fs::create_directories(d.file("real"));
  write_file(d.file("real/target.txt"), "old");
  fs::create_symlink("real/target.txt", d.file("link.txt"));
  write_text(d.file("link.txt"), "new");
  CHECK(fs::is_symlink(d.file("link.txt")));
  CHECK(read_file(d.file("real/target.txt")) == "new");
  CHECK(names_in(d.file("real")) == std::vector<std::string>{"target.txt"});
  // A dangling link: its target is created.
  fs::create_symlink("real/fresh.txt", d.file("dangling.txt"));
  write_text(d.file("dangling.txt"), "made");
  CHECK(fs::is_symlink(d.file("dangling.txt")));
  CHECK(read_file(d.file("real/fresh.txt")) == "made");
}

TEST_CASE("atomic write to a FIFO writes in place: a reader gets the bytes, nothing is renamed", "[output-files]") {
  TempDir d;
  const std::string fifo = d.file("pipe");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::string got;
  std::thread reader([&] {
    const int fd = ::open(fifo.c_str(), O_RDONLY);
    char buf[4096];
    for (ssize_t n; fd >= 0 && (n = ::read(fd, buf, sizeof buf)) > 0;) got.append(buf, static_cast<size_t>(n));
    if (fd >= 0) ::close(fd);
  });
  {
    OutputSet tx;  // in place cannot wait: written at once, even for a file of a set
    write_text(tx.target(fifo), std::string(100000, 'x'));
    CHECK(tx.pending().empty());
  }
  reader.join();
  CHECK(got == std::string(100000, 'x'));
  struct stat st {};
  REQUIRE(::lstat(fifo.c_str(), &st) == 0);
  CHECK(S_ISFIFO(st.st_mode));
  CHECK(names_in(d.path()) == std::vector<std::string>{"pipe"});
}

TEST_CASE("atomic write to a character device writes in place (a scratch copy of /dev/null)", "[output-files]") {
  if (::geteuid() != 0) {
    WARN("not root: mknod needs root, skipped");
    return;
  }
  TempDir d;
  const std::string dev = d.file("null");
  if (::mknod(dev.c_str(), S_IFCHR | 0666, ::makedev(1, 3)) != 0) {
    WARN("mknod refused here (a container without CAP_MKNOD?): skipped");
    return;
  }
  write_text(dev, "discarded");
  struct stat st {};
  REQUIRE(::lstat(dev.c_str(), &st) == 0);
  CHECK(S_ISCHR(st.st_mode));
  CHECK(st.st_rdev == ::makedev(1, 3));
  CHECK(names_in(d.path()) == std::vector<std::string>{"null"});
  check_writable_target(dev);  // fine
}

TEST_CASE("atomic write to a folder is an error and writes nothing", "[output-files]") {
  TempDir d;
  fs::create_directories(d.file("dir"));
  CHECK_THROWS_WITH(write_text(d.file("dir"), "x"), Catch::Contains("is a folder"));
  CHECK(names_in(d.path()) == std::vector<std::string>{"dir"});
  CHECK(names_in(d.file("dir")).empty());
}

TEST_CASE("check_writable_target", "[output-files]") {
  TempDir d;
  fs::create_directories(d.file("dir"));
  CHECK_NOTHROW(check_writable_target(d.file("new.json")));
  CHECK_THROWS_WITH(check_writable_target(d.file("dir")), Catch::Contains("is a folder"));
  CHECK_THROWS_WITH(check_writable_target(d.file("missing/r.json")), Catch::Contains("does not exist"));
  write_file(d.file("plain"), "");
  CHECK_THROWS_WITH(check_writable_target(d.file("plain/r.json")), Catch::Contains("not a folder"));
  try {
    check_writable_target(d.file("dir"));
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::kIo);
  }
  if (::geteuid() != 0) {  // root writes anywhere
    fs::create_directories(d.file("ro"));
    fs::permissions(d.file("ro"), fs::perms::owner_read | fs::perms::owner_exec);
    CHECK_THROWS_WITH(check_writable_target(d.file("ro/r.json")), Catch::Contains("not writable"));
    fs::permissions(d.file("ro"), fs::perms::owner_all);
  }
}

// Where O_TMPFILE works a temporary has no name to see: these cases ask for named ones,
// as where it is lacking, to see where they go.
struct NamedTemporaries {
  NamedTemporaries() { set_unnamed_temporaries_allowed(false); }
  ~NamedTemporaries() { set_unnamed_temporaries_allowed(true); }
};

TEST_CASE("output set: nothing appears before commit, commit renames in order", "[output-files]") {
  NamedTemporaries named;
  TempDir d;
  write_file(d.file("b.txt"), "old b");
  std::vector<std::string> done;
  {
    OutputSet tx;
    OutputSet other;  // sets are independent: each run owns its own
    write_text(tx.target(d.file("a.txt")), "A");
    write_text(tx.target(d.file("b.txt")), "B");
    write_text(other.target(d.file("other.txt")), "not committed");
    write_text_file_now(tx.target(d.file("immediate.txt")), "now");  // put in place whatever the set
    write_text(d.file("no-set.txt"), "now too");                     // a target without a set: in place at once
    CHECK(!fs::exists(d.file("a.txt")));
    CHECK(read_file(d.file("b.txt")) == "old b");
    CHECK(read_file(d.file("immediate.txt")) == "now");
    CHECK(read_file(d.file("no-set.txt")) == "now too");
    CHECK(has_temporaries(d.path()));
    CHECK(tx.pending() == std::vector<std::string>{d.file("a.txt"), d.file("b.txt")});
    CHECK(other.pending() == std::vector<std::string>{d.file("other.txt")});
    done = tx.commit();
    CHECK_THROWS_WITH(write_text(tx.target(d.file("late.txt")), "late"), Catch::Contains("committed"));
    CHECK(!fs::exists(d.file("late.txt")));
  }
  CHECK(!fs::exists(d.file("other.txt")));  // dropped without a commit
  CHECK(done == std::vector<std::string>{d.file("a.txt"), d.file("b.txt")});
  CHECK(read_file(d.file("a.txt")) == "A");
  CHECK(read_file(d.file("b.txt")) == "B");
  CHECK(!has_temporaries(d.path()));
  const auto perms = fs::status(d.file("a.txt")).permissions();
  CHECK((perms & fs::perms::owner_read) != fs::perms::none);
}

TEST_CASE("output set: destroyed without commit, it removes every temporary", "[output-files]") {
  NamedTemporaries named;
  TempDir d;
  write_file(d.file("kept.txt"), "old");
  {
    OutputSet tx;
    write_text(tx.target(d.file("a.txt")), "A");
    write_text(tx.target(d.file("kept.txt")), "new");
    std::vector<std::string> names = {"y"};
    std::vector<Tensor> tensors = {Tensor(DType::kFloat, Shape{2})};
    write_output_files(tx, d.file("out"), names, tensors);
    CHECK(has_temporaries(d.path()));
    CHECK(has_temporaries(d.file("out")));
  }
  CHECK(names_in(d.path()) == std::vector<std::string>{"kept.txt"});  // nor the folder made for them
  CHECK(read_file(d.file("kept.txt")) == "old");
}

TEST_CASE("output set: folders made for its files go without a commit, when empty", "[output-files]") {
  TempDir d;
  fs::create_directories(d.file("there"));
  const std::vector<std::string> names = {"y"};
  const std::vector<Tensor> tensors = {Tensor(DType::kFloat, Shape{2})};
  {
    OutputSet tx;
    write_output_files(tx, d.file("there"), names, tensors);         // was there: stays
    write_output_files(tx, d.file("made/deeper/"), names, tensors);  // two levels made, trailing slash
    write_output_files(tx, d.file("shared"), names, tensors);
    write_file(d.file("shared/user.txt"), "not the run's");  // someone else's file: the folder stays
  }
  CHECK(names_in(d.path()) == std::vector<std::string>{"shared", "there"});
  CHECK(names_in(d.file("shared")) == std::vector<std::string>{"user.txt"});
  CHECK(names_in(d.file("there")).empty());
  {
    OutputSet tx;
    write_output_files(tx, d.file("made/deeper"), names, tensors);
    tx.commit();  // a run that succeeded keeps what it made
  }
  CHECK(names_in(d.file("made/deeper")) == std::vector<std::string>{"output_0.pb"});
}

TEST_CASE("output set: a folder reached through '..' or '.' is taken back with every folder made on the way",
          "[output-files]") {
  // `-o a/b/../c` makes a, a/b and a/c; only a and a/c used to be counted as made, so a
  // failed run left a/b (and so a) behind.
  TempDir d;
  const std::vector<std::string> names = {"y"};
  const std::vector<Tensor> tensors = {Tensor(DType::kFloat, Shape{2})};
  {
    OutputSet tx;
    write_output_files(tx, d.file("a/b/../c"), names, tensors);
    write_output_files(tx, d.file("e/./f/../../g/h"), names, tensors);
    CHECK(fs::is_directory(d.file("a/b")));
  }
  CHECK(names_in(d.path()).empty());
}

TEST_CASE("output set: a failed commit leaves nothing of the run", "[output-files]") {
  TempDir d;
  OutputSet tx;
  write_text(tx.target(d.file("a.txt")), "A");
  write_text(tx.target(d.file("b.txt")), "B");
  write_text(tx.target(d.file("c.txt")), "C");
  // b.txt becomes a non-empty folder before the commit: its rename fails.
  fs::create_directories(d.file("b.txt/inside"));
  try {
    tx.commit();
    FAIL("commit should have failed");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::kIo);
    CHECK_THAT(e.what(), Catch::Contains("b.txt"));
  }
  CHECK(names_in(d.path()) == std::vector<std::string>{"b.txt"});  // the folder, not ours
}

// Found by black-box testing: a.txt was renamed over an earlier a.txt, then taken back
// when b.txt failed, and the earlier file was lost.
TEST_CASE("output set: a failed commit puts back the files it replaced", "[output-files]") {
  TempDir d;
  write_text_file(d.file("a.txt"), "earlier A");
  write_text_file(d.file("c.txt"), "earlier C");
  {
    OutputSet tx;
    write_text(tx.target(d.file("a.txt")), "A");
    write_text(tx.target(d.file("c.txt")), "C");
    write_text(tx.target(d.file("b.txt")), "B");
    fs::create_directories(d.file("b.txt/inside"));  // b.txt's rename fails, after a.txt's and c.txt's
    CHECK_THROWS_AS(tx.commit(), Error);
  }
  CHECK(names_in(d.path()) == std::vector<std::string>{"a.txt", "b.txt", "c.txt"});  // no link left behind
  CHECK(read_file(d.file("a.txt")) == "earlier A");
  CHECK(read_file(d.file("c.txt")) == "earlier C");
  // A commit that succeeds replaces them, and leaves no link of the earlier files.
  fs::remove_all(d.file("b.txt"));
  {
    OutputSet tx;
    write_text(tx.target(d.file("a.txt")), "A");
    write_text(tx.target(d.file("c.txt")), "C");
    tx.commit();
  }
  CHECK(names_in(d.path()) == std::vector<std::string>{"a.txt", "c.txt"});
  CHECK(read_file(d.file("a.txt")) == "A");
  CHECK(read_file(d.file("c.txt")) == "C");
}

// A signal at each step of a commit that fails at its last file and takes back the
// others (io/output_set.cc's test hook raises it): the files it replaced stand as they
// were, whether the signal came before, during or after the undo. The undo renamed a file
// back while the handler still took it for the run's, and removed it.
TEST_CASE("output set: a signal at any step of a failed commit leaves the replaced files as they were",
          "[output-files][signals]") {
  for (int step = 1;; ++step) {
    TempDir d;
    write_text_file(d.file("a.txt"), "earlier A");
    write_text_file(d.file("c.txt"), "earlier C");
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {                                     // the child commits; the handler exits it 143 at `step`
      const int quiet = ::open("/dev/null", O_WRONLY);  // the handler's "interrupted" line
      ::dup2(quiet, STDERR_FILENO);
      install_cleanup_signal_handlers();
      ::setenv("ONNXRUN_TEST_COMMIT_SIGNAL", std::to_string(step).c_str(), 1);
      try {
        OutputSet tx;
        write_text(tx.target(d.file("a.txt")), "A");
        write_text(tx.target(d.file("c.txt")), "C");
        write_text(tx.target(d.file("b.txt")), "B");
        fs::create_directories(d.file("b.txt/inside"));  // b.txt's rename fails, after a.txt's and c.txt's
        tx.commit();
      } catch (const Error&) {
        ::_exit(1);
      }
      ::_exit(0);
    }
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    REQUIRE(WIFEXITED(status));
    INFO("signal at step " << step);
    CHECK(names_in(d.path()) == std::vector<std::string>{"a.txt", "b.txt", "c.txt"});  // no temporary, no link
    CHECK(read_file(d.file("a.txt")) == "earlier A");
    CHECK(read_file(d.file("c.txt")) == "earlier C");
    if (WEXITSTATUS(status) == 1) break;  // past the last step: the commit failed, no signal came
    CHECK(WEXITSTATUS(status) == 128 + SIGTERM);
    REQUIRE(step < 10);
  }
}

TEST_CASE("-o's and --save-inputs' files in every format go into the set, in place on its commit", "[output-files]") {
  TempDir d;
  std::vector<std::string> names = {"y", "z"};
  std::vector<Tensor> tensors = {Tensor(DType::kFloat, Shape{2}), Tensor(DType::kFloat, Shape{3})};
  OutputSet set;
  const auto written = write_output_files(set, d.file("out"), names, tensors);
  CHECK(written == std::vector<std::string>{d.file("out/output_0.pb"), d.file("out/output_1.pb")});
  CHECK(write_output_files(set, d.file("out"), names, tensors, TensorFormat::kNpy) ==
        std::vector<std::string>{d.file("out/output_0.npy"), d.file("out/output_1.npy")});
  CHECK(write_output_files(set, d.file("in"), names, tensors, TensorFormat::kNpz, TensorRole::kInputs) ==
        std::vector<std::string>{d.file("in/inputs.npz")});
  CHECK(names_in(d.file("out")).size() <= 4);  // temporaries only (named or not), nothing in place
  CHECK(!fs::exists(d.file("out/output_0.pb")));
  set.commit();
  CHECK(names_in(d.file("out")) ==
        std::vector<std::string>{"output_0.npy", "output_0.pb", "output_1.npy", "output_1.pb"});
  CHECK(names_in(d.file("in")) == std::vector<std::string>{"inputs.npz"});
}

TEST_CASE("a report path through another user's symlink in a sticky world-writable folder is refused",
          "[output-files]") {
  // Report symlinks are followed by hand, past the kernel's protected_symlinks: a link
  // planted in /tmp by another user (/tmp/r.json -> a file of yours) used to make
  // `--json /tmp/r.json` replace that file.
  TempDir d;
  write_file(d.file("victim"), "mine");
  if (!plant_foreign_symlink(d.file("tmp"), "r.json", d.file("victim"))) {
    WARN("not root: cannot make a symlink owned by another user; the refusal is untested here");
    return;
  }
  CHECK_THROWS_AS(write_text(d.file("tmp/r.json"), "report"), Error);
  CHECK_THROWS_AS(check_writable_target(d.file("tmp/r.json")), Error);
  CHECK(read_file(d.file("victim")) == "mine");
  CHECK(fs::is_symlink(d.file("tmp/r.json")));
  // The same link of our own, or in a folder that is not world-writable, is followed.
  REQUIRE(::lchown(d.file("tmp/r.json").c_str(), 0, 0) == 0);
  write_text(d.file("tmp/r.json"), "report");
  CHECK(read_file(d.file("victim")) == "report");
  REQUIRE(::chmod(d.file("tmp").c_str(), 0755) == 0);
  REQUIRE(::lchown(d.file("tmp/r.json").c_str(), 12345, 12345) == 0);
  write_text(d.file("tmp/r.json"), "again");
  CHECK(read_file(d.file("victim")) == "again");
}

TEST_CASE("an output folder reached through another user's symlink in a sticky folder is refused at any step",
          "[output-files]") {
  TempDir d;
  fs::create_directories(d.file("victim"));
  if (!plant_foreign_symlink(d.file("tmp"), "foreign", "../victim")) {  // relative, as planted links often are
    WARN("not root: cannot make a symlink owned by another user; the refusal is untested here");
    return;
  }
  fs::create_symlink(d.file("tmp/foreign"), d.file("mine"));  // one's own link, to it: a chain
  for (const std::string& dir : {d.file("tmp/foreign"), d.file("tmp/foreign/a/b"), d.file("mine"), d.file("mine/a"),
                                 d.file("tmp/../tmp/foreign")}) {
    CAPTURE(dir);
    CHECK_THROWS_WITH(OutputFolder::make(dir),
                      Catch::Contains("cannot write into " + dir + ": ") &&
                          Catch::Contains("foreign is another user's symlink in a sticky world-writable folder"));
    CHECK_THROWS_AS(OutputFolder::open_existing(dir), Error);
    CHECK_THROWS_AS(write_text(dir + "/r.json", "report"), Error);
    CHECK(names_in(d.file("victim")).empty());
  }
  // Links of one's own, in folders that are not sticky, and the folder itself are followed.
  REQUIRE(::lchown(d.file("tmp/foreign").c_str(), 0, 0) == 0);
  CHECK_NOTHROW(refuse_foreign_symlinks(d.file("mine/a/b")));
  CHECK_NOTHROW(OutputFolder::make(d.file("mine/a")));
  CHECK(names_in(d.file("victim")) == std::vector<std::string>{"a"});
  CHECK_NOTHROW(refuse_foreign_symlinks(d.file("tmp")));
}
