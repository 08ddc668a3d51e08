// --help as the command's CommandDoc says it: the usage line is the doc's synopsis
// (`onnx-run [run] MODEL [OPTIONS]`, not CLI11's `onnx-run [OPTIONS] model`), and the
// footer its description, examples and exit status. The man page says the same from
// the same doc (interface_docs.h).
#pragma once

#include <string>

#include "cli/cli11_fwd.h"
#include "cli/commands.h"

namespace onnxrun::cli {

// Names `app` ("onnx-run test"), gives it `doc`'s usage line and footer, and --version.
void describe_app(CLI::App& app, const std::string& name, const CommandDoc& doc);

// The footer --help prints: description, examples, exit status.
std::string help_footer(const CommandDoc& doc);

// "Commands (onnx-run help COMMAND for each):" and one line per command.
std::string commands_overview();

}  // namespace onnxrun::cli
