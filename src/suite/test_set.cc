#include "suite/test_set.h"

#include <algorithm>
#include <filesystem>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/fail.h"
#include "io/file_bytes.h"
#include "io/result_files.h"
#include "io/tensor_stream.h"
#include "io/test_data.h"
#include "suite/run_request.h"

namespace onnxrun {

// A test set's files are read (pread into memory of the run's own), never mapped:
// `onnx-run test` reads a set per job, and mapping, faulting in and unmapping a file
// takes the process's address-space lock each time, so that -j 2 ran at 1.23x the speed
// of -j 1 with mapped files and 1.43-1.68x with files read (docs/perf.md, "The runner at
// -j 2").
std::vector<InputSource> open_test_set_inputs(const Graph& g, const TestSetFiles& files) {
  std::vector<InputSource> inputs;
  for (size_t k = 0; k < files.inputs.size(); ++k) {
    TensorStream s = open_tensor_stream(files.inputs[k]);
    std::string name = test_set_input_name(g, s.name);
    const std::string file = std::filesystem::path(files.inputs[k]).filename().string();
    inputs.push_back(input_source(std::move(s), std::move(name), k, file, file));
  }
  return inputs;
}

std::vector<ExpectedOutput> open_test_set_expected(const Graph& g, const TestSetFiles& files) {
  // Every file is opened before they are counted: one that is no regular file (a FIFO at
  // output_1.pb) is named as such, not counted as one output too many.
  std::vector<TensorStream> opened;
  std::vector<std::string> names;
  for (const std::string& path : files.outputs) {
    opened.push_back(open_tensor_stream(path));
    names.push_back(opened.back().name);
  }
  const std::vector<size_t> slot = test_set_output_slots(g, files, names);
  std::vector<ExpectedOutput> expected(g.outputs.size());
  for (size_t k = 0; k < opened.size(); ++k) expected[slot[k]].stream = std::move(opened[k]);
  return expected;
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

std::optional<std::string> read_data_json(const std::string& file) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status entry = fs::symlink_status(file, ec);
  if (!fs::exists(entry)) return std::nullopt;
  // open() would say only "No such file or directory" of an entry that is there.
  if (fs::is_symlink(entry) && !fs::exists(fs::status(file, ec)))
    fail(ErrorKind::kIo, "{}: a dangling symbolic link (its target does not exist)", file);
  const FileBytes bytes = FileBytes::read(file, FileBytes::Limit::kMemoryOnly);
  return std::string(bytes.data(), bytes.size());
}

Tolerance test_set_tolerance(const std::string& model, Tolerance base, const std::vector<std::string>& outputs) {
  const std::filesystem::path file = std::filesystem::path(model).parent_path() / "data.json";
  const std::optional<std::string> text = read_data_json(file.string());
  if (!text) return base;
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(*text);
  } catch (const nlohmann::json::exception& e) {
    fail(ErrorKind::kInvalid, "{}: not valid JSON ({})", file.string(), e.what());
  }
  // "rtol": V for every output, or {"NAME": V, ...} per output.
  auto take = [&](const char* key, double& all, std::map<std::string, double>& per_output) {
    if (!j.is_object() || !j.contains(key)) return;
    auto number = [&](const nlohmann::json& v, const std::string& what) {
      if (!v.is_number() || v.get<double>() < 0)
        fail(ErrorKind::kInvalid, "{}: {} must be a non-negative number", file.string(), what);
      return v.get<double>();
    };
    if (!j[key].is_object()) {
      all = number(j[key], fmt::format("\"{}\"", key));
      return;
    }
    for (const auto& [name, v] : j[key].items()) {
      if (std::find(outputs.begin(), outputs.end(), name) == outputs.end())
        fail(ErrorKind::kUsage, "{}: \"{}\": {{\"{}\": {}}}: no value '{}' among the model's outputs ({})",
             file.string(), key, name, v.dump(), name, fmt::join(outputs, ", "));
      per_output[name] = number(v, fmt::format("\"{}\" of output \"{}\"", key, name));
    }
  };
  take("rtol", base.rtol, base.output_rtol);
  take("atol", base.atol, base.output_atol);
  return base;
}

}  // namespace onnxrun
