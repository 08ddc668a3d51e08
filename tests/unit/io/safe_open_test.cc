// open_beneath: every way out of the model's folder is refused, by openat2 and by the
// component walk alike (the fallback is tested directly, whatever this kernel offers).
#include <catch2/catch.hpp>

#include <filesystem>

#include <unistd.h>

#include "core/error.h"
#include "io/safe_open.h"
#include "support/model_builder.h"
#include "support/paths.h"

using namespace onnxrun;
using namespace onnxrun::test;
namespace fs = std::filesystem;

namespace {

// root/secret.bin, root/outside/data.bin, and the model folder root/m holding
// data.bin, inner/ok.bin, link.bin -> ../secret.bin, self.bin -> data.bin,
// sub -> ../outside, hard.bin (a hard link to ../secret.bin).
struct Tree {
  TempDir root;
  std::string m = root.file("m");
  Tree() {
    fs::create_directories(m + "/inner");
    fs::create_directories(root.file("outside"));
    write_file(root.file("secret.bin"), "secret");
    write_file(root.file("outside/data.bin"), "outside");
    write_file(m + "/data.bin", "data");
    write_file(m + "/inner/ok.bin", "ok");
    fs::create_symlink("../secret.bin", m + "/link.bin");
    fs::create_symlink("data.bin", m + "/self.bin");
    fs::create_directory_symlink("../outside", m + "/sub");
    fs::create_hard_link(root.file("secret.bin"), m + "/hard.bin");
  }
};

void require_refused(const std::string& base, const std::string& rel, SafeOpenMethod method, ErrorKind kind,
                     const std::string& words) {
  INFO("location '" << rel << "'");
  try {
    open_beneath(base, rel, method);
    FAIL("opened");
  } catch (const Error& e) {
    CHECK(e.kind() == kind);
    CHECK_THAT(e.what(), Catch::Contains(words));
  }
}

}  // namespace

TEST_CASE("open_beneath opens plain files beneath the folder and refuses every escape", "[safe-open]") {
  Tree t;
  for (SafeOpenMethod method : {SafeOpenMethod::kAuto, SafeOpenMethod::kWalkOnly}) {
    INFO((method == SafeOpenMethod::kAuto ? "openat2 (or its fallback)" : "component walk"));
    for (const char* ok : {"data.bin", "inner/ok.bin", "./inner//ok.bin"}) {
      UniqueFd fd = open_beneath(t.m, ok, method);
      char c = 0;
      REQUIRE(::read(fd.get(), &c, 1) == 1);
    }
    require_refused(t.m, "../secret.bin", method, ErrorKind::kSecurity, "escapes");
    require_refused(t.m, "inner/../data.bin", method, ErrorKind::kSecurity, "escapes");
    require_refused(t.m, t.root.file("secret.bin"), method, ErrorKind::kSecurity, "absolute");
    require_refused(t.m, "link.bin", method, ErrorKind::kSecurity, "symbolic link");
    require_refused(t.m, "self.bin", method, ErrorKind::kSecurity, "symbolic link");
    require_refused(t.m, "sub/data.bin", method, ErrorKind::kSecurity, "symbolic link");
    require_refused(t.m, "hard.bin", method, ErrorKind::kSecurity, "hard link");
    require_refused(t.m, "inner", method, ErrorKind::kSecurity, "not a regular file");
    require_refused(t.m, "", method, ErrorKind::kSecurity, "empty");
    require_refused(t.m, ".", method, ErrorKind::kSecurity, "names no file");
    require_refused(t.m, std::string("data.bin\0/../x", 14), method, ErrorKind::kSecurity, "NUL");
    require_refused(t.m, "missing.bin", method, ErrorKind::kIo, "cannot open");
    require_refused(t.m, "data.bin/x", method, ErrorKind::kIo, "cannot open");
  }
}
