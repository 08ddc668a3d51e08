// `onnx-run MODEL ...`: run a model on given inputs, made-up inputs, or its test sets,
// and compare. Parses the options into a RunRequest for the run pipeline
// (suite/run.h), renders its report, and maps it to an exit code.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli/cli11_fwd.h"
#include "cli/named_values.h"

namespace onnxrun::cli {

struct RunOptions {
  std::string model;
  std::vector<std::string> inputs;  // "[NAME=]FILE|LIST"
  std::vector<std::string> npz;     // --npz FILE: named arrays bound by name
  std::string output_dir;
  std::string test_dir;
  ToleranceArgs tol;                  // --rtol, --atol, --check-error-stat
  std::vector<std::string> expected;  // --expected FILE|DIR|NAME=FILE
  bool quiet = false;
  bool expand_functions = false;    // run LeakyRelu-16 through its function body
  bool no_fuse = false;             // --no-fuse: no plan-time rewrite
  bool print_graph = false;         // print the graph as it will run, then stop
  std::vector<std::string> shapes;  // --shape NAME=d0,d1,...
  bool random = false;              // --random: made-up inputs even when test sets exist
  uint64_t seed = 0;                // --seed
  std::vector<std::string> ranges;  // --range LO,HI and NAME:LO,HI (cli/input_ranges.h)
  std::string save_inputs_dir;      // --save-inputs DIR
  std::string format = "pb";        // --format pb|npy|npz (for -o, --save-inputs, --dump-intermediates)
  bool full = false;                // --full: print every element
  bool json = false;                // --json: the report as JSON on stdout
  std::string dump_dir;             // --dump-intermediates DIR
  int threads = 0;                  // 0: one per core
  std::string exec_path = "auto";   // --exec-path auto|whole|blocks (hidden: for tests)
};

void add_run_options(CLI::App& app, RunOptions& opts);
int run_command(const RunOptions& opts);

// CLI11 splits an option value written "[a,b]" into the values a and b, which would
// break `-i [1,2]`. This returns argv with such -i values marked so that CLI11 keeps
// them whole; unmark_list_arg gives the text back.
std::vector<std::string> mark_list_args(int argc, char** argv);
std::string unmark_list_arg(const std::string& arg);

}  // namespace onnxrun::cli
