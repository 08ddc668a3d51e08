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
