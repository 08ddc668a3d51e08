// "Did you mean ...?": the nearest of some names to a misspelled one, by edit distance
// (insertions, deletions, substitutions and swaps of neighbours each count 1).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cli/cli11_fwd.h"

namespace onnxrun::cli {

size_t edit_distance(const std::string& a, const std::string& b);

// The candidate nearest to `word` when it is close enough to be a slip of the keyboard
// (distance at most 1 for words up to 4 letters, 2 up to 8, else 3); ties go to the first.
std::optional<std::string> nearest_name(const std::string& word, const std::vector<std::string>& candidates);

// argv[1] that names no command is a model path; when no such file exists and the word
// is close to a command name, that command (`onnx-run tset` -> "test").
std::optional<std::string> misspelt_command(const std::string& arg, const std::vector<std::string>& commands);

// "usage: onnx-run info MODEL [OPTIONS]": the usage line of the app's --help.
std::string usage_line(const CLI::App& app);

// The first word of `args` that looks like an option and is none of `app`'s ("--ful"),
// skipping the values of options that take one (`--range -5,5`) and negative numbers.
std::optional<std::string> first_unknown_option(const CLI::App& app, const std::vector<std::string>& args);

// The real option nearest to an unknown one: by edit distance for long options, and for
// a one-letter option the conventional spelling (-V is --version) or the other case.
std::optional<std::string> nearest_option(const CLI::App& app, const std::string& unknown);

}  // namespace onnxrun::cli
