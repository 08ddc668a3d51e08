#include "suite/report.h"

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <ctime>
#include <map>
#include <numeric>

#include <fmt/format.h>

#include "core/error.h"
#include "io/atomic_file.h"
#include "suite/json_documents.h"

namespace onnxrun {
namespace {

// The length of the UTF-8 sequence at s[i] that encodes a character XML 1.0 allows
// (no surrogates, no U+FFFE or U+FFFF, shortest form only), or 0 for anything else.
size_t xml_char_length(const std::string& s, size_t i) {
  const auto byte = [&](size_t k) { return k < s.size() ? static_cast<unsigned char>(s[k]) : 0u; };
  const unsigned b0 = byte(i);
  if (b0 < 0x80) return 1;
  const size_t n = b0 >= 0xf0 ? 4 : b0 >= 0xe0 ? 3 : b0 >= 0xc0 ? 2 : 0;
  if (n == 0 || b0 > 0xf4) return 0;
  uint32_t cp = b0 & (0x7f >> n);
  for (size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3f);
  }
  const uint32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < least[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) || cp == 0xfffe || cp == 0xffff) return 0;
  return n;
}

// Text safe inside an XML attribute or element: markup escaped; the control characters
// but for the message's own newlines and tabs written as \xNN, as on the terminal (XML 1.0
// forbids most of them, and a carriage return would let a quoted name start a line of its
// own where CI shows the report); a byte that is not valid UTF-8 (a folder's name may be
// any bytes) replaced by U+FFFD as the JSON report writes it: one such byte would make the
// whole file unreadable to a JUnit parser.
std::string xml_escape(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    const char ch = s[i];
    if (static_cast<unsigned char>(ch) >= 0x80) {
      const size_t n = xml_char_length(s, i);
      if (n == 0) {
        out += "\xEF\xBF\xBD";
      } else {
        out.append(s, i, n);
        i += n - 1;
      }
      continue;
    }
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        if ((static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) && ch != '\n' && ch != '\t')
          out += printable(std::string_view(&ch, 1));
        else out += ch;
    }
  }
  return out;
}

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

// `<testcase classname=... name=... time=...` of `r`, left open: classname is the folder
// part of its name ("." at the top), name the rest; or junit_class, and the whole name.
std::string testcase_open(const TestResult& r) {
  const size_t slash = r.junit_class.empty() ? r.name.rfind('/') : std::string::npos;
  const std::string classname = !r.junit_class.empty()       ? r.junit_class
                                : slash == std::string::npos ? "."
                                                             : r.name.substr(0, slash);
  const std::string name = slash == std::string::npos ? r.name : r.name.substr(slash + 1);
  return fmt::format("    <testcase classname=\"{}\" name=\"{}\" time=\"{:.6f}\"", xml_escape(classname),
                     xml_escape(name), r.seconds);
}

}  // namespace

std::vector<std::pair<std::string, size_t>> unsupported_causes(const std::vector<TestResult>& results) {
  std::map<std::string, size_t> counts;
  for (const TestResult& r : results)
    if (r.outcome == Outcome::kUnsupported) {
      if (r.causes.empty()) ++counts["(unknown)"];
      for (const std::string& c : r.causes) ++counts[c];
    }
  std::vector<std::pair<std::string, size_t>> table(counts.begin(), counts.end());
  std::stable_sort(table.begin(), table.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  return table;
}

std::vector<size_t> slowest_tests(const std::vector<TestResult>& results, size_t n) {
  std::vector<size_t> idx(results.size());
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return results[a].seconds > results[b].seconds; });
  idx.resize(std::min(n, idx.size()));
  return idx;
}

void write_json_report(const WriteTarget& target, const RunInfo& info, const Summary& s,
                       const std::vector<TestResult>& results, const MergeInfo* merge, const BaselineNote* baseline) {
  write_text_file(target, test_report_json(info, s, results, merge, baseline));
}

ReportStamp report_stamp_now() {
  ReportStamp stamp;
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &local);
  stamp.timestamp = buf;
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) == 0) stamp.hostname = host;
  if (stamp.hostname.empty()) stamp.hostname = "localhost";
  return stamp;
}

