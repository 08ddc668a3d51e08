// Names of files for values (io/tensor_format.h).
#include <catch2/catch.hpp>

#include "io/tensor_format.h"

using namespace onnxrun;

TEST_CASE("value names become safe file names", "[dump]") {
  CHECK(file_name_for_value("conv1/out:0") == "conv1_out_0");
  CHECK(file_name_for_value("..") == "_..");
  CHECK(file_name_for_value("") == "_");
  CHECK(file_name_for_value("a-b.c_d") == "a-b.c_d");
}
