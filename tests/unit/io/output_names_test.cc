// The names onnx-run gives the files it names itself (io/output_names.h).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "io/output_names.h"

using namespace onnxrun;

TEST_CASE("value names become safe file names", "[dump]") {
  CHECK(file_name_for_value("conv1/out:0") == "conv1_out_0");
  CHECK(file_name_for_value("..") == "_..");
  CHECK(file_name_for_value("") == "_");
  CHECK(file_name_for_value("a-b.c_d") == "a-b.c_d");
}

TEST_CASE("a long value name becomes a file name every file system takes, still its own", "[dump]") {
  // A value name may be longer than a file name may be (NAME_MAX, 255 bytes), and the
  // temporary it is written under is longer still: such a dump used to fail with "File
  // name too long".
  const std::string long_a = std::string(300, 'v') + "a";
  const std::string long_b = std::string(300, 'v') + "b";
  const std::string a = file_name_for_value(long_a), b = file_name_for_value(long_b);
  CHECK(a.size() <= kMaxValueFileStem);
  CHECK(b.size() <= kMaxValueFileStem);
  CHECK(a != b);                                  // names that share a long prefix stay apart
  CHECK(a.rfind(std::string(100, 'v'), 0) == 0);  // and still read as their value
  CHECK(a == file_name_for_value(long_a));        // the same every time: verify finds it by it
  const std::string fits(kMaxValueFileStem, 'w');
  CHECK(file_name_for_value(fits) == fits);  // a name that fits is left alone
}

TEST_CASE("a run's files are numbered, or one bundle, by role and format", "[output-files]") {
  using V = std::vector<std::string>;
  CHECK(tensor_file_names(TensorFormat::kPb, 2, TensorRole::kOutputs) == V{"output_0.pb", "output_1.pb"});
  CHECK(tensor_file_names(TensorFormat::kNpy, 1, TensorRole::kInputs) == V{"input_0.npy"});
  CHECK(tensor_file_names(TensorFormat::kNpz, 3, TensorRole::kOutputs) == V{"outputs.npz"});
  CHECK(tensor_file_names(TensorFormat::kNpz, 3, TensorRole::kInputs) == V{"inputs.npz"});
  CHECK(tensor_file_names(TensorFormat::kPb, 0, TensorRole::kOutputs).empty());
  CHECK(std::string(single_file_extension(TensorFormat::kNpz)) == ".npy");
}

TEST_CASE("a numbered name reads back as its number", "[output-files]") {
  CHECK(numbered_file_index(TensorRole::kOutputs, numbered_file_name(TensorRole::kOutputs, 12, "")) == 12u);
  CHECK(numbered_file_index(TensorRole::kInputs, "input_0") == 0u);
  CHECK_FALSE(numbered_file_index(TensorRole::kOutputs, "input_0"));
  CHECK_FALSE(numbered_file_index(TensorRole::kOutputs, "output_"));
  CHECK_FALSE(numbered_file_index(TensorRole::kOutputs, "output_1.pb"));
  CHECK_FALSE(numbered_file_index(TensorRole::kOutputs, "output_x"));
}
