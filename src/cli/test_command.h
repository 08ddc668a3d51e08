// `onnx-run test PATH...`: the regression runner's command line. Parses options, calls
// suite/ (discovery, runner, reports, baseline), prints progress and the closing report,
// and turns the outcome into the exit code. No test logic lives here.
#pragma once

namespace onnxrun::cli {

int test_main(int argc, char** argv);

}  // namespace onnxrun::cli
