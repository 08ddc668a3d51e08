// Inputs the fuzzers reported (tools/fuzz), kept so that each stays answered by an
// Error and nothing worse. tools/fuzz keeps every crash, timeout or leak it finds as a
// file under tests/fuzz/regressions/<target>/; each is replayed here through the same
// function the fuzz target calls (tests/fuzz/fuzz_cases.h), under the same memory limit.
// A few older model inputs are rows below.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/log.h"
#include "core/memory_limit.h"
#include "fuzz/fuzz_cases.h"
#include "io/streamed_tensor_file.h"
#include "io/tensor_file.h"
#include "model/load.h"
#include "support/paths.h"
#include "support/shortcuts.h"

namespace fs = std::filesystem;
using namespace onnxrun;

namespace {

struct FuzzCase {
  const char* what;
  std::string bytes;
};

const FuzzCase kModelCases[] = {
    // fuzz_model reported a 10 s timeout (libFuzzer -timeout=10) while the machine was
    // busy with two compiles; alone it loads in well under a millisecond. Kept because
    // it parses as a ModelProto full of unknown fields.
    {"timeout under load, unknown fields",
     std::string("\x38\x38\x30\x30\x30\x30\x30\x31\x31\x2e\x36\x36\x32\x33\x5d\x32\x32\x38\x38\x32\xd3\x8b\x9a\x34\x6e"
                 "\x6e\x78\x72\x75\x05\x6c\x25\x61\x6b\x10",
                 35)},
};

// The files kept for `target`, sorted (none when the folder does not exist).
std::vector<std::string> regression_files(const std::string& target) {
  const fs::path dir = fs::path(ONNXRUN_SOURCE_DIR) / "tests/fuzz/regressions" / target;
  std::vector<std::string> files;
  if (fs::is_directory(dir))
    for (const auto& e : fs::directory_iterator(dir))
      if (e.is_regular_file()) files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

std::string file_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

// The process as the fuzz target has it (quiet, the target's memory limit) while alive.
class AsTheFuzzerRuns {
 public:
  explicit AsTheFuzzerRuns(size_t limit) : limit_(memory_limit()) {
    set_memory_limit(limit);
    fuzz::prepare_scratch_dir(dir_.path());
  }
  ~AsTheFuzzerRuns() { set_memory_limit(limit_); }
  const std::string& dir() const { return dir_.path(); }

 private:
  test::TempDir dir_;
  size_t limit_;
  log::ScopedLevel quiet_{log::Level::kOff};
};

template <typename Case>
void replay(const std::string& target, size_t limit, Case run_one) {
  for (const std::string& path : regression_files(target)) {
    INFO(path);
    const std::string bytes = file_bytes(path);
    AsTheFuzzerRuns as(limit);
    CHECK_NOTHROW(run_one(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), as.dir()));
  }
}

}  // namespace

TEST_CASE("model bytes found by fuzzing are refused with an Error", "[fuzz-regression]") {
  for (const FuzzCase& c : kModelCases) {
    INFO(c.what);
    CHECK_THROWS_AS(load_model_from_bytes(c.bytes.data(), c.bytes.size(), ""), Error);
  }
}

TEST_CASE("inputs kept from fuzz_model run as the fuzzer runs them", "[fuzz-regression]") {
  replay("fuzz_model", fuzz::kModelMemoryLimit, fuzz::model_case);
}

TEST_CASE("inputs kept from fuzz_tensor_file run as the fuzzer runs them", "[fuzz-regression]") {
  replay("fuzz_tensor_file", fuzz::kModelMemoryLimit, fuzz::tensor_file_case);
}

TEST_CASE("inputs kept from fuzz_run run through run_model as the fuzzer runs them", "[fuzz-regression]") {
  replay("fuzz_run", fuzz::kRunMemoryLimit, fuzz::run_case);
}

TEST_CASE("inputs kept from fuzz_result_file and fuzz_report run as the fuzzers run them", "[fuzz-regression]") {
  replay("fuzz_result_file", fuzz::kRunMemoryLimit, fuzz::result_file_case);
  replay("fuzz_report", fuzz::kRunMemoryLimit, fuzz::report_case);
}

// The verdict's fuzz cases on a good file and on damaged copies of it: each is refused
// with an Error inside the case or taken, never escapes (what the fuzzers start from).
TEST_CASE("the verdict's fuzz cases take good and damaged result files and reports", "[fuzz-regression]") {
  test::TempDir d;
  Tensor y(DType::kFloat, Shape{4});
  write_tensor_file(d.file("y.pb"), y, "y");
  const std::string pb = std::string(1, '\0') + file_bytes(d.file("y.pb"));
  const std::string report =
      R"({"generator": "g", "run": {"paths": ["t"], "shard": "2/2"}, "summary": {"total": 1, "seconds": 1},)"
      R"( "tests": [{"name": "good", "outcome": "failed", "seconds": 0.1, "model": "t/good/model.onnx", "sets": 1}]})";
  std::string huge_sets = report;
  huge_sets.replace(huge_sets.find("\"sets\": 1"), 10, "\"sets\": 1e26");
  const std::vector<std::string> results = {pb, pb.substr(0, pb.size() / 2), std::string(1, '\1') + "\x93NUMPY",
                                            std::string(1, '\2') + "PK\3\4", std::string(1, '\x13') + pb.substr(1)};
  for (const std::string& bytes : results) {
    AsTheFuzzerRuns as(fuzz::kRunMemoryLimit);
    CHECK_NOTHROW(fuzz::result_file_case(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), as.dir()));
  }
  for (const std::string& bytes : {report, huge_sets, report.substr(0, 40), std::string("[]"), std::string()}) {
    INFO(bytes);
    AsTheFuzzerRuns as(fuzz::kRunMemoryLimit);
    CHECK_NOTHROW(fuzz::report_case(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), as.dir()));
  }
}

TEST_CASE("inputs kept from fuzz_cli parse and check as the fuzzer runs them", "[fuzz-regression]") {
  replay("fuzz_cli", fuzz::kRunMemoryLimit,
         [](const uint8_t* data, size_t size, const std::string&) { fuzz::cli_case(data, size); });
}
