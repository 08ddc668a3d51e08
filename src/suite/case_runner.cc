#include "suite/case_runner.h"

#include <chrono>
#include <climits>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <new>
#include <regex>
#include <set>
#include <thread>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <google/protobuf/io/coded_stream.h>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "exec/executor.h"
#include "io/file_bytes.h"
#include "model/load.h"
#include "onnx/onnx.pb.h"
#include "ops/registry.h"
#include "suite/test_set.h"

namespace fs = std::filesystem;

namespace onnxrun {
namespace {

// Every (domain, op) the model uses that the registry cannot serve at the model's
// opset, as "Conv", "LeakyRelu (opset 99)" or "com.microsoft.Gelu". Empty when all
// resolve; a malformed model is left for the loader to describe.
std::vector<std::string> missing_ops(const onnx::ModelProto& proto, const OpRegistry& registry) {
  std::map<std::string, int64_t> imports;
  for (const auto& imp : proto.opset_import()) imports[canonical_domain(imp.domain())] = imp.version();
  std::set<std::string> seen;
  std::vector<std::string> missing;
  for (const auto& node : proto.graph().node()) {
    const std::string domain = canonical_domain(node.domain());
    auto imp = imports.find(domain);
    if (imp == imports.end() || registry.find(domain, node.op_type(), imp->second)) continue;
    std::string key = domain.empty() ? node.op_type() : domain + "." + node.op_type();
    if (!registry.versions(domain, node.op_type()).empty()) key += fmt::format(" (opset {})", imp->second);
    if (seen.insert(key).second) missing.push_back(key);
  }
  return missing;
}

onnx::ModelProto parse_model(const FileBytes& bytes) {
  check_model_size(bytes.size());
  onnx::ModelProto proto;
  google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(bytes.data()),
                                            static_cast<int>(bytes.size()));
  in.SetTotalBytesLimit(INT_MAX);
  if (bytes.size() == 0 || !proto.ParseFromCodedStream(&in) || !in.ConsumedEntireMessage())
    fail(ErrorKind::kInvalid, "not a valid ONNX model (protobuf parse failed)");
  return proto;
}

bool matches(const std::string& pattern, const std::string& name) {
  return !pattern.empty() && std::regex_search(name, std::regex(pattern));
}

std::string missing_model_message(const TestCase& t) {
  std::string url;
  try {
    std::ifstream f(fs::path(t.dir) / "data.json");
    const auto j = nlohmann::json::parse(f);
    if (j.contains("url") && j["url"].is_string()) url = j["url"].get<std::string>();
  } catch (const std::exception&) {
  }
  return fmt::format("no model file in {}: data.json names it by URL{}{}; onnx-run does not download models", t.dir,
                     url.empty() ? "" : " ", url);
}

// Runs the test's sets; returns the outcome and fills r.message / r.sets.
void run_sets(const TestCase& t, const Executor& exec, Tolerance tol, TestResult& r) {
  std::vector<std::string> failures;
  auto check = [&](const std::string& label, const TestSetResult& s) {
    ++r.sets;
    if (s.passed()) return;
    std::string lines;
    for (const OutputCheck& c : s.checks)
      if (!c.comparison.ok) lines += fmt::format("{}{}: {}", lines.empty() ? "" : "\n", label, c.comparison.summary(c.name));
    failures.push_back(lines);
  };
  if (t.kind == CaseKind::kFile) {
    const std::string label = fs::path(t.model).stem().string() + "_*.pb";
    // ONNX ships the light models with expected outputs only; their inputs come from a
    // generator onnx-run does not reproduce. Not broken data: something onnx-run cannot run.
    const auto required = exec.graph().required_inputs();
    if (t.files.inputs.empty() && !required.empty())
      fail(ErrorKind::kUnsupported, "{}: no input data for input '{}' (the light layout gives expected outputs only)",
           label, required.front()->name);
    try {
      check(label, run_test_set(exec, label, t.files, tol));
    } catch (const Error& e) {
      throw e.with_context(label);
    }
  } else {
    if (t.sets.empty()) fail(ErrorKind::kInvalid, "no test_data_set_* folders beside {}", t.model);
    for (const std::string& dir : t.sets) {
      const std::string label = fs::path(dir).filename().string();
      try {
        check(label, run_test_set(exec, dir, tol));
      } catch (const Error& e) {
        throw e.with_context(label);
      }
    }
  }
  if (failures.empty()) {
    r.outcome = Outcome::kPassed;
    return;
  }
  r.outcome = Outcome::kFailed;
  for (const std::string& f : failures) r.message += (r.message.empty() ? "" : "\n") + f;
}

}  // namespace

