// `onnx-run MODEL ...`: run a model on given inputs, or on its test sets, and compare.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/run_extras.h"
#include "exec/bind.h"
#include "suite/compare.h"

namespace onnxrun::cli {

struct RunOptions {
  std::string model;
  std::vector<std::string> inputs;  // "[NAME=]FILE"
  std::string output_dir;
  std::string test_dir;
  Tolerance tol;
  bool quiet = false;
  bool expand_functions = false;  // run LeakyRelu-16 through its function body
  bool print_graph = false;       // print the graph as it will run, then stop
  RunExtras extra;  // numpy files, literals, random inputs, --json, dumps (run_extras.h)
  int threads = 0;  // 0: one per core
};

void add_run_options(CLI::App& app, RunOptions& opts);
int run_command(const RunOptions& opts);

// A feed from "-i [NAME=]FILE" (the text before '=' is a name unless it looks like a
// path), read with read_input_file; `position` binds it when it has no name.

}  // namespace onnxrun::cli
