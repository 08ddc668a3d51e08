// `onnx-run compare A B`: two result sets (io/result_files.h: folders of .pb/.npy,
// .npz archives, single files, in any mix), their tensors paired by name, else by
// position, each pair compared as a run's outputs are (suite/compare.h). For two
// --dump-intermediates folders of one model, the pairs follow the graph's order, so the
// first one that differs is where the two runs part.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "suite/compare.h"

namespace onnxrun {

class ThreadPool;

struct ValuePair {
  std::string name;                      // A's name for it (B's when only B has it); may be empty
  std::string file_a, file_b;            // empty on the side that lacks it
  std::optional<Comparison> comparison;  // none when one side lacks it
  bool same() const { return comparison && comparison->ok; }
};

struct SetsComparison {
  std::string a, b, model;        // as given; model empty when none
  std::vector<ValuePair> values;  // in the graph's order with a model (then the rest), else A's, then B's extras
  // The first value in that order that differs or is missing on one side; none when all agree.
  std::optional<size_t> first_divergent;
  bool equal() const { return !first_divergent; }
  // Why they are not equal, as one line: "1 of 3 values differ (y: 3 of 60 elements
  // beyond tolerance, max abs err 0.5, max ulp 4; z: only in A)"; empty when equal.
  std::string mismatch_summary() const;
};

// Told, as a comparison proceeds, which value (its name), which pass over it (the medians
// of many errors take a second), and how many of its elements are done.
using CompareProgress = std::function<void(const std::string& value, int pass, int64_t done, int64_t numel)>;

// Each pair is read block by block, both sides, so two sets of any size are compared in a
// few MiB (a file that cannot be streamed is read whole); a large pair is split across
// up to four threads of `pool` (null: the calling thread alone), with the same result.
// Throws what read_result_files and load_model throw, and what reading a file's data throws.
SetsComparison compare_result_sets(const std::string& a, const std::string& b, const Tolerance& tol,
                                   const std::string& model = "", const CompareProgress& progress = nullptr,
                                   ThreadPool* pool = nullptr);

}  // namespace onnxrun
