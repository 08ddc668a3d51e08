#include "cli/help_text.h"

#include <algorithm>
#include <cstring>
#include <memory>

#include <fmt/core.h>

#include <CLI/CLI.hpp>

#include "cli/app_common.h"

namespace onnxrun::cli {
namespace {

// CLI11's formatter with the usage line replaced by the command's synopsis.
class SynopsisFormatter final : public CLI::Formatter {
 public:
  explicit SynopsisFormatter(std::string synopsis) : synopsis_(std::move(synopsis)) {}
  std::string make_usage(const CLI::App*, std::string) const override { return "Usage: " + synopsis_ + "\n"; }

 private:
  std::string synopsis_;
};

}  // namespace

std::string help_footer(const CommandDoc& doc) {
  std::string out = doc.description;
  if (!doc.examples.empty()) {
    out += "\n\nExamples:";
    for (const CommandDoc::Example& e : doc.examples) out += fmt::format("\n  {}\n      {}", e.command, e.what);
  }
  if (!doc.exit_status.empty()) {
    out += "\n\nExit status:";
    for (const CommandDoc::ExitStatus& s : doc.exit_status) out += fmt::format("\n  {:>3}  {}", s.code, s.meaning);
  }
  return out;
}

std::string commands_overview() {
  std::string out = "Commands (onnx-run help COMMAND for each):";
  // One column for the summaries, as wide as the longest name needs.
  size_t width = 0;
  for (const Command* c : documented_commands()) width = std::max(width, std::strlen(c->name));
  for (const Command* c : documented_commands()) out += fmt::format("\n  {:<{}}  {}", c->name, width, c->summary);
  return out;
}

void describe_app(CLI::App& app, const std::string& name, const CommandDoc& doc) {
  app.name(name);
  app.formatter(std::make_shared<SynopsisFormatter>(doc.synopsis));
  app.set_version_flag("--version", version_text());
  app.footer(help_footer(doc));
}

}  // namespace onnxrun::cli
