// A RunReport (suite/run.h) as the text `onnx-run MODEL` prints on stdout: each input
// with its type, shape, source and statistics; each output with its statistics, its
// comparison verdict when there are expected values, and its values as numpy prints
// them. Test sets are headed by their label and verdict. With `quiet`, only failures.
#pragma once

#include "suite/run.h"

namespace onnxrun::cli {

struct RenderOptions {
  bool quiet = false;
};

void print_run_text(const RunReport& report, const RenderOptions& options);

}  // namespace onnxrun::cli
