#include "suite/test_set.h"

#include <filesystem>

#include "core/error.h"
#include "core/fail.h"
#include "exec/bind.h"
#include "io/result_files.h"
#include "io/tensor_file.h"
#include "io/tensor_stream.h"
#include "io/test_data.h"
#include "suite/run_request.h"

namespace onnxrun {
namespace {

// A test set's file read whole: through its stream (pread into memory of the run's own)
// when one opens, else by the whole-file reader, which knows every other form of
// TensorProto. Read, not mapped: `onnx-run test` reads a set per job, and mapping,
// faulting in and unmapping a file takes the process's address-space lock each time, so
// that -j 2 ran at 1.23x the speed of -j 1 with mapped files and 1.43-1.68x with files
// read (docs/perf.md, "The runner at -j 2").
NamedTensor read_test_file(const std::string& path) {
  if (std::optional<TensorStream> s = open_tensor_stream(path)) return {s->name, read_whole(*s)};
  return read_tensor_file(path);
}

}  // namespace

TestSetData read_test_set(const Graph& g, const TestSetFiles& files) {
  TestSetData data;
  std::vector<Feed> feeds;
  for (size_t k = 0; k < files.inputs.size(); ++k) {
    NamedTensor nt = read_test_file(files.inputs[k]);
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
  for (const std::string& path : files.outputs) {
    files_read.push_back(read_test_file(path));
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
