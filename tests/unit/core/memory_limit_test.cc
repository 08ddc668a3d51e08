// The memory limit: sizes parse as documented, and a tensor that does not fit is
// refused before it is allocated, with its type, shape and the sizes in the message.
#include <catch2/catch.hpp>

#include <limits>

#include "core/error.h"
#include "core/memory_limit.h"
#include "core/tensor.h"
#include "io/file_bytes.h"
#include "support/model_builder.h"
#include "support/paths.h"

using namespace onnxrun;

TEST_CASE("parse_memory_size reads bytes and binary suffixes and refuses the rest", "[memory-limit]") {
  CHECK(parse_memory_size("1000") == 1000);
  CHECK(parse_memory_size("512M") == size_t{512} << 20);
  CHECK(parse_memory_size("4G") == size_t{4} << 30);
  CHECK(parse_memory_size("4g") == size_t{4} << 30);
  CHECK(parse_memory_size("1.5GiB") == size_t{3} << 29);
  CHECK(parse_memory_size("2KB") == 2048);
  CHECK(parse_memory_size("1T") == size_t{1} << 40);
  // Exact to the byte, whatever the size (through a double, 2^64 - 1 became 2^64 and was
  // refused, 2^53 + 1 became 2^53, and 73.99999999999999999 became 74).
  CHECK(parse_memory_size("18446744073709551615") == std::numeric_limits<size_t>::max());
  CHECK(parse_memory_size("9007199254740993") == (size_t{1} << 53) + 1);
  CHECK(parse_memory_size("73.99999999999999999") == 73);
  CHECK(parse_memory_size("73.999999999999999999999999") == 73);
  CHECK(parse_memory_size("18446744073709551615.5") == std::numeric_limits<size_t>::max());
  CHECK(parse_memory_size("0.5K") == 512);
  CHECK(parse_memory_size(".5K") == 512);
  CHECK(parse_memory_size("5.K") == 5120);
  CHECK(parse_memory_size("16383.999999999999999999T") == (size_t{16383} << 40) + (size_t{1} << 40) - 1);
  for (const char* bad : {"", "0", "G", "-1", "12Q", "1.2.3", "4 G", "abc", "99999999999999999999999",
                          "18446744073709551616", "16EiB", "16777216T", ".", "0.4"}) {
    INFO(bad);
    try {
      parse_memory_size(bad);
      FAIL("accepted");
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::kUsage);
    }
  }
}

TEST_CASE("a tensor over the memory limit is refused before allocation, naming the sizes", "[memory-limit]") {
  const size_t saved = memory_limit();
  const size_t before = memory_in_use();
  set_memory_limit(before + 1000);
  try {
    Tensor t(DType::kFloat, {1000});
    set_memory_limit(saved);
    FAIL("allocated");
  } catch (const Error& e) {
    set_memory_limit(saved);
    CHECK(e.kind() == ErrorKind::kSecurity);
    CHECK_THAT(e.what(), Catch::Contains("float[1000] needs 3.91 KiB (4000 bytes)"));
    CHECK_THAT(e.what(), Catch::Contains("memory limit"));
  }
  CHECK(memory_in_use() == before);
  // What is in use is said only when some is: "0 bytes of the memory limit of 1 bytes is
  // in use" read as nonsense.
  set_memory_limit(before + 1);
  const std::string limit = format_bytes(before + 1);
  CHECK_THROWS_WITH(Tensor(DType::kFloat, {2}), "float[2] needs 8 bytes, more than the memory limit of " + limit +
                                                    " leaves" +
                                                    (before == 0 ? "" : " with " + format_bytes(before) + " in use") +
                                                    " (raise it with --max-memory)");
  set_memory_limit(saved);
  {
    Tensor t(DType::kFloat, {1000});
    CHECK(memory_in_use() == before + 4000);
  }
  CHECK(memory_in_use() == before);
  CHECK(default_memory_limit() > 0);
}

TEST_CASE("a file read whole counts against the limit while it is held", "[memory-limit]") {
  onnxrun::test::TempDir dir;
  onnxrun::test::write_file(dir.file("f.bin"), std::string(5000, 'x'));
  const size_t before = memory_in_use();
  {
    FileBytes bytes = FileBytes::read(dir.file("f.bin"));
    CHECK(bytes.size() == 5000);
    CHECK(memory_in_use() == before + 5000);
    FileBytes moved = std::move(bytes);
    CHECK(memory_in_use() == before + 5000);
  }
  CHECK(memory_in_use() == before);
  const size_t saved = memory_limit();
  set_memory_limit(before + 4999);
  CHECK_THROWS_WITH(FileBytes::read(dir.file("f.bin")), Catch::Contains("f.bin needs 4.88 KiB"));
  set_memory_limit(saved);
  CHECK(memory_in_use() == before);
}
