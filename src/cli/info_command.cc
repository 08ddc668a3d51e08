// `onnx-run info MODEL [--json]`: what the model is and how onnx-run resolves it. Loads
// with LoadOptions::keep_unsupported, so it describes models onnx-run cannot run too.
#include <fmt/core.h>

#include "cli/app_common.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "model/describe.h"
#include "model/load.h"

namespace onnxrun::cli {

int info_main(int argc, char** argv) {
  CLI::App app{"onnx-run info: what a model is and how onnx-run resolves each of its nodes"};
  app.name("onnx-run info");
  std::string model_path;
  bool json = false;
  Verbosity verbosity;
  add_verbosity_flags(app, verbosity);
  app.add_option("model", model_path, "the .onnx model file")->required();
  app.add_flag("--json", json, "print one JSON object instead of text");
  app.footer(R"(Prints IR version, producer, opset imports, inputs and outputs with types and shapes,
initializers with sizes, every node with the operator version it resolves to (or why
onnx-run cannot run it), the operators used, and model-local functions.

Examples:
  onnx-run info model.onnx
  onnx-run info model.onnx --json | python3 -m json.tool
  onnx-run info model.onnx --json | jq '.nodes[] | select(.supported | not) | .op_type'

Exit codes: 0 described (even if onnx-run cannot run it), 2 usage error, 3 not a readable model.)");
  if (auto code = parse_args(app, argc, argv)) return *code;
  setup_logging(verbosity);
  LoadOptions options;
  options.keep_unsupported = true;
  const Model model = load_model(model_path, options);
  if (json) {
    fmt::print("{}", describe_model_json(model));
  } else {
    fmt::print("model:          {}\n", model_path);
    fmt::print("{}", describe_model_text(model));
  }
  return kExitOk;
}

}  // namespace onnxrun::cli
