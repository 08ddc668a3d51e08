// The run options that make onnx-run quick to use from a shell and from numpy:
// numpy files in and out, inputs written on the command line or made up, readable and
// JSON output, and dumps of every intermediate value. Part of RunOptions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace onnxrun::cli {

struct RunExtras {
  std::vector<std::string> npz;     // --npz FILE: named arrays bound by name
  std::vector<std::string> shapes;  // --shape NAME=d0,d1,...
  bool random = false;              // --random: made-up inputs even when test sets exist
  uint64_t seed = 0;                // --seed
  std::string range = "-1,1";       // --range LO,HI
  std::string format = "pb";        // --format pb|npy|npz (for -o and --dump-intermediates)
  bool full = false;                // --full: print every element
  bool json = false;                // --json: inputs, outputs and timings as JSON on stdout
  std::string dump_dir;             // --dump-intermediates DIR
};

void add_run_extra_options(CLI::App& app, RunExtras& x);

// CLI11 splits an option value written "[a,b]" into the values a and b, which would
// break `-i [1,2]`. This returns argv with such -i values marked so that CLI11 keeps
// them whole; unmark_list_arg gives the text back.
std::vector<std::string> mark_list_args(int argc, char** argv);
std::string unmark_list_arg(const std::string& arg);

}  // namespace onnxrun::cli
