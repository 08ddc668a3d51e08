// core/log.h over spdlog's default logger, the one file of the library that includes it.
#include "core/log.h"

#include <spdlog/spdlog.h>

#include "core/error.h"

namespace onnxrun::log {
namespace {

spdlog::level::level_enum to_spdlog(Level l) {
  switch (l) {
    case Level::kTrace: return spdlog::level::trace;
    case Level::kDebug: return spdlog::level::debug;
    case Level::kInfo: return spdlog::level::info;
    case Level::kWarn: return spdlog::level::warn;
    case Level::kError: return spdlog::level::err;
    case Level::kOff: return spdlog::level::off;
  }
  return spdlog::level::off;
}

}  // namespace

bool enabled(Level l) { return spdlog::should_log(to_spdlog(l)); }

Level level() {
  switch (spdlog::get_level()) {
    case spdlog::level::trace: return Level::kTrace;
    case spdlog::level::debug: return Level::kDebug;
    case spdlog::level::info: return Level::kInfo;
    case spdlog::level::warn: return Level::kWarn;
    case spdlog::level::err:
    case spdlog::level::critical: return Level::kError;
    default: return Level::kOff;
  }
}

void set_level(Level l) { spdlog::set_level(to_spdlog(l)); }

// Every warning and log line passes here, and most quote names from a model or a folder:
// escaped once here, none can move the terminal's cursor or start a forged line of a CI log
// (a message is one line; the sink ends it).
void write(Level l, std::string_view message) { spdlog::log(to_spdlog(l), "{}", printable(message)); }

}  // namespace onnxrun::log
