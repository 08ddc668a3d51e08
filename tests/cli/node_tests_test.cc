// The ONNX project's own LeakyRelu node tests, run through the CLI as a user would.
// Needs ../shared/onnx-tests (ctest skips this group with a message when it is absent).
#include <catch2/catch.hpp>

#include "support/check_exit.h"
#include "support/paths.h"
#include "support/process.h"

using namespace onnxrun::test;
using Catch::Matchers::Contains;

TEST_CASE("test_leakyrelu, _default and _example pass", "[cli][onnx-tests]") {
  for (const char* name : {"test_leakyrelu", "test_leakyrelu_default", "test_leakyrelu_example"}) {
    INFO(name);
    ProcessResult r = run_cli({node_test(name) + "/model.onnx"});
    CHECK_EXIT(r, 0);
    CHECK_THAT(r.out, Contains("test_data_set_0: passed"));
    CHECK(r.err.empty());
  }
}
