// What every onnx-run command shares: the version line, -v/-q and --max-memory, and
// parsing with CLI11 so that usage errors are one line on stderr with exit code 2.
#pragma once

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "cli/logging.h"

namespace onnxrun::cli {

std::string version_text();

// Adds -v/--verbose (counted) and -q/--quiet to `app` (Verbosity: cli/logging.h).
void add_verbosity_flags(CLI::App& app, Verbosity& v);

// What every command that loads models takes: -v/-q and --max-memory.
struct CommonOptions {
  Verbosity verbosity;
  std::string max_memory;  // --max-memory text; empty keeps the default limit
};
void add_common_options(CLI::App& app, CommonOptions& c);
// After parsing: sets up logging and the memory limit. Throws Error(kUsage) for a
// malformed --max-memory.
void apply_common_options(const CommonOptions& c);
// What apply_common_options checks, changing nothing. Throws Error(kUsage).
void check_common_options(const CommonOptions& c);

// Parses argv; on --help/--version prints and returns 0, on a usage error prints one
// line and returns 2; returns nullopt when the command should go on.
std::optional<int> parse_args(CLI::App& app, int argc, char** argv);

}  // namespace onnxrun::cli
