// What -v and -vv add to a run on stderr. -v (spdlog debug): what was loaded, how each
// operator resolved, the kernel path and threads, and where the time went; -vv (trace):
// each value as the executor produces it. Silent at the default level, so a normal run
// pays for none of it.
#pragma once

#include <string>

#include "exec/executor.h"
#include "model/graph.h"

namespace onnxrun {

void log_loaded(const std::string& path, const Model& m, double load_ms);
void log_execution(const Executor& exec, size_t threads);
// "test_data_set_0: inputs read in 0.1 ms, ran in 0.02 ms" (label: a test set or "given inputs").
void log_timings(const std::string& label, double input_ms, double run_ms);
// `inner` (may be empty), preceded at -vv by a line for each value the executor produces.
ValueObserver traced(const Graph& g, ValueObserver inner);

}  // namespace onnxrun
