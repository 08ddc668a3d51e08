#include "cli/app_common.h"

#include <cctype>
#include <filesystem>
#include <optional>
#include <vector>

#include <fmt/core.h>

#include <CLI/CLI.hpp>

#include "cli/exit_codes.h"
#include "cli/number_options.h"
#include "cli/suggest.h"
#include "core/fail.h"
#include "core/memory_limit.h"
#include "io/atomic_file.h"
#include "io/output_folder.h"
#include "model/known_versions.h"

namespace onnxrun::cli {

constexpr unsigned kMaxThreads = 4096;  // far more than any machine onnx-run runs on

std::string version_text() {
  // ONNXRUN_VERSION: from project(VERSION ...)
  return fmt::format("onnx-run {} (ONNX opsets up to {}, IR version up to {})", ONNXRUN_VERSION, kNewestKnownOpset,
                     kNewestKnownIrVersion);
}

void add_common_options(CLI::App& app, CommonOptions& c, const std::string& threads_help) {
  app.add_flag("-v,--verbose", c.verbosity.verbose,
               "more diagnostics on stderr: -v load, resolution, kernel path, threads and timings; -vv per node")
      ->group(kGlobalGroup);
  app.add_flag("-q,--quiet", c.verbosity.quiet, "print only failures and errors")->group(kGlobalGroup);
  app.add_option("--max-memory", c.max_memory,
                 "refuse a run whose tensors need more memory than SIZE (512M, 4G, ...; default: 3/4 of physical "
                 "memory, " +
                     format_bytes(default_memory_limit()) + " here)")
      ->type_name("SIZE")
      ->group(kGlobalGroup);
  // 0 is the default's own value (one thread per core), so it is said rather than refused.
  app.add_option("--threads", c.threads, threads_help + "; 0: one per core")
      ->type_name("N")
      ->check(whole_number(0, kMaxThreads))
      ->group(kGlobalGroup);
}

void apply_common_options(const CommonOptions& c) {
  setup_logging(c.verbosity);
  if (c.max_memory) set_memory_limit(parse_memory_size(*c.max_memory));
}

void check_common_options(const CommonOptions& c) {
  if (c.max_memory) parse_memory_size(*c.max_memory);
}

void check_exists(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) fail(ErrorKind::kUsage, "{}: no such file or folder", path);
}

void check_report_paths(const std::vector<std::pair<std::string, std::string>>& reports,
                        const std::vector<std::string>& reads) {
  // Files by identity (io/output_folder.h FileEntry): a folder reached through a bind
  // mount of it is the same folder.
  auto replaced_entry = [](const std::string& path) {
    const std::optional<std::string> file = replaced_file(path);
    return file ? std::optional<FileEntry>(file_entry(*file)) : std::nullopt;
  };
  std::vector<std::pair<FileEntry, std::string>> taken;  // (replaced file, option)
  for (const auto& [option, path] : reports) {
    if (path.empty()) continue;
    const std::optional<FileEntry> file = replaced_entry(path);
    if (!file) continue;
    for (const auto& [other, by] : taken)
      if (other == *file)
        fail(ErrorKind::kUsage, "{} {}: the same file as {}; each report needs its own", option, path, by);
    taken.emplace_back(*file, option);
  }
  if (taken.empty()) return;
  for (const std::string& read : reads) {
    const std::optional<FileEntry> file = replaced_entry(read);
    if (!file) continue;
    for (const auto& [report, option] : taken)
      if (report == *file)
        fail(ErrorKind::kUsage, "{}: {} is a file this command reads; the report would replace it", option, read);
  }
}

namespace {

// Whether a value named `type_name` ("FILE", "[NAME=]FILE|LIST", "REPORT.json") is a path.
bool names_a_path(const std::string& type_name) {
  std::string word;
  for (size_t i = 0; i <= type_name.size(); ++i) {
    const char ch = i < type_name.size() ? type_name[i] : ' ';
    if (std::isupper(static_cast<unsigned char>(ch))) {
      word += ch;
      continue;
    }
    if (word == "FILE" || word == "DIR" || word == "PATH" || word == "REPORT") return true;
    word.clear();
  }
  return false;
}

}  // namespace

void refuse_empty_paths(CLI::App& app) {
  const CLI::Validator non_empty(
      [](std::string& text) -> std::string { return text.empty() ? "expected a path, got ''" : ""; }, "", "path");
  for (CLI::Option* o : app.get_options()) {
    // A positional's value name is its own name (MODEL, A); its type name says what it is.
    if (names_a_path(o->get_type_name())) o->check(non_empty);
  }
}

std::optional<int> parse_args(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // An unknown option is named first: CLI11 would rather say "model is required".
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (auto unknown = first_unknown_option(app, args)) {
      const auto near = nearest_option(app, *unknown);
      fmt::print(stderr, "onnx-run: unknown option {}{} (see {} --help)\n", *unknown,
                 near ? "; did you mean " + *near + "?" : "", app.get_name());
    } else {
      // A bad value says all in one line; a missing or extra argument gets the usage too.
      const bool about_value = e.get_name() == "ValidationError" || e.get_name() == "ConversionError";
      fmt::print(stderr, "onnx-run: {}{} (see {} --help)\n", e.what(), about_value ? "" : "; " + usage_line(app),
                 app.get_name());
    }
    return kExitUsage;
  }
  return std::nullopt;
}

}  // namespace onnxrun::cli
