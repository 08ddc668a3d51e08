#include "cli/input_ranges.h"

#include <cstdlib>

#include "core/error.h"
#include "core/fail.h"

namespace onnxrun::cli {
namespace {

// "LO,HI" of --range. Throws Error(kUsage) unless both are numbers and LO <= HI.
std::pair<double, double> parse_range(const std::string& text) {
  const size_t comma = text.find(',');
  char* end1 = nullptr;
  char* end2 = nullptr;
  if (comma != std::string::npos) {
    const std::string a = text.substr(0, comma), b = text.substr(comma + 1);
    const double lo = std::strtod(a.c_str(), &end1);
    const double hi = std::strtod(b.c_str(), &end2);
    if (!a.empty() && !b.empty() && *end1 == 0 && *end2 == 0 && lo <= hi) return {lo, hi};
  }
  fail(ErrorKind::kUsage, "--range {}: expected LO,HI with LO <= HI (for example --range=-5,5 or --range x:0,1)", text);
}

}  // namespace

InputRanges parse_input_ranges(const std::vector<std::string>& args) {
  InputRanges out;
  bool have_all = false;
  for (const std::string& arg : args) {
    const size_t colon = arg.rfind(':');
    if (colon == std::string::npos) {
      if (have_all) fail(ErrorKind::kUsage, "--range {}: a range for every input is given twice", arg);
      out.all = parse_range(arg);
      have_all = true;
      continue;
    }
    const std::string name = arg.substr(0, colon);
    if (name.empty()) fail(ErrorKind::kUsage, "--range {}: expected NAME:LO,HI (for example --range x:0,1)", arg);
    std::pair<double, double> range;
    try {
      range = parse_range(arg.substr(colon + 1));
    } catch (const Error&) {
      fail(ErrorKind::kUsage, "--range {}: expected NAME:LO,HI with LO <= HI (for example --range x:0,1)", arg);
    }
    if (!out.named.emplace(name, range).second) fail(ErrorKind::kUsage, "--range gives '{}' twice", name);
  }
  return out;
}

}  // namespace onnxrun::cli
