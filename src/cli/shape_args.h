// Parsing the command line's --shape NAME=d0,d1,... arguments (NAME= for a 0-d input).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/tensor.h"

namespace onnxrun::cli {

// Throws Error(kUsage) with the expected form for a malformed argument or a name given twice.
std::map<std::string, Shape> parse_shape_args(const std::vector<std::string>& args);

}  // namespace onnxrun::cli
