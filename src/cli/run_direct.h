// One run of a model on inputs from the command line (-i files and literals, --npz) or
// made up from the declared types and shapes (random), reported as numpy-style text
// with statistics or as JSON; outputs written with -o in --format; every intermediate
// value dumped with --dump-intermediates.
#pragma once

#include "cli/run_command.h"
#include <map>
#include <string>
#include <utility>

#include "exec/bind.h"
#include "exec/executor.h"

namespace onnxrun::cli {

// `random`: make up every required input (--seed, --range, --shape) instead of reading
// -i/--npz. `load_ms`: how long loading took, for the timings. Returns the exit code.
int run_direct(const RunOptions& o, const Executor& exec, bool random, double load_ms);

// "-i [NAME=]VALUE" as {NAME or "", VALUE}. The text before '=' is a name unless it
// looks like a path or a literal. Throws Error(kUsage) for "=VALUE" or "NAME=".
std::pair<std::string, std::string> split_input_arg(const std::string& arg);

// A feed from "-i [NAME=]FILE" (.pb, .npy) or "-i [NAME=][literal]" (typed and shaped
// by the graph input it binds to, or by `shapes`); `source` says where values came from.
Feed feed_from_arg(const Graph& g, const std::string& arg, size_t position, const std::map<std::string, Shape>& shapes,
                   std::string& source);

}  // namespace onnxrun::cli
