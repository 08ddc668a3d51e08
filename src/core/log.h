// The library's diagnostics: log::warn("input '{}': dim {} set to 1", name, k). The
// format string is checked at compile time and formatted only when the level is on.
// Where messages go (stderr, held until the command ends) is the command line's choice
// (cli/logging.h); this header keeps spdlog, which is heavy to compile, out of every file
// that only wants to say something.
#pragma once

#include <string_view>
#include <utility>

#include <fmt/core.h>

namespace onnxrun::log {

enum class Level { kTrace, kDebug, kInfo, kWarn, kError, kOff };

bool enabled(Level level);
Level level();
void set_level(Level level);
void write(Level level, std::string_view message);

template <typename... Args>
void at(Level level, fmt::format_string<Args...> f, Args&&... args) {
  if (enabled(level)) write(level, fmt::vformat(f, fmt::make_format_args(args...)));
}
template <typename... Args>
void trace(fmt::format_string<Args...> f, Args&&... args) {
  at(Level::kTrace, f, std::forward<Args>(args)...);
}
template <typename... Args>
void debug(fmt::format_string<Args...> f, Args&&... args) {
  at(Level::kDebug, f, std::forward<Args>(args)...);
}
template <typename... Args>
void info(fmt::format_string<Args...> f, Args&&... args) {
  at(Level::kInfo, f, std::forward<Args>(args)...);
}
template <typename... Args>
void warn(fmt::format_string<Args...> f, Args&&... args) {
  at(Level::kWarn, f, std::forward<Args>(args)...);
}

// The level set for as long as it lives (tests and fuzz targets that run quiet).
class ScopedLevel {
 public:
  explicit ScopedLevel(Level l) : saved_(level()) { set_level(l); }
  ~ScopedLevel() { set_level(saved_); }
  ScopedLevel(const ScopedLevel&) = delete;
  ScopedLevel& operator=(const ScopedLevel&) = delete;

 private:
  Level saved_;
};

}  // namespace onnxrun::log
