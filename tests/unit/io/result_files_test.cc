// Result sets as other tools leave them (io/result_files.h) and matching by name, then
// by position.
#include <catch2/catch.hpp>

#include <filesystem>

#include "core/error.h"
#include "io/npy.h"
#include "io/npz.h"
#include "io/result_files.h"
#include "io/streamed_tensor_file.h"
#include "io/tensor_file.h"
#include "support/model_builder.h"
#include "support/paths.h"
#include "support/shortcuts.h"
#include "support/tensors.h"

using namespace onnxrun;
using namespace onnxrun::test;

TEST_CASE("matching by name first, then the rest in order", "[result-files]") {
  using V = std::vector<size_t>;
  CHECK(match_by_name_then_position({"a", "b"}, {"b", "a"}) == V{1, 0});
  CHECK(match_by_name_then_position({"a", "b"}, {"", "a"}) == V{1, 0});
  CHECK(match_by_name_then_position({"a", "b"}, {"x", "y"}) == V{0, 1});
  CHECK(match_by_name_then_position({"a"}, {"x", "a"}) == V{1, 0});  // x is left over
  CHECK(match_by_name_then_position({"a", "b"}, {"a", "a"}) == V{0, 1});
}

TEST_CASE("a folder of .npy and .pb, a test set, an .npz and one file read as result sets", "[result-files]") {
  TempDir d;
  write_npy_file(d.file("y.npy"), float_tensor({1, 2}));
  write_tensor_file(d.file("value_10.pb"), float_tensor({3}), "z");
  write_tensor_file(d.file("value_2.pb"), float_tensor({4}), "");
  write_tensor_file(d.file("w.tensorproto"), float_tensor({6}), "w");  // onnxruntime's node dump
  write_file(d.file("notes.txt"), "not a tensor");
  // No output_K.pb: not a test set, so every tensor file, sorted naturally.
  std::vector<ResultTensor> set = read_result_files(d.path());
  REQUIRE(set.size() == 4);
  CHECK(set[0].name.empty());  // value_2.pb without a TensorProto name
  CHECK(set[1].name == "z");
  CHECK(set[2].name == "w");
  CHECK(set[3].name == "y");
  // Any output_K.pb makes it a set, whose K must count from 0: output_2.pb was taken for
  // the first result.
  write_tensor_file(d.file("output_2.pb"), float_tensor({4}), "");
  CHECK_THROWS_WITH(read_result_files(d.path()), d.path() + ": output_0.pb is missing (found output_2.pb)");
  // output_00.pb beside output_0.pb said output_0.pb was missing: it is the leading zero.
  write_tensor_file(d.file("output_0.pb"), float_tensor({4}), "");
  write_tensor_file(d.file("output_00.pb"), float_tensor({4}), "");
  CHECK_THROWS_WITH(read_result_files(d.path()), d.path() +
                                                     ": output_00.pb is numbered with a leading zero; output_K.pb "
                                                     "files are output_0.pb, output_1.pb, ...");

  TempDir ts;
  write_tensor_file(ts.file("input_0.pb"), float_tensor({9}), "x");
  write_tensor_file(ts.file("output_0.pb"), float_tensor({5}), "y");
  set = read_result_files(ts.path());
  REQUIRE(set.size() == 1);  // the test set's input is not a result
  CHECK(set[0].name == "y");
  set = read_result_files(ts.path(), FolderTensors::kEveryFile);  // values by name: inputs too
  REQUIRE(set.size() == 2);
  CHECK(set[0].name == "x");
  CHECK(set[1].name == "y");

  // Any other tensor file beside a test set's outputs is a result too, after them: left
  // out, a value that differs would pass unseen.
  write_tensor_file(ts.file("output_1.pb"), float_tensor({5}), "y1");
  write_tensor_file(ts.file("w.pb"), float_tensor({5}), "w");
  write_npy_file(ts.file("a.npy"), float_tensor({5}));
  set = read_result_files(ts.path());
  REQUIRE(set.size() == 4);
  CHECK(set[0].name == "y");
  CHECK(set[1].name == "y1");
  CHECK(set[2].name == "a");
  CHECK(set[3].name == "w");

  write_npz_file(d.file("r.npz"), {{"b", float_tensor({1})}, {"a", float_tensor({2})}});
  set = read_result_files(d.file("r.npz"));
  REQUIRE(set.size() == 2);
  CHECK(set[0].name == "b");
  CHECK(set[0].file == d.file("r.npz") + ":b");
  CHECK(read_result_files(d.file("y.npy")).at(0).name == "y");
  // A member is read from the archive opened here, not by its path again (which walked
  // the whole directory once per value: docs/perf.md): the path may be gone by then.
  std::filesystem::rename(d.file("r.npz"), d.file("gone.npz"));
  CHECK(set[1].load().data<float>()[0] == 2.f);
  CHECK(set[0].load().data<float>()[0] == 1.f);
}

TEST_CASE("a dump folder's values.tsv names its files' values", "[result-files]") {
  TempDir d;
  write_npy_file(d.file("a_b.npy"), float_tensor({1}));
  write_file(d.file("values.tsv"), "a_b.npy\ta/b\n");
  const std::vector<ResultTensor> set = read_result_files(d.path());
  REQUIRE(set.size() == 1);
  CHECK(set[0].name == "a/b");
  write_file(d.file("values.tsv"), "../x.npy\tx\n");
  CHECK_THROWS_AS(read_result_files(d.path()), Error);
}

TEST_CASE("a folder with values.tsv gives the files it lists and then every other tensor file in it",
          "[result-files]") {
  // A file values.tsv does not list was once skipped: a value that differs passed unseen.
  TempDir d;
  write_npy_file(d.file("b_c.npy"), float_tensor({1}));
  write_tensor_file(d.file("output_0.pb"), float_tensor({2}), "mid");  // a dumped value named output_0
  write_npy_file(d.file("z.npy"), float_tensor({3}));
  write_tensor_file(d.file("w.pb"), float_tensor({4}), "w");
  write_file(d.file("values.tsv"), "output_0.pb\toutput_0\nb_c.npy\tb/c\n");
  for (const FolderTensors which : {FolderTensors::kTestSetOutputs, FolderTensors::kEveryFile}) {
    const std::vector<ResultTensor> set = read_result_files(d.path(), which);
    REQUIRE(set.size() == 4);  // output_0.pb once: listed, not also a test set's output
    CHECK(set[0].name == "output_0");
    CHECK(set[1].name == "b/c");
    CHECK(set[2].name == "w");
    CHECK(set[3].name == "z");
    CHECK(set[3].file == d.file("z.npy"));
  }
  // Unlisted test-set files keep their rule: outputs first by K, inputs left out.
  TempDir ts;
  write_tensor_file(ts.file("input_0.pb"), float_tensor({9}), "x");
  write_tensor_file(ts.file("output_0.pb"), float_tensor({5}), "y");
  write_npy_file(ts.file("v.npy"), float_tensor({1}));
  write_npy_file(ts.file("a.npy"), float_tensor({1}));
  write_file(ts.file("values.tsv"), "v.npy\tv\n");
  const std::vector<ResultTensor> set = read_result_files(ts.path());
  REQUIRE(set.size() == 3);
  CHECK(set[0].name == "v");
  CHECK(set[1].name == "y");
  CHECK(set[2].name == "a");
}

TEST_CASE("a missing path or a folder without tensors is an error", "[result-files]") {
  TempDir d;
  CHECK_THROWS_AS(read_result_files(d.file("nothing")), Error);
  CHECK_THROWS_AS(read_result_files(d.path()), Error);
}
