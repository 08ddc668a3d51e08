#include "cli/number_options.h"

#include <charconv>
#include <cmath>
#include <functional>
#include <string>
#include <utility>

#include <fmt/core.h>

#include <CLI/CLI.hpp>

namespace onnxrun::cli {

namespace {

// A finite decimal number that `fits`; otherwise "expected <wanted>, got '<text>'".
CLI::Validator finite_number(std::function<bool(double)> fits, std::string wanted, const char* description) {
  return CLI::Validator(
      [fits = std::move(fits), wanted = std::move(wanted)](std::string& text) -> std::string {
        double v = 0;
        const char* end = text.data() + text.size();
        const auto [ptr, ec] = std::from_chars(text.data(), end, v);
        if (!text.empty() && ec == std::errc() && ptr == end && std::isfinite(v) && fits(v)) return "";
        return fmt::format("expected {}, got '{}'", wanted, text);
      },
      "", description);
}

}  // namespace

CLI::Validator non_negative_number() {
  return finite_number([](double v) { return v >= 0; }, "a number >= 0", "non-negative number");
}

CLI::Validator positive_number(double max) {
  const std::string wanted = max == HUGE_VAL ? "a number > 0" : fmt::format("a number > 0 and <= {:g}", max);
  return finite_number([max](double v) { return v > 0 && v <= max; }, wanted, "positive number");
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
