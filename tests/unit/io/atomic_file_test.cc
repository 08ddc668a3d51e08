// AtomicFile (io/atomic_file.h), the object write_text_file writes through: several open at
// once, writes at offsets, whether a target can seek, and the temporary removed when a
// file is abandoned. What each kind of target gets is tested in output_files_test.cc.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <thread>

#include "core/error.h"
#include "io/atomic_file.h"
#include "io/output_set.h"
#include "support/model_builder.h"
#include "support/paths.h"

using namespace onnxrun;
using namespace onnxrun::test;
namespace fs = std::filesystem;

TEST_CASE("AtomicFile: several open at once, each appearing only on its commit", "[output-files]") {
  TempDir d;
  {
    AtomicFile a(d.file("a.bin"));
    AtomicFile b(d.file("b.bin"));
    CHECK_FALSE(a.in_place());
    a.write("hello", 5);
    write_bytes_at(b.fd(), "world", 5, 3, b.path());
    write_bytes_at(b.fd(), "abc", 3, 0, b.path());
    // Two temporaries: unnamed (O_TMPFILE), or named as io/owned_temp.h says.
    for (const std::string& n : names_in(d.path())) CHECK(n.find(".onnx-run.") != std::string::npos);
    b.commit();
    CHECK(read_file(d.file("b.bin")) == "abcworld");
    CHECK_THROWS_AS(b.commit(), Error);
  }  // a never committed: its temporary goes
  CHECK(names_in(d.path()) == std::vector<std::string>{"b.bin"});
}

TEST_CASE("AtomicFile hands its temporary to its target's OutputSet", "[output-files]") {
  TempDir d;
  OutputSet tx;
  {
    AtomicFile a(tx.target(d.file("a.bin")));
    a.write("x", 1);
    a.commit();
  }
  CHECK_FALSE(fs::exists(d.file("a.bin")));
  CHECK(tx.commit() == std::vector<std::string>{d.file("a.bin")});
  CHECK(read_file(d.file("a.bin")) == "x");
}

TEST_CASE("AtomicFile: a FIFO is written in place", "[output-files]") {
  TempDir d;
  REQUIRE(::mkfifo(d.file("p").c_str(), 0600) == 0);
  std::string got;
  std::thread reader([&] { got = read_file(d.file("p")); });
  {
    AtomicFile f(d.file("p"));
    CHECK(f.in_place());
    f.write("piped", 5);
    f.commit();
  }
  reader.join();
  CHECK(got == "piped");
  CHECK(names_in(d.path()) == std::vector<std::string>{"p"});
}
