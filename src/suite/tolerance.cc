#include "suite/tolerance.h"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "core/error.h"
#include "core/fail.h"

namespace onnxrun {
namespace {

constexpr struct {
  ErrorStat stat;
  const char* name;
} kStatNames[] = {
    {ErrorStat::kElemwise, "elemwise"},
    {ErrorStat::kMax, "max"},
    {ErrorStat::kMean, "mean"},
    {ErrorStat::kMedian, "median"},
};

}  // namespace

std::optional<ErrorStat> parse_error_stat(const std::string& name) {
  for (const auto& s : kStatNames)
    if (name == s.name) return s.stat;
  return std::nullopt;
}

const char* error_stat_name(ErrorStat stat) {
  for (const auto& s : kStatNames)
    if (stat == s.stat) return s.name;
  return "?";
}

Tolerance Tolerance::for_output(const std::string& name) const {
  Tolerance t;
  t.rtol = rtol;
  t.atol = atol;
  t.stat = stat;
  t.exact = exact;
  t.max_ulp = max_ulp;
  const auto own_ulp = output_max_ulp.find(name);
  const auto own_rtol = output_rtol.find(name), own_atol = output_atol.find(name);
  if (own_rtol != output_rtol.end()) t.rtol = own_rtol->second;
  if (own_atol != output_atol.end()) t.atol = own_atol->second;
  // The tolerance named for an output is the one it is judged by: its own --max-ulp wins
  // over the global atol and rtol, and its own atol or rtol over a global --max-ulp
  // (`--max-ulp 5 --atol y:0` judged y by 5 ULPs).
  if (own_ulp != output_max_ulp.end()) t.max_ulp = own_ulp->second;
  else if (own_rtol != output_rtol.end() || own_atol != output_atol.end()) t.max_ulp.reset();
  return t;
}

void check_tolerance_names(const Tolerance& tol, const std::vector<std::string>& names, std::string_view among) {
  for (const auto& [option, named] : {std::pair{"--rtol", &tol.output_rtol}, {"--atol", &tol.output_atol}})
    for (const auto& [name, value] : *named)
      if (std::find(names.begin(), names.end(), name) == names.end())
        fail(ErrorKind::kUsage, "{} {}:{}: no value '{}' among {} ({})", option, name, value, name, among,
             fmt::join(names, ", "));
  for (const auto& [name, value] : tol.output_max_ulp)
    if (std::find(names.begin(), names.end(), name) == names.end())
      fail(ErrorKind::kUsage, "--max-ulp {}:{}: no value '{}' among {} ({})", name, value, name, among,
           fmt::join(names, ", "));
}

}  // namespace onnxrun
