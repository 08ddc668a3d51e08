#include "suite/test_set.h"

#include <filesystem>

#include "core/error.h"
#include "core/fail.h"
#include "exec/bind.h"
#include "io/result_files.h"
#include "io/tensor_file.h"
#include "io/test_data.h"
#include "suite/run_request.h"

namespace onnxrun {

TestSetData read_test_set(const Graph& g, const TestSetFiles& files) {
  TestSetData data;
  std::vector<Feed> feeds;
  for (size_t k = 0; k < files.inputs.size(); ++k) {
    NamedTensor nt = read_tensor_file(files.inputs[k]);
    Feed f;
    f.name = test_set_input_name(g, nt.name);
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

  test_set_output_slots(g, files);
  std::vector<NamedTensor> files_read;
  std::vector<std::string> names;
  // The expected outputs are only compared, through unaligned loads: a mapped file's
  // tensor is used where it lies whatever its offset (a 1e6-float output_0.pb's data
  // starts at byte 14), not copied.
  for (const std::string& path : files.outputs) {
    files_read.push_back(read_tensor_file(path, true, /*any_alignment=*/true));
    names.push_back(files_read.back().name);
  }
  const std::vector<size_t> slot = test_set_output_slots(g, files, names);
  data.expected.resize(g.outputs.size());
  for (size_t k = 0; k < files_read.size(); ++k) data.expected[slot[k]] = std::move(files_read[k].tensor);
  return data;
}

std::vector<size_t> test_set_output_slots(const Graph& g, const TestSetFiles& files,
                                          const std::vector<std::string>& names) {
  if (files.outputs.size() != g.outputs.size())
    fail(ErrorKind::kInvalid, "{} output files for the model's {} outputs", files.outputs.size(), g.outputs.size());
  return names.empty() ? std::vector<size_t>() : match_by_name_then_position(g.output_names(), names);
}

std::string test_set_input_name(const Graph& g, const std::string& proto_name) {
  return !proto_name.empty() && g.find_input(proto_name) ? proto_name : "";
}

}  // namespace onnxrun
