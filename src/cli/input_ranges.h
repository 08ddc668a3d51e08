// Parsing the command line's --range arguments: `LO,HI` for every made-up input, and
// `NAME:LO,HI` for one input's own range beside it (as Polygraphy's --val-range x:[0,1]).
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace onnxrun::cli {

struct InputRanges {
  std::pair<double, double> all{-1.0, 1.0};                // LO,HI (default -1,1)
  std::map<std::string, std::pair<double, double>> named;  // NAME:LO,HI
};

// Each argument is LO,HI or NAME:LO,HI. The name is what comes before the last ':'
// (numbers have none; ONNX names such as "input:0" may). Throws Error(kUsage) for a
// malformed range, a second LO,HI, or a name given twice.
InputRanges parse_input_ranges(const std::vector<std::string>& args);

}  // namespace onnxrun::cli