std::string junit_report(const Summary& s, const std::vector<TestResult>& results, bool strict,
                         const ReportStamp& stamp, const BaselineNote* baseline) {
  const std::vector<TestResult> none;
  const std::vector<TestResult>& missing = baseline ? baseline->missing : none;
  // A regression by the baseline that the outcome alone would show as a pass or a skip.
  std::map<std::string, std::string> regressed;
  for (const BaselineChange& c : baseline ? baseline->regressions : std::vector<BaselineChange>{})
    regressed.emplace(c.name, describe_change(c));
  auto shown_regressed = [&](const TestResult& r) {
    return is_problem(r.outcome, strict) ? regressed.end() : regressed.find(r.name);
  };
  size_t failures = s.count(Outcome::kFailed) + missing.size();
  const size_t total = s.total + missing.size();
  size_t errors = s.count(Outcome::kError) + s.count(Outcome::kTimeout) + s.count(Outcome::kCrashed);
  size_t skipped = s.count(Outcome::kUnsupported) + s.count(Outcome::kNoData);
  if (strict) errors += std::exchange(skipped, 0);
  for (const TestResult& r : results)
    if (shown_regressed(r) != regressed.end()) {
      ++failures;
      skipped -= r.outcome != Outcome::kPassed;
    }
  std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  x += fmt::format("<testsuites name=\"onnx-run\" tests=\"{}\" failures=\"{}\" errors=\"{}\" time=\"{:.3f}\">\n", total,
                   failures, errors, s.seconds);
  x += fmt::format(
      "  <testsuite name=\"onnx-run\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{:.3f}\" "
      "timestamp=\"{}\" hostname=\"{}\">\n",
      total, failures, errors, skipped, s.seconds, xml_escape(stamp.timestamp), xml_escape(stamp.hostname));
  for (const TestResult& r : results) {
    x += testcase_open(r);
    const std::string type(outcome_name(r.outcome));
    const std::string msg = xml_escape(first_line(r.message));
    std::string body;
    if (const auto it = shown_regressed(r); it != regressed.end()) {
      const std::string why = xml_escape(fmt::format("{} (against {})", it->second, baseline->path));
      body = fmt::format("      <failure type=\"regression\" message=\"{}\">{}</failure>\n", why, why);
    } else switch (r.outcome) {
        case Outcome::kPassed: break;
        case Outcome::kFailed:
          body =
              fmt::format("      <failure type=\"failed\" message=\"{}\">{}</failure>\n", msg, xml_escape(r.message));
          break;
        case Outcome::kUnsupported:
        case Outcome::kNoData:
          if (!strict) {
            body = fmt::format("      <skipped type=\"{}\" message=\"{}: {}\"/>\n", type, type, msg);
            break;
          }
          [[fallthrough]];
        default:
          body = fmt::format("      <error type=\"{}\" message=\"{}\">{}</error>\n", type, msg, xml_escape(r.message));
      }
    // A test's warnings (a pass's too) where CI shows a test's own stderr, a line each:
    // a warning's newlines are a name's, escaped as on stderr.
    if (!r.warnings.empty()) {
      std::string lines;
      for (const std::string& w : r.warnings) lines += (lines.empty() ? "warning: " : "\nwarning: ") + printable(w);
      body += fmt::format("      <system-err>{}</system-err>\n", xml_escape(lines));
    }
    x += body.empty() ? "/>\n" : ">\n" + body + "    </testcase>\n";
  }
  for (const TestResult& r : missing)
    x += testcase_open(r) +
         fmt::format(">\n      <failure type=\"missing\" message=\"{}\">{}</failure>\n    </testcase>\n",
                     xml_escape(first_line(r.message)), xml_escape(r.message));
  x += "  </testsuite>\n</testsuites>\n";
  return x;
}

void write_junit_report(const WriteTarget& target, const Summary& s, const std::vector<TestResult>& results,
                        bool strict, const ReportStamp& stamp, const BaselineNote* baseline) {
  write_text_file(target, junit_report(s, results, strict, stamp, baseline));
}

}  // namespace onnxrun
