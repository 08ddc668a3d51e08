// io/page_matched_write.h: a large write whose data sits a few bytes off the file
// position's page offset goes through the staging buffer; either way every byte lands
// where it belongs, through pwrite, write and AtomicFile::write's stdio stream alike.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "core/error.h"
#include "io/atomic_file.h"
#include "io/page_matched_write.h"
#include "support/model_builder.h"
#include "support/paths.h"

using namespace onnxrun;
using namespace onnxrun::test;

namespace {

// n bytes that differ from one position to the next (period 251, a prime), from `seed`.
std::string pattern(size_t n, unsigned seed) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>((i * 7 + seed) % 251);
  return s;
}

struct PageAlignedBytes {
  explicit PageAlignedBytes(size_t n) : p(static_cast<char*>(std::aligned_alloc(4096, (n + 8191) / 4096 * 4096))) {}
  ~PageAlignedBytes() { std::free(p); }
  char* p;
};

}  // namespace

TEST_CASE("a short distance is one under 64 bytes either way, modulo a page, but not zero", "[page-matched]") {
  alignas(4096) static char page[8192];
  CHECK(is_short_distance_copy(page, 15));         // a .pb's data after its 15-byte header
  CHECK(is_short_distance_copy(page, 4096 + 63));  // the same a page later
  CHECK(is_short_distance_copy(page + 16, 15));    // the destination just behind the data
  CHECK_FALSE(is_short_distance_copy(page, 0));
  CHECK_FALSE(is_short_distance_copy(page + 15, 15));  // matched: the staging buffer's case
  CHECK_FALSE(is_short_distance_copy(page, 128));      // a .npy's data after its header
  CHECK_FALSE(is_short_distance_copy(page, 64));
}

TEST_CASE("every byte of a large write lands at its position, staged or not", "[page-matched]") {
  TempDir d;
  // Over two staging pieces and not a whole number of them, at offsets that are staged
  // (15, 4095) and that are not (0, 128), through pwrite and through write.
  const size_t n = (size_t{600} << 10) + 7;
  PageAlignedBytes data(n);
  const std::string bytes = pattern(n, 3);
  bytes.copy(data.p, n);
  for (uint64_t at : {0u, 15u, 128u, 4095u})
    for (bool sequential : {false, true}) {
      INFO("offset " << at << (sequential ? ", write" : ", pwrite"));
      const std::string path = d.file("out.bin");
      const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      REQUIRE(fd >= 0);
      const std::string head(at, 'h');
      REQUIRE(::write(fd, head.data(), head.size()) == static_cast<ssize_t>(head.size()));
      write_page_matched(fd, data.p, n, at, sequential, path);
      write_page_matched(fd, "tail", 4, at + n, sequential, path);  // after it, where it ended
      ::close(fd);
      CHECK(read_file(path) == head + bytes + "tail");
    }
}

TEST_CASE("AtomicFile::write mixes its stream's buffer and large writes in order", "[page-matched]") {
  TempDir d;
  const std::string path = d.file("t.pb");
  const size_t n = size_t{1} << 20;
  PageAlignedBytes data(n);
  const std::string bytes = pattern(n, 5);
  bytes.copy(data.p, n);
  AtomicFile f(path);
  f.write("header-15-bytes", 15);  // buffered
  f.write(data.p, n);              // past the buffer, staged
  f.write("mid", 3);               // buffered again
  f.write(data.p, n);              // now at a distance of 18: staged
  f.write("end", 3);
  f.commit();
  CHECK(read_file(path) == "header-15-bytes" + bytes + "mid" + bytes + "end");
}

TEST_CASE("AtomicFile::write into a FIFO: a large write has no position, and all of it arrives", "[page-matched]") {
  TempDir d;
  REQUIRE(::mkfifo(d.file("p").c_str(), 0600) == 0);
  const size_t n = (size_t{1} << 20) + 3;
  const std::string bytes = pattern(n, 9);
  std::string got;
  std::thread reader([&] { got = read_file(d.file("p")); });
  {
    AtomicFile f(d.file("p"));
    REQUIRE(f.in_place());
    f.write("abc", 3);
    f.write(bytes.data(), n);
    f.commit();
  }
  reader.join();
  CHECK(got == "abc" + bytes);
}

TEST_CASE("a failed large write is an I/O error naming the file", "[page-matched]") {
  const int fd = ::open("/dev/null", O_RDONLY);
  REQUIRE(fd >= 0);
  const size_t n = size_t{1} << 20;
  PageAlignedBytes data(n);
  std::fill_n(data.p, n, 'x');
  for (bool sequential : {false, true}) {
    try {
      write_page_matched(fd, data.p, n, 15, sequential, "the/file");
      FAIL("no error");
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::kIo);
      CHECK_THAT(e.what(), Catch::StartsWith("cannot write the/file: "));
    }
  }
  ::close(fd);
}
