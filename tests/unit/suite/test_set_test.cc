// The tolerance a model's test sets are judged with: the data.json beside the model over
// the command line's, its names checked against the model's outputs.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include <sys/stat.h>

#include "core/error.h"
#include "suite/test_set.h"
#include "support/model_tree.h"
#include "support/paths.h"

using namespace onnxrun;
using namespace onnxrun::test;

TEST_CASE("data.json beside a model overrides the tolerances", "[suite]") {
  TempDir d;
  const std::string model = d.file("model.onnx");
  const Tolerance base{1e-3, 1e-7};
  CHECK(test_set_tolerance(model, base, {"y"}).rtol == 1e-3);
  write_text_file(d.file("data.json"), R"({"rtol": 0.05, "url": "x"})");
  const Tolerance t = test_set_tolerance(model, base, {"y"});
  CHECK(t.rtol == 0.05);
  CHECK(t.atol == 1e-7);
  write_text_file(d.file("data.json"), R"({"atol": {"y": 0.5}})");
  CHECK(test_set_tolerance(model, base, {"y"}).for_output("y").atol == 0.5);
  write_text_file(d.file("data.json"), R"({"atol": -1})");
  CHECK_THROWS_AS(test_set_tolerance(model, base, {"y"}), Error);
  write_text_file(d.file("data.json"), "[");
  CHECK_THROWS_AS(test_set_tolerance(model, base, {"y"}), Error);
}

TEST_CASE("a data.json NAME that is no output of the model is a usage error", "[suite]") {
  TempDir d;
  write_text_file(d.file("data.json"), R"({"rtol": {"yy": 0.5}})");
  try {
    test_set_tolerance(d.file("model.onnx"), Tolerance{}, {"y", "z"});
    FAIL("accepted a name that is no output");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::kUsage);
    CHECK_THAT(e.what(),
               Catch::Matchers::EndsWith("\"rtol\": {\"yy\": 0.5}: no value 'yy' among the model's outputs (y, z)"));
  }
}

TEST_CASE("a data.json that is there but no readable regular file is an error naming it and why", "[suite]") {
  // It was ignored: the sets were judged with the looser command-line tolerance.
  TempDir d;
  const std::string model = d.file("model.onnx"), json = d.file("data.json");
  auto refusal = [&] {
    try {
      test_set_tolerance(model, Tolerance{}, {"y"});
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::kIo);
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  std::filesystem::create_symlink("gone.json", json);
  CHECK(refusal() == json + ": a dangling symbolic link (its target does not exist)");
  std::filesystem::remove(json);
  std::filesystem::create_directory(json);
  CHECK(refusal() == json + ": is a folder, not a file");
  std::filesystem::remove(json);
  REQUIRE(::mkfifo(json.c_str(), 0644) == 0);  // refused without waiting for a writer
  CHECK(refusal() == json + ": is not a regular file (a FIFO); onnx-run reads regular files only");
  std::filesystem::remove(json);
  CHECK_FALSE(read_data_json(json).has_value());  // none at all: the command line's tolerance
}
