// Issue 32: temporaries that are provably the run's own (io/owned_temp.h), and names in a
// folder onnx-run fills that are replaced, never followed (io/output_folder.h), even when
// a symlink is swapped in while the file is written.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include "core/error.h"
#include "io/atomic_file.h"
#include "io/output_folder.h"
#include "io/owned_temp.h"
#include "io/temp_names.h"
#include "support/model_builder.h"
#include "support/paths.h"

using namespace onnxrun;
using namespace onnxrun::test;
namespace fs = std::filesystem;

namespace {

// Named temporaries for the length of a scope, as where O_TMPFILE is lacking.
struct NamedTemporaries {
  NamedTemporaries() { set_unnamed_temporaries_allowed(false); }
  ~NamedTemporaries() { set_unnamed_temporaries_allowed(true); }
};

}  // namespace

TEST_CASE("a symlink swapped in while a file is written redirects nothing", "[output-files][issue32]") {
  TempDir d;
  write_file(d.file("secret"), "secret");
  fs::create_directories(d.file("out"));
  const auto folder = OutputFolder::make(d.file("out"));
  AtomicFile f(WriteTarget(folder, "output_0.pb"));
  f.write("tensor", 6);
  // Planted after the open, before the rename: at the name, and in the folder's place.
  fs::create_symlink(d.file("secret"), d.file("out/output_0.pb"));
  fs::rename(d.file("out"), d.file("moved"));
  fs::create_directories(d.file("elsewhere"));
  fs::create_symlink(d.file("elsewhere"), d.file("out"));
  f.commit();
  CHECK(read_file(d.file("secret")) == "secret");
  CHECK(names_in(d.file("elsewhere")).empty());
  CHECK_FALSE(fs::is_symlink(d.file("moved/output_0.pb")));
  CHECK(read_file(d.file("moved/output_0.pb")) == "tensor");
}

TEST_CASE("a named temporary is locked by its writer: clean-up leaves it, then takes it once free",
          "[output-files][issue32]") {
  NamedTemporaries named;
  TempDir d;
  const auto folder = OutputFolder::make(d.path());
  {
    AtomicFile f(WriteTarget(folder, "y.pb"));
    const std::vector<std::string> names = names_in(d.path());
    REQUIRE(names.size() == 1);
    CHECK(names[0].rfind(".y.pb.onnx-run.", 0) == 0);
    remove_stale_temporaries(folder->fd());  // as another run would, in any PID namespace
    CHECK(names_in(d.path()) == names);
    // A copy of the temporary's name nobody holds: debris, removed.
    write_file(d.file(".y.pb.onnx-run.abcdefabcdef.tmp"), "debris");
    remove_stale_temporaries(folder->fd(), "y.pb");
    CHECK(names_in(d.path()) == names);
    f.commit();
  }
  CHECK(names_in(d.path()) == std::vector<std::string>{"y.pb"});
}

TEST_CASE("clean-up removes only its own pattern, and only files whose lock it takes", "[output-files][issue32]") {
  TempDir d;
  for (const char* n : {".a.pb.tmp.999999999.abcdef", ".a.pb.onnx-run.abcdefabcdef.tmp",
                        ".a.pb.onnx-run.HELDHELDHELD.tmp", ".a.pb.onnx-run.abc.tmp", "a.pb.onnx-run.abcdefabcdef.tmp"})
    write_file(d.file(n), "x");
  fs::create_symlink(d.file("a.pb"), d.file(".b.pb.onnx-run.abcdefabcdef.tmp"));  // a link: not followed, kept
  const int held = ::open(d.file(".a.pb.onnx-run.HELDHELDHELD.tmp").c_str(), O_RDWR | O_CLOEXEC);
  REQUIRE(held >= 0);
  REQUIRE(::flock(held, LOCK_EX) == 0);
  remove_stale_temporaries(OutputFolder::open_existing(d.path())->fd());
  ::close(held);
  CHECK(names_in(d.path()) == std::vector<std::string>{".a.pb.onnx-run.HELDHELDHELD.tmp", ".a.pb.onnx-run.abc.tmp",
                                                       ".a.pb.tmp.999999999.abcdef", ".b.pb.onnx-run.abcdefabcdef.tmp",
                                                       "a.pb.onnx-run.abcdefabcdef.tmp"});
}

TEST_CASE("a file whose name is near NAME_MAX is written, its temporary's name cut to fit", "[output-files][issue32]") {
  // The temporary is ".NAME.onnx-run.XXXXXXXXXXXX.tmp", 27 bytes more than NAME: for a
  // report named with 229 to 255 bytes it used to be too long, and the write failed
  // ("File name too long") where the file itself was fine.
  const std::string name = std::string(250, 'r') + ".json";
  for (bool unnamed : {true, false}) {
    INFO("unnamed temporaries " << unnamed);
    set_unnamed_temporaries_allowed(unnamed);
    TempDir d;
    write_text_file_now(d.file(name), "report");  // a path the user named
    const auto folder = OutputFolder::make(d.path());
    write_text_file_now(WriteTarget(folder, name), "output");  // a name onnx-run chose
    set_unnamed_temporaries_allowed(true);
    CHECK(names_in(d.path()) == std::vector<std::string>{name});
    CHECK(read_file(d.file(name)) == "output");
    // The cut name is still the file's own to clean up after.
    write_file(d.file(temp_name_for(name)), "debris");
    remove_stale_temporaries(folder->fd(), name);
    CHECK(names_in(d.path()) == std::vector<std::string>{name});
  }
}
