#include "cli/number_options.h"

#include <charconv>
#include <cmath>
#include <string>

#include <fmt/core.h>

namespace onnxrun::cli {

CLI::Validator non_negative_number() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        double v = 0;
        const char* end = text.data() + text.size();
        const auto [ptr, ec] = std::from_chars(text.data(), end, v);
        if (!text.empty() && ec == std::errc() && ptr == end && std::isfinite(v) && v >= 0) return "";
        return fmt::format("expected a number >= 0, got '{}'", text);
      },
      "", "non-negative number");
}

CLI::Validator whole_number(uint64_t min, uint64_t max) {
  return CLI::Validator(
      [min, max](std::string& text) -> std::string {
        uint64_t v = 0;
        const char* end = text.data() + text.size();
        const auto [ptr, ec] = std::from_chars(text.data(), end, v);  // takes no sign
        if (!text.empty() && ec == std::errc() && ptr == end && v >= min && v <= max) return "";
        if (max == UINT64_MAX) return fmt::format("expected a whole number >= {}, got '{}'", min, text);
        return fmt::format("expected a whole number from {} to {}, got '{}'", min, max, text);
      },
      "", "whole number");
}

}  // namespace onnxrun::cli
