// Exit-code checks that say what ran: CHECK_EXIT(r, 0) and REQUIRE_EXIT(r, 3) check a
// ProcessResult's exit code (support/process.h) and, when it differs, print the command
// line, the exit code, stderr and the head of stdout. REQUIRE_NO_SIGNAL(r) checks that
// the process ended without being killed by a signal.
#pragma once

#include <catch2/catch.hpp>
#include <string>

#include "support/process.h"

namespace onnxrun::test {

class ExitsWith : public Catch::MatcherBase<ProcessResult> {
 public:
  explicit ExitsWith(int code) : code_(code) {}
  bool match(const ProcessResult& r) const override { return r.exit_code == code_; }
  std::string describe() const override { return "(wanted exit code " + std::to_string(code_) + ")"; }

 private:
  int code_;
};

class EndsWithoutSignal : public Catch::MatcherBase<ProcessResult> {
 public:
  bool match(const ProcessResult& r) const override { return r.exit_code >= 0 && r.exit_code < 128; }
  std::string describe() const override { return "(wanted an exit, not a signal)"; }
};

}  // namespace onnxrun::test

namespace Catch {
template <>
struct StringMaker<onnxrun::test::ProcessResult> {
  static std::string convert(const onnxrun::test::ProcessResult& r) { return "\n" + onnxrun::test::describe(r) + "\n"; }
};
}  // namespace Catch

#define CHECK_EXIT(result, code) CHECK_THAT((result), ::onnxrun::test::ExitsWith(code))
#define REQUIRE_EXIT(result, code) REQUIRE_THAT((result), ::onnxrun::test::ExitsWith(code))
#define REQUIRE_NO_SIGNAL(result) REQUIRE_THAT((result), ::onnxrun::test::EndsWithoutSignal())
