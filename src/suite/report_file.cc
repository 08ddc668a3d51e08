#include "suite/report_file.h"

#include <optional>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/fail.h"
#include "io/file_bytes.h"
#include "suite/json_documents.h"
#include "suite/json_values.h"

namespace onnxrun {

ReportFile read_report_file(const std::string& path, const char* what) {
  // A regular file, its size reserved before it is read (io/file_bytes.h).
  std::optional<FileBytes> bytes;
  try {
    bytes.emplace(FileBytes::read(path, FileBytes::Limit::kMemoryOnly));
  } catch (const Error& e) {
    throw e.with_context(what);
  }
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(bytes->data(), bytes->data() + bytes->size());
  } catch (const nlohmann::json::exception& e) {
    fail(ErrorKind::kInvalid, "{} {}: not valid JSON ({})", what, path, e.what());
  }
  if (!j.is_object() || !j.contains("tests") || !j["tests"].is_array())
    fail(ErrorKind::kInvalid, "{} {}: not an onnx-run report (no \"tests\" array)", what, path);
  ReportFile f;
  f.path = path;
  try {
    if (j.contains("run")) f.run = run_info_from_json(j["run"]);
    if (j.contains("generator") && j["generator"].is_string()) f.run.generator = j["generator"].get<std::string>();
    f.merged = j.contains("merge");
    if (j.contains("summary") && j["summary"].is_object() && j["summary"].contains("seconds") &&
        j["summary"]["seconds"].is_number())
      f.seconds = j["summary"]["seconds"].get<double>();
    for (const auto& t : j["tests"]) f.tests.push_back(result_from_json(t));
  } catch (const Error& e) {
    throw e.with_context(std::string(what) + " " + path);
  }
  return f;
}

}  // namespace onnxrun