Tolerance tolerance_for(const std::string& dir, Tolerance base) {
  const fs::path file = fs::path(dir) / "data.json";
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return base;
  std::ifstream in(file);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    fail(ErrorKind::kInvalid, "{}: not valid JSON ({})", file.string(), e.what());
  }
  auto take = [&](const char* key, double& into) {
    if (!j.is_object() || !j.contains(key)) return;
    if (!j[key].is_number() || j[key].get<double>() < 0)
      fail(ErrorKind::kInvalid, "{}: \"{}\" must be a non-negative number", file.string(), key);
    into = j[key].get<double>();
  };
  take("rtol", base.rtol);
  take("atol", base.atol);
  return base;
}

std::string unsupported_cause(const std::string& message) {
  struct Rule {
    std::regex re;
    const char* key;  // fmt pattern over the first two groups
  };
  static const std::vector<Rule> kRules = [] {
    std::vector<Rule> r;
    auto add = [&](const char* re, const char* key) { r.push_back({std::regex(re), key}); };
    add(R"(input \d+ has type (\w+); (\w+) )", "{1}({0})");
    add(R"((\w+) has no kernel for (\w+))", "{0}({1})");
    add(R"(operator (\S+) \(domain ai\.onnx,)", "{0}");
    add(R"(operator (\S+) \(domain (\S+),)", "{1}.{0}");
    add(R"((\w+): opset (\d+) has no implemented version)", "{0} (opset {1})");
    add(R"(domain '([^']+)' \(opset)", "domain {0}");
    add(R"(tensors of type (\w+) are not supported)", "type {0}");
    add(R"(is not a tensor)", "non-tensor value");
    add(R"(external data)", "external data");
    add(R"(model-local functions)", "model-local functions");
    add(R"(sparse)", "sparse tensors");
    add(R"(attribute '[^']*' has type (\w+))", "attribute type {0}");
    add(R"(numpy files)", ".npy files");
    add(R"(larger than the 2 GiB)", "model over 2 GiB");
    add(R"(no input data for input)", "no input data (light layout)");
    return r;
  }();
  std::smatch m;
  for (const Rule& rule : kRules)
    if (std::regex_search(message, m, rule.re))
      return fmt::format(fmt::runtime(rule.key), m.size() > 1 ? m[1].str() : "", m.size() > 2 ? m[2].str() : "");
  // Unknown form: drop "path: node 'x' (Op): " context and keep it short.
  std::string key = message;
  if (size_t p = key.rfind(": "); p != std::string::npos) key = key.substr(p + 2);
  if (key.size() > 60) key = key.substr(0, 57) + "...";
  return key;
}

TestResult run_case(const TestCase& t, const CaseOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  TestResult r;
  r.name = t.name;
  r.model = t.kind == CaseKind::kMissingModel ? t.dir : t.model;
  try {
    if (matches(o.crash_on, t.name)) std::raise(SIGSEGV);
    while (matches(o.hang_on, t.name)) std::this_thread::sleep_for(std::chrono::seconds(1));
    if (t.kind == CaseKind::kMissingModel) {
      r.outcome = Outcome::kUnsupported;
      r.causes = {"model not present (download by URL)"};
      r.message = missing_model_message(t);
    } else {
      const Tolerance tol = tolerance_for(t.dir, o.tol);
      const FileBytes bytes = FileBytes::read(t.model, /*regular_only=*/true);
      std::vector<std::string> missing;
      try {
        missing = missing_ops(parse_model(bytes), OpRegistry::builtin());
      } catch (const Error& e) {
        throw e.with_context(t.model);
      }
      if (!missing.empty()) {
        r.outcome = Outcome::kUnsupported;
        r.causes = missing;
        r.message = fmt::format("not implemented: {}", fmt::join(missing, ", "));
      } else {
        Model model = load_model_from_bytes(bytes.data(), bytes.size(), t.dir);
        Executor exec(std::move(model.graph));
        run_sets(t, exec, tol, r);
      }
    }
  } catch (const Error& e) {
    r.message = e.what();
    if (e.kind() == ErrorKind::kUnsupported) {
      r.outcome = Outcome::kUnsupported;
      r.causes = {unsupported_cause(r.message)};
    } else {
      r.outcome = Outcome::kError;
    }
  } catch (const std::bad_alloc&) {
    r.outcome = Outcome::kError;
    r.message = "out of memory";
  } catch (const std::exception& e) {
    r.outcome = Outcome::kError;
    r.message = fmt::format("internal error: {}", e.what());
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace onnxrun
