// One run of a model on inputs from the command line (-i files and literals, --npz) or
// made up from the declared types and shapes (random), reported as numpy-style text
// with statistics or as JSON; outputs written with -o in --format; every intermediate
// value dumped with --dump-intermediates.
#pragma once

#include "cli/run_command.h"
#include "exec/executor.h"

namespace onnxrun::cli {

// `random`: make up every required input (--seed, --range, --shape) instead of reading
// -i/--npz. `load_ms`: how long loading took, for the timings. Returns the exit code.
int run_direct(const RunOptions& o, const Executor& exec, bool random, double load_ms);

}  // namespace onnxrun::cli
