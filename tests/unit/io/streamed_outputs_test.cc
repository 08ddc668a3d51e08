// Output files written block by block (io/streamed_outputs.h): byte for byte, whatever the
// blocks, what one block of each tensor writes (a whole run's files), in every format; nothing left behind when
// abandoned or overfed; the hand-over to the caller's OutputSet; FIFOs and symlinks at
// their names replaced.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <thread>

#include "core/error.h"
#include "io/output_set.h"
#include "io/streamed_outputs.h"
#include "io/tensor_format.h"
#include "support/model_builder.h"
#include "support/paths.h"
#include "support/tensors.h"

using namespace onnxrun;
using namespace onnxrun::test;
namespace fs = std::filesystem;

namespace {

// Streams `tensors` into `dir` in blocks of `block` bytes, the outputs interleaved, into
// `set`; without one, into a set of its own that it commits (the files then in place).
std::vector<std::string> stream_outputs(TensorFormat format, const std::string& dir,
                                        const std::vector<std::string>& names, const std::vector<Tensor>& tensors,
                                        size_t block, OutputSet* set = nullptr) {
  OutputSet own;
  if (!set) set = &own;
  std::vector<ValueSpec> values;
  for (size_t k = 0; k < tensors.size(); ++k) values.push_back({names[k], tensors[k].dtype(), tensors[k].shape()});
  StreamedOutputs out(*set, format, dir, values);
  std::vector<size_t> at(tensors.size(), 0);
  for (bool more = true; more;) {
    more = false;
    for (size_t k = 0; k < tensors.size(); ++k) {
      const size_t n = std::min(block, tensors[k].nbytes() - at[k]);
      if (n == 0) continue;
      out.append(k, static_cast<const char*>(tensors[k].raw()) + at[k], n);
      at[k] += n;
      more = true;
    }
  }
  std::vector<std::string> paths = out.finish();
  if (set == &own) own.commit();
  return paths;
}

// Each tensor one block, as a whole run writes them, committed at once.
std::vector<std::string> write_now(TensorFormat format, const std::string& dir, const std::vector<std::string>& names,
                                   const std::vector<Tensor>& tensors) {
  return stream_outputs(format, dir, names, tensors, SIZE_MAX);
}

const TensorFormat kFormats[] = {TensorFormat::kPb, TensorFormat::kNpy, TensorFormat::kNpz};

}  // namespace

TEST_CASE("outputs streamed in blocks are the files of one block each, in every format", "[io][stream-out]") {
  const std::vector<std::vector<Tensor>> cases = {
      {patterned(DType::kFloat, {1000})},
      {patterned(DType::kFloat, {})},
      {patterned(DType::kDouble, {2, 0, 3})},
      {patterned(DType::kFloat, {3, 7}), patterned(DType::kFloat16, {}), patterned(DType::kBFloat16, {0}),
       patterned(DType::kInt64, {5, 1}), patterned(DType::kFloat, {5 << 18}, 9)},  // the last 5 MiB
  };
  for (TensorFormat format : kFormats)
    for (const auto& tensors : cases)
      for (size_t block : {size_t{1} << 20, size_t{4093}, size_t{1}}) {
        if (block == 1 && tensors.size() > 1) continue;  // byte by byte through 5 MiB is slow
        TempDir d;
        std::vector<std::string> names;
        for (size_t k = 0; k < tensors.size(); ++k) names.push_back("out" + std::to_string(k));
        INFO("format " << static_cast<int>(format) << ", " << tensors.size() << " outputs, block " << block);
        const auto whole = write_now(format, d.file("whole"), names, tensors);
        const auto streamed = stream_outputs(format, d.file("streamed"), names, tensors, block);
        REQUIRE(names_in(d.file("streamed")) == names_in(d.file("whole")));
        REQUIRE(streamed.size() == whole.size());
        for (size_t k = 0; k < whole.size(); ++k) {
          CHECK(fs::path(streamed[k]).filename() == fs::path(whole[k]).filename());
          CHECK(read_file(streamed[k]) == read_file(whole[k]));
        }
      }
}

