#include "cli/logging.h"

#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include <fmt/core.h>
#include <spdlog/sinks/base_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

namespace onnxrun::cli {

namespace {

// Holds what is logged until the command's outcome is known: a failure is one line, with
// the warnings folded into it; a success prints them as they were logged.
class HeldSink final : public spdlog::sinks::base_sink<std::mutex> {
 public:
  std::vector<std::pair<spdlog::level::level_enum, std::string>> take() {
    std::lock_guard<std::mutex> lock(mutex_);
    return std::exchange(held_, {});
  }

 protected:
  void sink_it_(const spdlog::details::log_msg& m) override { held_.emplace_back(m.level, fmt::to_string(m.payload)); }
  void flush_() override {}

 private:
  std::vector<std::pair<spdlog::level::level_enum, std::string>> held_;
};

std::shared_ptr<spdlog::sinks::sink> stderr_sink() {
  static const auto sink = [] {
    auto s = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
    s->set_pattern("onnx-run: %^%l%$: %v");
    return s;
  }();
  return sink;
}

std::shared_ptr<HeldSink> held_sink() {
  static const auto sink = std::make_shared<HeldSink>();
  return sink;
}

}  // namespace

void print_held_messages() {
  for (const auto& [level, text] : held_sink()->take())
    stderr_sink()->log(spdlog::details::log_msg("onnx-run", level, text));
  stderr_sink()->flush();
}

std::string held_messages_note() {
  const auto held = held_sink()->take();
  if (held.empty()) return "";
  std::string note = held.size() == 1 ? " (after warning: " : " (after warnings: ";
  for (size_t k = 0; k < held.size(); ++k) note += (k ? "; " : "") + held[k].second;
  return note + ")";
}

void setup_logging(const Verbosity& v) {
  // With -v, diagnostics stream as they come (one asks for them to watch the run).
  auto logger = std::make_shared<spdlog::logger>("onnx-run", v.verbose > 0 ? stderr_sink() : held_sink());
  spdlog::set_default_logger(logger);
  spdlog::set_level(v.quiet          ? spdlog::level::err
                    : v.verbose > 1  ? spdlog::level::trace
                    : v.verbose == 1 ? spdlog::level::debug
                                     : spdlog::level::warn);
}

}  // namespace onnxrun::cli
