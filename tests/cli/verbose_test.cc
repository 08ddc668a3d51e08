// What -v and -vv add on stderr (suite/run_log): -v says what was loaded, how each
// operator resolved, the kernel path and threads, and the time each run took; -vv adds
// each value as it is produced. Without them stderr stays empty, and stdout is the same.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "support/check_exit.h"
#include "support/paths.h"
#include "support/process.h"

using namespace onnxrun::test;
using Catch::Matchers::Contains;

namespace {

std::string model() { return testdata_dir() + "/leakyrelu_opset16_float_alpha0.1/model.onnx"; }

}  // namespace

TEST_CASE("-v reports load, resolution, kernel path, threads and timings", "[cli][verbose]") {
  const auto plain = run_cli({model()});
  REQUIRE_EXIT(plain, 0);
  CHECK(plain.err.empty());
  const auto v = run_cli({"-v", model(), "--threads", "1"});
  REQUIRE_EXIT(v, 0);
  CHECK(v.out == plain.out);
  CHECK_THAT(v.err, Contains("onnx-run: debug: loaded " + model() + " in "));
  CHECK_THAT(v.err, Contains(": IR version 8, opsets ai.onnx 16, 1 node, 0 initializers (0 bytes)\n"));
  CHECK_THAT(v.err, Contains("onnx-run: debug: resolved LeakyRelu x1 -> v16 (16+)\n"));
  CHECK_THAT(v.err, Contains("onnx-run: debug: executing 1 step on kernel path "));
  CHECK_THAT(v.err, Contains(" with 1 thread\n"));
  CHECK_THAT(v.err, Contains("onnx-run: debug: test_data_set_0: inputs ready in "));
  CHECK_THAT(v.err, Contains("onnx-run: debug: test_data_set_1: inputs ready in "));
  CHECK_THAT(v.err, !Contains("trace:"));
  const auto made_up = run_cli({"-v", model(), "--random"});
  REQUIRE_EXIT(made_up, 0);
  CHECK_THAT(made_up.err, Contains("onnx-run: debug: made-up inputs: inputs ready in "));
  const auto quiet = run_cli({"-q", "-v", model()});
  CHECK_EXIT(quiet, 0);
  CHECK(quiet.err.empty());
}

TEST_CASE("ONNXRUN_ISA=scalar puts the statistics on the portable path too", "[cli][verbose]") {
  // One hardware configuration (core/hardware.h): the cap applies to every kernel family.
  const auto v =
      run_process({"/usr/bin/env", "ONNXRUN_ISA=scalar", onnx_run_binary(), "-v", model(), "--threads", "1"});
  REQUIRE_EXIT(v, 0);
  CHECK_THAT(v.err, Contains("executing 1 step on kernel path scalar (statistics portable) with 1 thread\n"));
  const auto plain = run_cli({model()});
  REQUIRE_EXIT(plain, 0);
  CHECK(v.out == plain.out);  // the same printed statistics, bit for bit
}

TEST_CASE("-vv adds each value as the executor makes it", "[cli][verbose]") {
  const auto vv = run_cli({"-vv", model(), "-d", testdata_dir() + "/leakyrelu_opset16_float_alpha0.1/test_data_set_0"});
  REQUIRE_EXIT(vv, 0);
  CHECK_THAT(vv.err, Contains("onnx-run: debug: resolved LeakyRelu x1 -> v16 (16+)\n"));
  CHECK_THAT(vv.err, Contains(" ms: node 'leaky' (LeakyRelu) as v16 made 'y' float[2,3,5]\n"));
  CHECK_THAT(vv.err, Contains("onnx-run: trace: +"));
  CHECK(run_cli({"-v", model(), "-d", testdata_dir() + "/leakyrelu_opset16_float_alpha0.1/test_data_set_0"})
            .err.find("made 'y'") == std::string::npos);
}
