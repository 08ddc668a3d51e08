#include "cli/input_ranges.h"

#include <cmath>
#include <cstdlib>

#include "core/error.h"
#include "core/fail.h"

namespace onnxrun::cli {
namespace {

// "LO,HI" of --range (`arg`, the whole argument, for the message). Throws Error(kUsage)
// unless both are finite numbers and LO <= HI (-inf,inf, or 1e999, made every value NaN
// or infinite).
std::pair<double, double> parse_range(const std::string& text, const std::string& arg) {
  const size_t comma = text.find(',');
  char* end1 = nullptr;
  char* end2 = nullptr;
  if (comma != std::string::npos) {
    const std::string a = text.substr(0, comma), b = text.substr(comma + 1);
    const double lo = std::strtod(a.c_str(), &end1);
    const double hi = std::strtod(b.c_str(), &end2);
    const bool numbers = !a.empty() && !b.empty() && *end1 == 0 && *end2 == 0;
    if (numbers && (!std::isfinite(lo) || !std::isfinite(hi)))
      fail(ErrorKind::kUsage, "--range {}: LO and HI must be finite numbers", arg);
    if (numbers && lo <= hi) return {lo, hi};
  }
  fail(ErrorKind::kUsage, "--range {}: expected [NAME:]LO,HI with LO <= HI (for example --range=-5,5 or --range x:0,1)",
       arg);
}

}  // namespace

InputRanges parse_input_ranges(const std::vector<std::string>& args) {
  InputRanges out;
  bool have_all = false;
  for (const std::string& arg : args) {
    const size_t colon = arg.rfind(':');
    if (colon == std::string::npos) {
      if (have_all) fail(ErrorKind::kUsage, "--range {}: a range for every input is given twice", arg);
      out.all = parse_range(arg, arg);
      have_all = true;
      continue;
    }
    const std::string name = arg.substr(0, colon);
    if (name.empty()) fail(ErrorKind::kUsage, "--range {}: expected NAME:LO,HI (for example --range x:0,1)", arg);
    const std::pair<double, double> range = parse_range(arg.substr(colon + 1), arg);
    if (!out.named.emplace(name, range).second) fail(ErrorKind::kUsage, "--range gives '{}' twice", name);
  }
  return out;
}

}  // namespace onnxrun::cli
