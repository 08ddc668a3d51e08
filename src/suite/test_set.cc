#include "suite/test_set.h"

#include <filesystem>

#include "core/error.h"
#include "exec/bind.h"
#include "exec/executor.h"
#include "io/tensor_file.h"
#include "io/test_data.h"

namespace onnxrun {

bool TestSetResult::passed() const {
  for (const OutputCheck& c : checks)
    if (!c.comparison.ok) return false;
  return true;
}

TestSetResult run_test_set(const Executor& exec, const std::string& dir, Tolerance tol) {
  return run_test_set(exec, dir, list_test_set(dir), tol);
}

TestSetResult run_test_set(const Executor& exec, const std::string& dir, const TestSetFiles& files, Tolerance tol) {
  const Graph& g = exec.graph();
  TestSetResult result;
  result.dir = dir;

  std::vector<Feed> feeds;
  for (size_t k = 0; k < files.inputs.size(); ++k) {
    NamedTensor nt = read_tensor_file(files.inputs[k]);
    Feed f;
    // Old exporters leave names empty or stale: a name binds only if it is an input.
    if (!nt.name.empty() && g.find_input(nt.name)) f.name = nt.name;
    f.position = k;
    f.tensor = std::move(nt.tensor);
    f.origin = std::filesystem::path(files.inputs[k]).filename().string();
    feeds.push_back(std::move(f));
  }
  auto bound = bind_inputs(g, std::move(feeds));
  for (const ValueInfo* v : g.required_inputs()) result.inputs.push_back(bound.at(v->name));

  if (files.outputs.size() != g.outputs.size())
    fail(ErrorKind::kInvalid, "{}: {} output files for the model's {} outputs", dir, files.outputs.size(),
         g.outputs.size());
  std::vector<NamedTensor> expected(g.outputs.size());
  std::vector<bool> taken(g.outputs.size(), false);
  std::vector<NamedTensor> unnamed;
  for (const std::string& path : files.outputs) {
    NamedTensor nt = read_tensor_file(path);
    size_t slot = g.outputs.size();
    for (size_t j = 0; j < g.outputs.size(); ++j)
      if (!nt.name.empty() && g.outputs[j].name == nt.name) slot = j;
    if (slot < g.outputs.size() && !taken[slot]) {
      taken[slot] = true;
      expected[slot] = std::move(nt);
    } else {
      unnamed.push_back(std::move(nt));
    }
  }
  // Files whose names match no graph output fill the remaining outputs in order.
  size_t next = 0;
  for (NamedTensor& nt : unnamed) {
    while (taken[next]) ++next;
    taken[next] = true;
    expected[next] = std::move(nt);
  }

  result.outputs = exec.run(std::move(bound));
  for (size_t j = 0; j < g.outputs.size(); ++j)
    result.checks.push_back({g.outputs[j].name, compare_tensors(expected[j].tensor, result.outputs[j], tol)});
  return result;
}

}  // namespace onnxrun
