#include "cli/named_values.h"

#include <charconv>
#include <cmath>

#include <fmt/core.h>

#include <CLI/CLI.hpp>

#include "core/error.h"
#include "core/fail.h"

namespace onnxrun::cli {
namespace {

// The number `text` is, when it is a finite decimal >= 0.
std::optional<double> non_negative(const std::string& text) {
  double v = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc() || ptr != end || !std::isfinite(v) || v < 0) return std::nullopt;
  return v;
}

// A ULP distance is below this bound: 2^63 and more is far beyond any real distance, and
// kUlpInfinite (suite/ulp.h) is not a bound anyone can give.
constexpr uint64_t kUlpBoundLimit = 9'200'000'000'000'000'000u;

// The whole number of ULPs `text` is: decimal digits only, every one of them read.
std::optional<uint64_t> ulp_count(const std::string& text) {
  uint64_t v = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc() || ptr != end || v >= kUlpBoundLimit) return std::nullopt;
  return v;
}

// What is wrong with one [NAME:]V argument, or "": CLI11's check (on parsing) and
// parse_named's alike.
std::string problem_with(const std::string& arg) {
  const NamedValue nv = split_named_value(arg);
  if (arg.find(':') != std::string::npos && nv.name.empty())
    return fmt::format("expected [NAME:]V with a name before ':', got '{}'", arg);
  if (!non_negative(nv.value))
    return nv.name.empty() ? fmt::format("expected a number >= 0, got '{}'", arg)
                           : fmt::format("expected NAME:NUMBER with a number >= 0, got '{}'", arg);
  return "";
}

std::string ulp_problem_with(const std::string& arg) {
  const NamedValue nv = split_named_value(arg);
  if (arg.find(':') != std::string::npos && nv.name.empty())
    return fmt::format("expected [NAME:]N with a name before ':', got '{}'", arg);
  if (!ulp_count(nv.value))
    return fmt::format("expected {}a whole number of ULPs (decimal digits, below 9.2e18), got '{}'",
                       nv.name.empty() ? "" : "NAME:N with N ", arg);
  return "";
}

// Each of `args` checked by `problem` (a message, or empty) and its value read by `read`.
template <class T, class Read>
Named<T> parse_named(const std::vector<std::string>& args, const std::string& option,
                     std::string (*problem)(const std::string&), Read read) {
  Named<T> out;
  for (const std::string& arg : args) {
    if (const std::string why = problem(arg); !why.empty()) fail(ErrorKind::kUsage, "{}: {}", option, why);
    const NamedValue nv = split_named_value(arg);
    const T v = *read(nv.value);
    if (nv.name.empty()) out.all = v;
    else out.by_name[nv.name] = v;
  }
  return out;
}

}  // namespace

NamedValue split_named_value(const std::string& arg) {
  const size_t colon = arg.rfind(':');
  if (colon == std::string::npos) return {"", arg};
  return {arg.substr(0, colon), arg.substr(colon + 1)};
}

NamedNumbers parse_named_numbers(const std::vector<std::string>& args, const std::string& option) {
  return parse_named<double>(args, option, problem_with, non_negative);
}

NamedUlps parse_named_ulps(const std::vector<std::string>& args, const std::string& option) {
  return parse_named<uint64_t>(args, option, ulp_problem_with, ulp_count);
}

void add_tolerance_options(CLI::App& app, ToleranceArgs& a, const std::string& note, const Tolerance& defaults) {
  app.add_option("--rtol", a.rtol, "relative tolerance for comparisons; NAME:V for one output (repeatable)" + note)
      ->type_name("[NAME:]V")
      ->default_str(fmt::format("{}", defaults.rtol))
      ->check(CLI::Validator(problem_with, "", "[NAME:]number >= 0"));
  app.add_option("--atol", a.atol, "absolute tolerance for comparisons; NAME:V for one output (repeatable)" + note)
      ->type_name("[NAME:]V")
      ->default_str(fmt::format("{}", defaults.atol))
      ->check(CLI::Validator(problem_with, "", "[NAME:]number >= 0"));
  app.add_option("--check-error-stat", a.stat,
                 "what must be within tolerance: every element (elemwise: |err| <= atol + rtol*|expected|), or the "
                 "max, mean or median error (absolute within atol or relative within rtol, as Polygraphy)")
      ->check(CLI::IsMember({"elemwise", "max", "mean", "median"}))
      ->capture_default_str();
  app.add_flag("--exact", a.exact,
               "every element must be bit-identical (sign of zero and NaN payload included); atol and rtol do not "
               "apply");
  app.add_option("--max-ulp", a.max_ulp,
                 "every element within N units in the last place of the tensor's own type, instead of atol and rtol "
                 "(+0 and -0 are 0 apart, NaN matches NaN, NaN or inf against anything else is never within; "
                 "integers and bool must still be equal); NAME:N for one output (repeatable)")
      ->type_name("[NAME:]N")
      ->check(CLI::Validator(ulp_problem_with, "", "[NAME:]whole number"));
}

Tolerance tolerance_from(const ToleranceArgs& a, Tolerance base) {
  const NamedNumbers rtol = parse_named_numbers(a.rtol, "--rtol");
  const NamedNumbers atol = parse_named_numbers(a.atol, "--atol");
  if (rtol.all) base.rtol = *rtol.all;
  if (atol.all) base.atol = *atol.all;
  for (const auto& [name, v] : rtol.by_name) base.output_rtol[name] = v;
  for (const auto& [name, v] : atol.by_name) base.output_atol[name] = v;
  const std::optional<ErrorStat> stat = parse_error_stat(a.stat);
  if (!stat) fail(ErrorKind::kUsage, "--check-error-stat {}: expected elemwise, max, mean or median", a.stat);
  base.stat = *stat;
  const NamedUlps ulps = parse_named_ulps(a.max_ulp, "--max-ulp");
  if (ulps.all) base.max_ulp = *ulps.all;
  for (const auto& [name, v] : ulps.by_name) base.output_max_ulp[name] = v;
  base.exact = base.exact || a.exact;
  if (base.exact && !a.max_ulp.empty()) fail(ErrorKind::kUsage, "--exact and --max-ulp: give one of them");
  // --exact ignores atol and rtol: one above 0 beside it, even for one output, would be
  // dropped without a word (0 asks for nothing --exact does not).
  for (const auto& [option, given] : {std::pair{"--atol", &atol}, {"--rtol", &rtol}}) {
    bool loosens = given->all && *given->all != 0;
    for (const auto& [name, v] : given->by_name) loosens = loosens || v != 0;
    if (a.exact && loosens) fail(ErrorKind::kUsage, "--exact and {} above 0: give one of them", option);
  }
  if ((base.exact || !a.max_ulp.empty()) && base.stat != ErrorStat::kElemwise)
    fail(ErrorKind::kUsage, "--check-error-stat {} goes with atol and rtol, not with {}", a.stat,
         base.exact ? "--exact" : "--max-ulp");
  return base;
}

}  // namespace onnxrun::cli
