// Progress of `onnx-run test` as results arrive. On a terminal: a live bar with the
// counts so far, and a line for each test that failed, errored, timed out or crashed,
// printed above the bar. In a pipe: one plain line per test (only problems with -q),
// always in the tests' order, so logs of runs with different -j compare line by line.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>

#include "suite/outcome.h"

namespace onnxrun::cli {

class TestProgress {
 public:
  // `live`: draw the bar (the output is a terminal).
  TestProgress(std::FILE* out, size_t total, bool live, bool quiet, bool strict);

  // A test finished (any order; calls are never concurrent).
  void done(size_t index, const TestResult& r);
  // Clears the bar; call once after the last test.
  void finish();

 private:
  void print_result(size_t index, const TestResult& r);
  void draw_bar(bool force);
  void clear_bar();

  std::FILE* out_;
  size_t total_;
  bool live_, quiet_, strict_;
  size_t finished_ = 0;
  Summary counts_;
  size_t next_to_print_ = 0;
  std::map<size_t, TestResult> pending_;  // pipe mode: results waiting for earlier ones
  bool bar_shown_ = false;
  std::chrono::steady_clock::time_point start_, last_draw_;
};

// Progress of `onnx-run compare` on a terminal: one line, "comparing y  45%", redrawn at
// most ten times a second and cleared at the end; a later pass over a value (the exact
// median of many errors) says so. Nothing when the output is not a terminal.
class CompareProgressLine {
 public:
  CompareProgressLine(std::FILE* out, bool live) : out_(out), live_(live) {}
  void update(const std::string& value, int pass, int64_t done, int64_t numel);
  // Clears the line; call once before printing the result.
  void finish();

 private:
  std::FILE* out_;
  bool live_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point last_draw_;
};

}  // namespace onnxrun::cli
