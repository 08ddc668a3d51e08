// Options that take a value for everything or for one name: `--atol 1e-5` and
// `--atol y:1e-3` (Polygraphy's NAME:VALUE form), given any number of times. The name is
// what comes before the last ':', so a TensorFlow-style output "y:0" is written
// `--atol y:0:1e-3`.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cli/cli11_fwd.h"
#include "suite/tolerance.h"

namespace onnxrun::cli {

struct NamedValue {
  std::string name;  // empty: the value is for every name
  std::string value;
};
// "NAME:VALUE" or "VALUE".
NamedValue split_named_value(const std::string& arg);

// Values given as VALUE (the last one wins) and NAME:VALUE (per name; the last one wins).
template <class T>
struct Named {
  std::optional<T> all;
  std::map<std::string, T> by_name;
};
using NamedNumbers = Named<double>;
using NamedUlps = Named<uint64_t>;
// Numbers >= 0. Throws Error(kUsage) naming `option` for a value that is not a finite
// number >= 0 or an empty name.
NamedNumbers parse_named_numbers(const std::vector<std::string>& args, const std::string& option);
// Whole numbers of ULPs (--max-ulp): decimal digits only (no sign, point or exponent),
// below 9.2e18, read as an integer so that every value is kept exactly. Throws
// Error(kUsage) naming `option` otherwise.
NamedUlps parse_named_ulps(const std::vector<std::string>& args, const std::string& option);

// --rtol/--atol [NAME:]V, --check-error-stat, --exact and --max-ulp [NAME:]N, added to
// `app` and stored as text.
struct ToleranceArgs {
  std::vector<std::string> rtol, atol;
  std::string stat = "elemwise";
  bool exact = false;
  std::vector<std::string> max_ulp;
};
// `defaults`: the values --help gives for --rtol and --atol.
void add_tolerance_options(CLI::App& app, ToleranceArgs& args, const std::string& note = "",
                           const Tolerance& defaults = {});
// Global values over `base`, per-output ones beside base's. Throws Error(kUsage).
Tolerance tolerance_from(const ToleranceArgs& args, Tolerance base = {});

}  // namespace onnxrun::cli
