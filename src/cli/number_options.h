// Checks for numeric options that say what was wanted and what was given, in one line:
// `--rtol: expected a number >= 0, got '-1'` (CLI11 prefixes the option's name). They
// read the option's text before CLI11 converts it, so a negative value can never wrap
// around into a huge unsigned one (`--seed -1`) and `abc` gets the same message as `-1`.
#pragma once

#include <cmath>
#include <cstdint>

#include "cli/cli11_fwd.h"

namespace onnxrun::cli {

// A finite decimal number >= 0 (1e-3, 0.5, 7).
CLI::Validator non_negative_number();
// A finite decimal number > 0 (0.5, 2), and at most `max` when one is given.
CLI::Validator positive_number(double max = HUGE_VAL);
// A whole number in [min, max], written in decimal digits (no sign, no fraction).
CLI::Validator whole_number(uint64_t min, uint64_t max = UINT64_MAX);

}  // namespace onnxrun::cli
