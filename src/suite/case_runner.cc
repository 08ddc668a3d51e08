#include "suite/case_runner.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <new>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/fail.h"
#include "io/test_data.h"
#include "suite/run.h"
#include "suite/test_set.h"

namespace fs = std::filesystem;

namespace onnxrun {
namespace {

bool matches(const std::string& pattern, const std::string& name) {
  return !pattern.empty() && NamePattern(pattern, "--debug-crash-on/--debug-hang-on").found_in(name);
}

std::string missing_model_message(const TestCase& t) {
  std::string url;
  try {  // read as the data.json of a model is (never blocking on a FIFO); for the URL alone
    const auto j = nlohmann::json::parse(read_data_json((fs::path(t.dir) / "data.json").string()).value_or(""));
    if (j.contains("url") && j["url"].is_string()) url = j["url"].get<std::string>();
  } catch (const std::exception&) {
  }
  return fmt::format("no model file in {}: data.json names it by URL{}{}; onnx-run does not download models", t.dir,
                     url.empty() ? "" : " ", url);
}

// The causes of an unsupported error, as the table of causes counts them: the loader
// names every unsupported node; an error that names none counts under its message
// (without the context in front, which differs from test to test).
std::vector<std::string> cause_keys(const Error& e) {
  std::vector<std::string> keys;
  for (const Cause& c : e.causes())
    if (std::find(keys.begin(), keys.end(), c.key()) == keys.end()) keys.push_back(c.key());
  if (keys.empty()) {
    std::string key = e.what();
    if (size_t p = key.rfind(": "); p != std::string::npos) key = key.substr(p + 2);
    if (key.size() > 60) key = key.substr(0, 57) + "...";
    keys.push_back(key);
  }
  return keys;
}

// Runs the test's sets through the run pipeline; fills r.outcome, r.message, r.sets.
void run_sets(const TestCase& t, const CaseOptions& o, TestResult& r) {
  RunRequest request;
  request.model = t.model;
  request.source = FeedSource::kTestSets;
  request.tol = o.tol;  // run_model reads the data.json beside the model, as every door does
  request.check_tolerance_names = false;
  request.no_fuse = o.no_fuse;
  request.threads = o.threads;  // 1 unless --threads: tests run side by side (-j)
  request.keep_tensors = false;
  request.digests = false;  // nothing here prints values
  request.test_sets = test_sets_of(t);
  const RunReport report = run_model(request);  // loads the model even with no sets: its errors come first
  r.outputs = report.output_names;
  for (const std::string& w : report.warnings()) r.warnings.push_back(printable(w));  // as the message is
  if (report.runs.empty()) {
    // A model alone is not a broken test: there is nothing to compare (onnx_test_runner skips it).
    r.outcome = Outcome::kNoData;
    r.message = fmt::format("no test data: no test_data_set_* folders beside {}", t.model);
    return;
  }
  std::vector<std::string> failures;
  for (const SetRun& run : report.runs) {
    ++r.sets;
    if (run.error) {
      // ONNX ships the light models with expected outputs only; their inputs come from
      // a generator onnx-run does not reproduce. Not broken data: something onnx-run
      // cannot run.
      if (t.kind == CaseKind::kFile && t.files.inputs.empty() && run.error->kind() == ErrorKind::kInput) {
        Cause c;
        c.feature = "no input data (light layout)";
        throw Error(
            ErrorKind::kUnsupported,
            fmt::format("{}: no input data for the model's inputs (the light layout gives expected outputs only)",
                        run.label))
            .with_causes({c});
      }
      throw run.labelled_error();
    }
    // One line per output that differs: its names (the set's folder, the output) escaped,
    // so that the report's lines are the runner's own wherever they are shown.
    std::string lines;
    for (const OutputVerdict& c : run.checks)
      if (!c.comparison.ok)
        lines +=
            (lines.empty() ? "" : "\n") + printable(fmt::format("{}: {}", run.label, c.comparison.summary(c.name)));
    if (!lines.empty()) failures.push_back(lines);
  }
  r.outcome = failures.empty() ? Outcome::kPassed : Outcome::kFailed;
  for (const std::string& f : failures) r.message += (r.message.empty() ? "" : "\n") + f;
}

}  // namespace

std::vector<TestSetSpec> test_sets_of(const TestCase& t) {
  std::vector<TestSetSpec> sets;
  if (t.kind == CaseKind::kFile) {
    const std::string stem = fs::path(t.model).stem().string();
    check_numbered_files(t.files.inputs, stem + "_input", t.dir);
    check_numbered_files(t.files.outputs, stem + "_output", t.dir);
    sets.push_back({stem + "_*.pb", t.dir, t.files});
    return sets;
  }
  for (const std::string& dir : t.sets) sets.push_back({fs::path(dir).filename().string(), dir, list_test_set(dir)});
  return sets;
}

TestResult run_case(const TestCase& t, const CaseOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  TestResult r;
  r.name = t.name;
  r.model = reported_model(t);
  try {
    if (matches(o.crash_on, t.name)) std::raise(SIGSEGV);
    while (matches(o.hang_on, t.name)) std::this_thread::sleep_for(std::chrono::seconds(1));
    if (t.kind == CaseKind::kUnreadable) {
      r.outcome = Outcome::kError;
      r.message = t.problem + "; the tests in it, if any, were not run";
    } else if (t.kind == CaseKind::kMissingModel) {
      r.outcome = Outcome::kUnsupported;
      r.causes = {"model not present (download by URL)"};
      r.message = missing_model_message(t);
    } else {
      run_sets(t, o, r);
    }
  } catch (const Error& e) {
    r.message = e.what();
    r.usage_error = e.kind() == ErrorKind::kUsage;
    if (e.kind() == ErrorKind::kUnsupported) {
      r.outcome = Outcome::kUnsupported;
      r.causes = cause_keys(e);
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
