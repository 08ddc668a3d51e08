#include "cli/progress.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.h"

namespace onnxrun::cli {
namespace {

int terminal_width(std::FILE* f) {
  winsize ws{};
  if (::ioctl(::fileno(f), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 20) return ws.ws_col;
  return 80;
}

}  // namespace

TestProgress::TestProgress(std::FILE* out, size_t total, bool live, bool quiet, bool strict)
    : out_(out),
      total_(total),
      live_(live && !quiet),
      quiet_(quiet),
      strict_(strict),
      start_(std::chrono::steady_clock::now()) {}

void TestProgress::print_result(size_t index, const TestResult& r) {
  const int width = static_cast<int>(std::to_string(total_).size());
  std::string line = fmt::format("[{:>{}}/{}] {:<11} {} ({:.3f} s)", index + 1, width, total_, outcome_name(r.outcome),
                                 r.name, r.seconds);
  const bool unsupported = r.outcome == Outcome::kUnsupported;
  if (unsupported) line += ": " + (r.causes.empty() ? r.message : fmt::format("{}", fmt::join(r.causes, ", ")));
  fmt::print(out_, "{}\n", printable(line));
  for (const std::string& w : r.warnings) fmt::print(out_, "    warning: {}\n", printable(w));
  if (unsupported || r.outcome == Outcome::kPassed || r.message.empty()) return;
  size_t pos = 0;
  while (pos <= r.message.size()) {
    const size_t nl = std::min(r.message.find('\n', pos), r.message.size());
    fmt::print(out_, "    {}\n", printable(r.message.substr(pos, nl - pos)));
    pos = nl + 1;
  }
}

void TestProgress::clear_bar() {
  if (bar_shown_) fmt::print(out_, "\r\033[K");
  bar_shown_ = false;
}

void TestProgress::draw_bar(bool force) {
  const auto now = std::chrono::steady_clock::now();
  if (!force && bar_shown_ && now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_draw_ = now;
  std::string counts = fmt::format(" {}/{}  passed {}  failed {}  unsupported {}  errors {}", finished_, total_,
                                   counts_.count(Outcome::kPassed), counts_.count(Outcome::kFailed),
                                   counts_.count(Outcome::kUnsupported), counts_.count(Outcome::kError));
  // Rare outcomes only once they occur, to keep the line short.
  if (size_t n = counts_.count(Outcome::kNoData)) counts += fmt::format("  no data {}", n);
  if (size_t n = counts_.count(Outcome::kTimeout)) counts += fmt::format("  timeouts {}", n);
  if (size_t n = counts_.count(Outcome::kCrashed)) counts += fmt::format("  crashed {}", n);
  counts += fmt::format("  {:.1f} s", std::chrono::duration<double>(now - start_).count());
  const int cols = terminal_width(out_) - 1;
  const int bar = std::clamp(cols - static_cast<int>(counts.size()) - 2, 0, 40);
  std::string text;
  if (bar >= 10) {
    const int filled = total_ ? static_cast<int>(bar * finished_ / total_) : bar;
    text = "[" + std::string(filled, '#') + std::string(bar - filled, '.') + "]";
  }
  text += counts;
  if (static_cast<int>(text.size()) > cols) text.resize(std::max(cols, 0));
  fmt::print(out_, "\r\033[K{}", text);
  std::fflush(out_);
  bar_shown_ = true;
}

void TestProgress::done(size_t index, const TestResult& r) {
  ++finished_;
  ++counts_.counts[static_cast<int>(r.outcome)];
  if (live_) {
    // Problems and warnings right away (completion order), above the bar; the bar counts the rest.
    if (is_problem(r.outcome, strict_) || !r.warnings.empty()) {
      clear_bar();
      print_result(index, r);
    }
    draw_bar(finished_ == total_);
    return;
  }
  pending_.emplace(index, r);
  for (auto it = pending_.find(next_to_print_); it != pending_.end(); it = pending_.find(++next_to_print_)) {
    if (!quiet_ || is_problem(it->second.outcome, strict_)) print_result(it->first, it->second);
    pending_.erase(it);
  }
}

void TestProgress::finish() {
  if (live_) clear_bar();
  std::fflush(out_);
}

void CompareProgressLine::update(const std::string& value, int pass, int64_t done, int64_t numel) {
  if (!live_) return;
  const auto now = std::chrono::steady_clock::now();
  if (shown_ && done < numel && now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_draw_ = now;
  const std::string name = value.empty() ? "(unnamed)" : printable(value);
  fmt::print(out_, "\r\033[Kcomparing {}  {}%{}", name, numel ? done * 100 / numel : 100,
             pass > 1 ? fmt::format("  (pass {}: the exact median of the errors)", pass) : "");
  std::fflush(out_);
  shown_ = true;
}

void CompareProgressLine::finish() {
  if (shown_) fmt::print(out_, "\r\033[K");
  shown_ = false;
  std::fflush(out_);
}

}  // namespace onnxrun::cli
