#include "suite/test_set.h"

#include <filesystem>

#include "core/error.h"
#include "exec/bind.h"
#include "io/tensor_file.h"
#include "io/test_data.h"
#include "suite/run_request.h"

namespace onnxrun {

TestSetData read_test_set(const Graph& g, const std::string& label, const TestSetFiles& files) {
  TestSetData data;
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
  const auto required = g.required_inputs();
  std::map<std::string, std::string> sources;
  for (const Feed& f : feeds) {
    if (!f.name.empty()) sources[f.name] = f.origin;
    else if (f.position < required.size()) sources[required[f.position]->name] = f.origin;
  }
  data.bound = bind_inputs(g, std::move(feeds));
  for (const ValueInfo* v : required) data.inputs.push_back({v->name, data.bound.at(v->name), sources[v->name]});

  if (files.outputs.size() != g.outputs.size())
    fail(ErrorKind::kInvalid, "{}: {} output files for the model's {} outputs", label, files.outputs.size(),
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
  for (NamedTensor& nt : expected) data.expected.push_back(std::move(nt.tensor));
  return data;
}

}  // namespace onnxrun
