// --dump-intermediates (io/value_dump.h): values given block by block get the same file
// names, bytes and values.tsv lines, in the same order, as values given whole.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <random>

#include "core/error.h"
#include "io/output_set.h"
#include "io/streamed_outputs.h"
#include "io/value_dump.h"
#include "support/model_builder.h"
#include "support/paths.h"
#include "support/tensors.h"

using namespace onnxrun;
using namespace onnxrun::test;
namespace fs = std::filesystem;

namespace {}  // namespace

TEST_CASE("values dumped block by block are the files and index write() gives", "[io][stream-out]") {
  // Names that clash once made safe ("a/b" and "a_b"), a 0-d and an empty value.
  const std::vector<std::pair<std::string, Tensor>> values = {
      {"a/b", patterned(DType::kFloat, {100}, 1)},  {"a_b", patterned(DType::kFloat16, {3, 5}, 2)},
      {"", patterned(DType::kDouble, {}, 3)},       {".hidden", patterned(DType::kFloat, {0, 4}, 4)},
      {"a/b", patterned(DType::kBFloat16, {9}, 5)}, {"big", patterned(DType::kFloat, {3 << 18}, 6)},
  };
  for (TensorFormat format : {TensorFormat::kPb, TensorFormat::kNpy, TensorFormat::kNpz}) {
    INFO("format " << static_cast<int>(format));
    TempDir d;
    ValueDump whole(d.file("whole"), format);
    for (const auto& [name, t] : values) whole.write(name, t);
    CHECK(whole.finish() == values.size());

    // Streamed, all begun before any ends (as a block run produces them), ended out of
    // order, one value given whole in between: the index keeps the order they began.
    ValueDump streamed(d.file("streamed"), format);
    std::vector<size_t> ids;
    for (size_t k = 0; k < 3; ++k)
      ids.push_back(streamed.begin_value(values[k].first, values[k].second.dtype(), values[k].second.shape()));
    streamed.write(values[3].first, values[3].second);
    for (size_t k = 4; k < values.size(); ++k)
      ids.push_back(streamed.begin_value(values[k].first, values[k].second.dtype(), values[k].second.shape()));
    for (size_t at = 0, block = 4093; at < (size_t{3} << 20); at += block)
      for (size_t j = 0; j < ids.size(); ++j) {
        const Tensor& t = values[j < 3 ? j : j + 1].second;
        if (at < t.nbytes())
          streamed.append(ids[j], static_cast<const char*>(t.raw()) + at, std::min(block, t.nbytes() - at));
      }
    for (size_t j = ids.size(); j-- > 0;) streamed.end_value(ids[j]);
    CHECK(streamed.finish() == values.size());

    REQUIRE(names_in(d.file("streamed")) == names_in(d.file("whole")));
    for (const std::string& f : names_in(d.file("whole"))) {
      INFO(f);
      CHECK(read_file(d.file("streamed/" + f)) == read_file(d.file("whole/" + f)));
    }
  }
}

TEST_CASE("a dumped value begun and not ended leaves no file and no index line", "[io][stream-out]") {
  TempDir d;
  const Tensor t = patterned(DType::kFloat, {10}, 1);
  {
    OutputSet tx;  // a run's output set: the dump keeps to its own, committed by finish()
    ValueDump dump(d.path(), TensorFormat::kPb);
    const size_t x = dump.begin_value("x", DType::kFloat, {10});
    const size_t y = dump.begin_value("y", DType::kFloat, {10});
    dump.append(y, t.raw(), 40);
    dump.end_value(y);
    dump.append(x, t.raw(), 12);
    CHECK_THROWS_AS(dump.append(x, t.raw(), 40), Error);  // past its size
    CHECK_THROWS_AS(dump.end_value(x), Error);            // short
    CHECK_THROWS_AS(dump.end_value(x), Error);            // no longer open
    const size_t z = dump.begin_value("z", DType::kFloat, {10});
    dump.append(z, t.raw(), 4);
    CHECK(dump.finish() == 1);
  }
  CHECK(names_in(d.path()) == std::vector<std::string>{"values.tsv", "y.pb"});
  CHECK(read_file(d.file("values.tsv")) == "y.pb\ty\n");
}

TEST_CASE("values.tsv keeps a value name whole whatever characters it holds", "[io][dump]") {
  // A newline in a name used to start a line of its own ("a line without a tab"): the
  // dump could not be read back by verify or compare.
  TempDir d;
  const std::vector<std::string> names = {"a\nb", "c\td", "e\\f", "g\rh", "\\n", "plain", "trail\\"};
  {
    ValueDump dump(d.path(), TensorFormat::kPb);
    for (size_t k = 0; k < names.size(); ++k) dump.write(names[k], patterned(DType::kFloat, {2}, k));
    CHECK(dump.finish() == names.size());
  }
  const auto entries = read_values_tsv(d.file("values.tsv"));
  REQUIRE(entries.size() == names.size());
  for (size_t k = 0; k < names.size(); ++k) {
    CHECK(entries[k].first == file_name_for_value(names[k]) + ".pb");
    CHECK(entries[k].second == names[k]);
  }
  // Saved with CRLF line endings: the CR is the line ending's (a name's CR is written \r),
  // not the end of every name.
  std::string crlf;
  for (const char c : read_file(d.file("values.tsv"))) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  write_file(d.file("values.tsv"), crlf);
  const auto from_crlf = read_values_tsv(d.file("values.tsv"));
  REQUIRE(from_crlf.size() == names.size());
  for (size_t k = 0; k < names.size(); ++k) CHECK(from_crlf[k].second == names[k]);
}

TEST_CASE("a value whose name is longer than a file name may be is dumped all the same", "[io][dump]") {
  // It used to fail the run: "cannot write DIR/vvv...vvv.pb: File name too long".
  const std::string name(300, 'v');
  for (TensorFormat format : {TensorFormat::kPb, TensorFormat::kNpy}) {
    TempDir d;
    {
      ValueDump dump(d.path(), format);
      dump.write(name, patterned(DType::kFloat, {3}, 1));
      dump.write(name + "2", patterned(DType::kFloat, {3}, 2));
      CHECK(dump.finish() == 2);
    }
    const auto entries = read_values_tsv(d.file("values.tsv"));
    REQUIRE(entries.size() == 2);
    CHECK(entries[0].second == name);
    CHECK(entries[1].second == name + "2");
    CHECK(entries[0].first != entries[1].first);
    CHECK(fs::is_regular_file(d.file(entries[0].first)));
    CHECK(fs::is_regular_file(d.file(entries[1].first)));
  }
}

TEST_CASE("values whose names differ only in case get file names that differ in more", "[io][dump]") {
  // On a folder that ignores case (vfat or exFAT media, ext4 with casefold, a macOS folder
  // mounted into a container) A.pb and a.pb are one file: the second value replaced the
  // first while values.tsv listed both, and verify read one value for the other.
  TempDir d;
  {
    ValueDump dump(d.path(), TensorFormat::kPb);
    dump.write("A", patterned(DType::kFloat, {2}, 1));
    dump.write("a", patterned(DType::kFloat, {2}, 2));
    dump.write("a~2", patterned(DType::kFloat, {2}, 3));  // made safe: a_2, no clash
    CHECK(dump.finish() == 3);
  }
  const auto entries = read_values_tsv(d.file("values.tsv"));
  REQUIRE(entries.size() == 3);
  CHECK(entries[0].first == "A.pb");
  CHECK(entries[1].first == "a~2.pb");
  CHECK(entries[2].first == "a_2.pb");
}
