// `onnx-run info MODEL [--json]`: what the model is and how onnx-run resolves it. Loads
// with LoadOptions::keep_unsupported, so it describes models onnx-run cannot run too.
#include <optional>
#include <string>

#include <fmt/core.h>

#include <CLI/CLI.hpp>

#include "cli/app_common.h"
#include "cli/command_row.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/help_text.h"
#include "core/error.h"
#include "model/describe.h"
#include "model/load.h"
#include "suite/json_documents.h"
#include "suite/planned_graph.h"
#include "suite/verify.h"
#include "suite/verify_report.h"

namespace onnxrun::cli {
namespace {

struct InfoArgs {
  std::string model;
  bool json = false;
  bool all = false;
  bool verify = false;
  CommonOptions common;
};

const CommandDoc& info_doc() {
  static const CommandDoc doc{
      "onnx-run info MODEL [OPTIONS]",
      "Prints IR version, producer, opset imports, the inputs to feed and the outputs with types and "
      "shapes, initializers with sizes, every node with the operator version it resolves to (or why "
      "onnx-run cannot run it), each operator used with its node count and support, model-local "
      "functions, whether the model can run and if not why, and what the executor fuses (subgraphs "
      "run as one operator, chains run as one pass). Inputs backed by an initializer are counted, and "
      "lists of more than 20 initializers or nodes only counted, unless --all. With --verify, instead: "
      "each node onnx-run verify would check and the values it needs, so a user knows what to dump.",
      {
          {"onnx-run info model.onnx", "describe a model"},
          {"onnx-run info model.onnx --all", "also every initializer-backed input, initializer and node"},
          {"onnx-run info model.onnx --json | python3 -m json.tool", "the same as JSON"},
          {"onnx-run info model.onnx --json | jq -r '.not_runnable_because[]'", "why onnx-run cannot run it"},
          {"onnx-run info model.onnx --verify", "which nodes onnx-run verify would check, and the values it needs"},
      },
      {
          {0, "described (even if onnx-run cannot run it)"},
          {2, "usage error (malformed command line)"},
          {3, "not a readable model"},
      }};
  return doc;
}

void build_info_app(CLI::App& app, InfoArgs& a) {
  describe_app(app, "onnx-run info", info_doc());
  app.description("onnx-run info: what a model is and how onnx-run resolves each of its nodes");
  add_common_options(app, a.common, "accepted as everywhere; info runs nothing");
  app.add_option("MODEL", a.model, "the .onnx model file")->type_name("FILE")->required();
  CLI::Option* json = app.add_flag("--json", a.json, "print one JSON object instead of text");
  app.add_flag("--all", a.all,
               "list initializer-backed inputs, and every initializer and node however many (JSON always has them)");
  app.add_flag("--verify", a.verify,
               "instead: which nodes `onnx-run verify` would check, and which values it needs (what to dump)")
      ->excludes(json);
}

int run_info(InfoArgs& a) {
  LoadOptions options;
  options.keep_unsupported = true;
  options.leave_tensor_data_unread = true;  // info shows no initializer's values
  const Model model = load_model(a.model, options);
  if (a.verify) {
    fmt::print("{}", printable_lines(verify_plan_text(plan_verify(model), model.graph)));
    return kExitOk;
  }
  const std::optional<Fusion> fusion = default_fusion(model.graph);
  if (a.json) {
    fmt::print("{}", info_json(model, fusion));
  } else {
    fmt::print("model:          {}\n", printable(a.model));
    fmt::print("{}", printable_lines(describe_model_text(model, a.all)));
    if (fusion)
      fmt::print("fusion (as it runs; --no-fuse runs each node alone):\n{}", printable_lines(describe_fusion(*fusion)));
  }
  return kExitOk;
}

const CommandRow<InfoArgs> kInfoRow{
    "info", "what a model is and how onnx-run resolves it", info_doc, build_info_app, nullptr, run_info};

}  // namespace

const Command& info_command() { return row_command<InfoArgs, kInfoRow>(); }

}  // namespace onnxrun::cli
