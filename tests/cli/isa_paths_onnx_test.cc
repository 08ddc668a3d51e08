// ONNX's own LeakyRelu node tests pass on every kernel path this CPU supports, forced
// with ONNXRUN_ISA, single- and multi-threaded.
#include <catch2/catch.hpp>

#include "ops/leaky_relu_paths.h"
#include "support/check_exit.h"
#include "support/paths.h"
#include "support/process.h"
#include "support/shortcuts.h"

using namespace onnxrun;
using namespace onnxrun::test;

TEST_CASE("ONNX LeakyRelu node tests pass on every kernel path", "[cli][onnx-tests]") {
  for (const LeakyReluPath* p : leaky_relu_supported_paths()) {
    for (const char* name : {"test_leakyrelu", "test_leakyrelu_default", "test_leakyrelu_example"}) {
      for (const char* threads : {"1", "2"}) {
        INFO(p->name << " " << name << " threads " << threads);
        auto r = run_process({"/usr/bin/env", std::string("ONNXRUN_ISA=") + p->name, onnx_run_binary(),
                              node_test(name) + "/model.onnx", "--threads", threads});
        INFO(r.out << r.err);
        CHECK_EXIT(r, 0);
        CHECK_THAT(r.out, Catch::Contains("passed"));
      }
    }
  }
}
