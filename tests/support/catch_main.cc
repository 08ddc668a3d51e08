// The Catch2 main of onnxrun_tests, run by ctest once per test case (tests/CMakeLists.txt,
// catch_discover_tests).
// - --skip-without-shared-tests, a flag of its own taken out before Catch2 sees the
//   command line, is given to the cases that need the ONNX project's test data: it
//   prints why, appends the reason to the log that ctest summarises after the run
//   (support/skip_summary.cmake) and exits 77 (which ctest reports as skipped) when
//   shared_tests_dir() holds no node/ folder.
// - A test name that begins with '-' ("--timeout kills ...") would be read by Catch2 as
//   an option; an argument that begins with '-' and holds a space is no option, so it
//   is passed on quoted, as a test name.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "support/paths.h"

int main(int argc, char** argv) {
  std::vector<std::string> args;
  bool needs_shared_tests = false;
  for (int k = 0; k < argc; ++k) {
    const std::string a = argv[k];
    if (k > 0 && a == "--skip-without-shared-tests") needs_shared_tests = true;
    else if (k > 0 && a[0] == '-' && a.find(' ') != std::string::npos) args.push_back('"' + a + '"');
    else args.push_back(a);
  }
  const std::string shared = onnxrun::test::shared_tests_dir();
  if (needs_shared_tests && !std::filesystem::is_directory(shared + "/node")) {
    const std::string reason = "no ONNX test data: " + shared +
                               "/node not found (set ONNXRUN_TEST_DATA=DIR, or configure with -DONNXRUN_TEST_DATA=DIR)";
    std::cout << "skipped: " << reason << "\n";
    std::ofstream(ONNXRUN_SKIP_LOG, std::ios::app) << reason << "\n";  // summarised after the run
    return 77;
  }
  std::vector<char*> cargs;
  for (std::string& a : args) cargs.push_back(a.data());
  return Catch::Session().run(static_cast<int>(cargs.size()), cargs.data());
}

// catch_discover_tests (Catch2 v2's CatchAddTests.cmake) reads the list of names as a
// CMake list: a ';' in a name splits it into two entries that match nothing.
TEST_CASE("every test case name can be a ctest entry's name", "[unit][meta]") {
  for (const Catch::TestCase& t : Catch::getRegistryHub().getTestCaseRegistry().getAllTests()) {
    INFO(t.name);
    CHECK(t.name.find(';') == std::string::npos);
  }
}
