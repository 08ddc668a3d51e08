#include "suite/expected_outputs.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.h"
#include "core/fail.h"
#include "io/result_files.h"
#include "suite/feeds.h"

namespace onnxrun {

std::vector<Tensor> read_expected_outputs(const Graph& g, const std::vector<std::string>& args) {
  const std::vector<std::string> outputs = g.output_names();
  std::vector<Tensor> expected(outputs.size());
  std::vector<std::string> given_by(outputs.size());
  auto put = [&](size_t slot, ResultTensor r, const std::string& arg) {
    if (expected[slot].valid())
      fail(ErrorKind::kInput, "--expected {}: output '{}' is already given by --expected {}", arg, outputs[slot],
           given_by[slot]);
    expected[slot] = r.as_declared(g.outputs[slot].dtype);  // numpy's bits of a bfloat16 output
    given_by[slot] = arg;
  };
  for (const std::string& arg : args) {
    const auto [name, path] = split_input_arg(arg, "--expected");
    std::vector<ResultTensor> set = read_result_files(path);
    if (!name.empty()) {
      size_t slot = outputs.size();
      for (size_t j = 0; j < outputs.size(); ++j)
        if (outputs[j] == name) slot = j;
      if (slot == outputs.size())
        fail(ErrorKind::kInput, "--expected {}: the model has no output '{}' (its outputs: {})", arg, name,
             fmt::join(outputs, ", "));
      if (set.size() != 1)
        fail(ErrorKind::kInput, "--expected {}: NAME=FILE takes one tensor; {} holds {}", arg, path, set.size());
      put(slot, std::move(set[0]), arg);
      continue;
    }
    std::vector<std::string> names;
    for (const ResultTensor& r : set) names.push_back(r.name);
    const std::vector<size_t> slot = match_by_name_then_position(outputs, names);
    for (size_t k = 0; k < set.size(); ++k) {
      if (slot[k] == outputs.size())
        fail(ErrorKind::kInput, "--expected {}: {} tensors for the model's {} outputs ({} is left over)", arg,
             set.size(), outputs.size(), set[k].file);
      put(slot[k], std::move(set[k]), arg);
    }
  }
  return expected;
}

}  // namespace onnxrun
