// What every onnx-run command shares: the version line, -v/-q and --max-memory, and
// parsing with CLI11 so that usage errors are one line on stderr with exit code 2.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli/cli11_fwd.h"
#include "cli/logging.h"

namespace onnxrun::cli {

std::string version_text();

// The group --help lists the global options under.
inline constexpr const char* kGlobalGroup = "Global options (before or after the command)";

// What every command takes, before or after its name (commands.h: is_global_option):
// -v/-q, --max-memory and --threads.
struct CommonOptions {
  Verbosity verbosity;
  std::optional<std::string> max_memory;  // --max-memory text; none keeps the default limit ("" is refused)
  unsigned threads = 0;                   // --threads; 0: one per core
};
// `threads_help` says what --threads does for this command.
void add_common_options(CLI::App& app, CommonOptions& c, const std::string& threads_help);
// After parsing: sets up logging and the memory limit. Throws Error(kUsage) for a
// malformed --max-memory.
void apply_common_options(const CommonOptions& c);
// What apply_common_options checks, changing nothing. Throws Error(kUsage).
void check_common_options(const CommonOptions& c);

// A path that is not there is a mistake on the command line: Error(kUsage), not bad data.
void check_exists(const std::string& path);

// Refuses, with Error(kUsage), report paths the user named that would replace one file
// twice (two options naming it: one report lost) or a file the command reads (`reads`: a
// model, a test's data, a shard's report, a value file): the report would destroy what
// it was made from. `reports` are (option, path) pairs; an empty path is no report.
// FIFOs and devices are written in place, not replaced, and may be named by several.
// (--baseline F --update-baseline F is meant: the baseline is read before the run.)
void check_report_paths(const std::vector<std::pair<std::string, std::string>>& reports,
                        const std::vector<std::string>& reads);

// Makes every option of `app` whose value is a path (its value name says FILE, DIR, PATH or
// REPORT: `--json FILE`, `-o DIR`, `compare A B`) refuse an empty value as a usage error:
// `--json "$REPORT"` with the variable unset would otherwise lose the report without a word.
// row_command calls it on every command, so an option added later is covered too.
void refuse_empty_paths(CLI::App& app);

// Parses argv; on --help/--version prints and returns 0, on a usage error prints one
// line and returns 2; returns nullopt when the command should go on.
std::optional<int> parse_args(CLI::App& app, int argc, char** argv);

}  // namespace onnxrun::cli
