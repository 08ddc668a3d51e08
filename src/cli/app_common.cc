#include "cli/app_common.h"

#include <vector>

#include <fmt/core.h>

#include "cli/exit_codes.h"
#include "cli/memory_flag.h"
#include "cli/suggest.h"
#include "core/memory_limit.h"
#include "model/known_versions.h"

namespace onnxrun::cli {

constexpr const char* kVersion = ONNXRUN_VERSION;  // from project(VERSION ...)

std::string version_text() {
  return fmt::format("onnx-run {} (ONNX opsets up to {}, IR version up to {})", kVersion, kNewestKnownOpset,
                     kNewestKnownIrVersion);
}

void add_verbosity_flags(CLI::App& app, Verbosity& v) {
  app.add_flag("-v,--verbose", v.verbose, "more diagnostics on stderr (repeat for more)");
  app.add_flag("-q,--quiet", v.quiet, "print only failures and errors");
}

void add_common_options(CLI::App& app, CommonOptions& c) {
  add_verbosity_flags(app, c.verbosity);
  add_max_memory_option(app, c.max_memory);
}

void apply_common_options(const CommonOptions& c) {
  setup_logging(c.verbosity);
  apply_max_memory(c.max_memory);
}

void check_common_options(const CommonOptions& c) {
  if (!c.max_memory.empty()) parse_memory_size(c.max_memory);
}

std::optional<int> parse_args(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // A misspelt option gets the nearest real one suggested.
    std::string hint = option_suggestion(app, std::vector<std::string>(argv + 1, argv + argc));
    if (hint.empty()) hint = "; " + usage_line(app);
    fmt::print(stderr, "onnx-run: {}{} (see {} --help)\n", e.what(), hint, app.get_name());
    return kExitUsage;
  }
  return std::nullopt;
}

}  // namespace onnxrun::cli