TEST_CASE("streamed outputs abandoned or overfed leave nothing behind", "[io][stream-out]") {
  for (TensorFormat format : kFormats) {
    INFO("format " << static_cast<int>(format));
    TempDir d;
    const Tensor t = patterned(DType::kFloat, {100});
    {
      OutputSet set;
      StreamedOutputs out(set, format, d.path(), {{"a", DType::kFloat, {100}}, {"b", DType::kFloat, {100}}});
      out.append(0, t.raw(), 400);
      out.append(1, t.raw(), 200);
      set.commit();  // even so: what was never finished is not in the set
    }
    CHECK(names_in(d.path()).empty());
    {
      OutputSet set;
      StreamedOutputs out(set, format, d.path(), {{"a", DType::kFloat, {100}}});
      out.append(0, t.raw(), 300);
      try {
        out.append(0, t.raw(), 101);
        FAIL("an overflow was taken");
      } catch (const Error& e) {
        CHECK(e.kind() == ErrorKind::kInternal);
        CHECK_THAT(e.what(), Catch::Contains("more data than"));
      }
    }
    CHECK(names_in(d.path()).empty());
    {
      OutputSet set;
      StreamedOutputs out(set, format, d.path(), {{"a", DType::kFloat, {100}}, {"b", DType::kFloat, {100}}});
      out.append(0, t.raw(), 400);
      out.append(1, t.raw(), 396);
      try {
        out.finish();
        FAIL("a short output was finished");
      } catch (const Error& e) {
        CHECK(e.kind() == ErrorKind::kInternal);
        CHECK_THAT(e.what(), Catch::Contains("396 bytes of data written, 400 expected"));
      }
      CHECK(set.pending().empty());  // none of them handed over
    }
    CHECK(names_in(d.path()).empty());
  }
}

TEST_CASE("streamed outputs go to the caller's OutputSet and appear on its commit", "[io][stream-out]") {
  for (TensorFormat format : kFormats) {
    INFO("format " << static_cast<int>(format));
    TempDir d;
    const std::vector<Tensor> tensors = {patterned(DType::kFloat, {10}), patterned(DType::kFloat, {3})};
    const auto whole = write_now(format, d.file("whole"), {"a", "b"}, tensors);
    {
      OutputSet tx;
      const auto paths = stream_outputs(format, d.file("out"), {"a", "b"}, tensors, 7, &tx);
      CHECK(tx.pending() == paths);
      for (const std::string& p : paths) CHECK_FALSE(fs::exists(p));
      CHECK(tx.commit() == paths);
      for (size_t k = 0; k < paths.size(); ++k) CHECK(read_file(paths[k]) == read_file(whole[k]));
    }
    {
      OutputSet tx;  // not committed: nothing appears, nothing is left, not even the folder
      stream_outputs(format, d.file("dropped"), {"a", "b"}, tensors, 7, &tx);
    }
    CHECK_FALSE(fs::exists(d.file("dropped")));
  }
}

// Issue 32: a name onnx-run chooses inside its folder replaces whatever stands there; a
// FIFO there is not written into (its reader is not waited for) and a link not followed.
TEST_CASE("streamed outputs replace a FIFO or a symlink at their names, never writing into them", "[io][stream-out]") {
  const Tensor t = patterned(DType::kFloat, {300000});  // more than a pipe holds
  for (TensorFormat format : {TensorFormat::kPb, TensorFormat::kNpy, TensorFormat::kNpz}) {
    TempDir d;
    const auto whole = write_now(format, d.file("whole"), {"y"}, {t});
    fs::create_directories(d.file("out"));
    const std::string name = fs::path(whole[0]).filename().string();
    REQUIRE(::mkfifo(d.file("out/" + name).c_str(), 0600) == 0);
    stream_outputs(format, d.file("out"), {"y"}, {t}, 1 << 16);
    CHECK(fs::is_regular_file(fs::symlink_status(d.file("out/" + name))));
    CHECK(read_file(d.file("out/" + name)) == read_file(whole[0]));
    // A symlink at the name: replaced, its target untouched.
    write_file(d.file("secret"), "secret");
    fs::remove(d.file("out/" + name));
    fs::create_symlink(d.file("secret"), d.file("out/" + name));
    stream_outputs(format, d.file("out"), {"y"}, {t}, 1 << 16);
    CHECK(read_file(d.file("secret")) == "secret");
    CHECK_FALSE(fs::is_symlink(d.file("out/" + name)));
    CHECK(read_file(d.file("out/" + name)) == read_file(whole[0]));
    CHECK(names_in(d.file("out")) == std::vector<std::string>{name});
  }
}
