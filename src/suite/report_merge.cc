#include "suite/report_merge.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.h"
#include "core/fail.h"
#include "io/test_data.h"
#include "suite/discovery.h"

namespace onnxrun {
namespace {

struct Slice {
  int index = 1, count = 1;  // a report of a whole run is the one slice 1/1
};

Slice slice_of(const ReportFile& f) {
  if (f.run.shard.empty()) return {};
  Selection s;
  try {
    parse_shard(f.run.shard, s);
  } catch (const Error&) {
    fail(ErrorKind::kInvalid, "report {}: \"run\".\"shard\" is \"{}\", not K/N", f.path, f.run.shard);
  }
  return {s.shard_index, s.shard_count};
}

std::string slice_text(int k, int n) { return fmt::format("{}/{}", k, n); }

// What an older report did not record reads as this, which equals no recorded value: a
// mix of reports that did and did not record a setting is refused rather than guessed at.
constexpr const char* kNotRecorded = "(not recorded: an older report)";

// --rtol/--atol NAME:V as "NAME:V,...", by name.
std::string per_output_text(const std::optional<std::map<std::string, double>>& m) {
  if (!m) return kNotRecorded;
  std::vector<std::string> parts;
  for (const auto& [name, v] : *m) parts.push_back(fmt::format("{}:{}", name, v));
  return fmt::format("{}", fmt::join(parts, ","));
}

// The settings that decide a test's outcome, as (what, value) for a message naming the first that differs.
std::vector<std::pair<std::string, std::string>> settings_of(const RunInfo& r) {
  return {{"onnx-run version", r.generator},
          {"--rtol", fmt::format("{}", r.rtol)},
          {"--atol", fmt::format("{}", r.atol)},
          {"per-output --rtol", per_output_text(r.output_rtol)},
          {"per-output --atol", per_output_text(r.output_atol)},
          {"--check-error-stat", r.check_error_stat.empty() ? kNotRecorded : r.check_error_stat},
          {"--exact", r.exact ? "on" : "off"},
          {"--max-ulp", r.max_ulp},
          {"--filter", r.filter},
          {"--exclude", r.exclude},
          {"--strict", r.strict ? "on" : "off"},
          {"--no-fuse", r.no_fuse ? "on" : "off"},
          {"--isolate", r.isolate ? "on" : "off"},
          {"--timeout", fmt::format("{}", r.timeout)}};
}

// "N tests, digest HEX" of the tests a report's run selected before sharding.
std::string selected_text(const RunInfo& r) { return r.selected.empty() ? kNotRecorded : r.selected; }

}  // namespace

MergedReport merge_reports(const std::vector<ReportFile>& shards) {
  if (shards.empty()) fail(ErrorKind::kUsage, "report merge: no reports given");
  MergedReport m;
  const ReportFile& first = shards.front();
  const Slice first_slice = slice_of(first);
  m.merge.shard_count = first_slice.count;
  m.run = first.run;
  m.run.shard.clear();
  m.run.shard_source.clear();
  m.run.paths.clear();
  m.run.cwd.clear();
  const auto first_settings = settings_of(first.run);

  std::map<int, const ReportFile*> by_slice;
  std::map<std::string, const ReportFile*> by_test;
  double seconds = 0;
  for (const ReportFile& f : shards) {
    if (f.merged)
      fail(ErrorKind::kUsage, "report merge: {} is itself a merged report; merge the shard reports", f.path);
    const Slice s = slice_of(f);
    if (s.count != first_slice.count)
      fail(ErrorKind::kUsage, "report merge: {} holds shard {} but {} holds shard {}: different shard counts", f.path,
           f.run.shard.empty() ? "1/1 (a whole run)" : f.run.shard, first.path,
           first.run.shard.empty() ? "1/1 (a whole run)" : first.run.shard);
    if (auto [it, fresh] = by_slice.emplace(s.index, &f); !fresh)
      fail(ErrorKind::kUsage, "report merge: {} and {} both hold shard {}: overlapping shards", it->second->path,
           f.path, slice_text(s.index, s.count));
    const auto settings = settings_of(f.run);
    for (size_t k = 0; k < settings.size(); ++k)
      if (settings[k].second != first_settings[k].second)
        fail(ErrorKind::kUsage, "report merge: {} ran with {} '{}' but {} with '{}': reports of different settings",
             f.path, settings[k].first, settings[k].second, first.path, first_settings[k].second);
    // The shards of one run selected one set of tests before slicing it: another corpus,
    // or a checkout missing a folder, would leave tests out of every shard unsaid.
    if (f.run.selected != first.run.selected)
      fail(ErrorKind::kUsage,
           "report merge: {} ran over {} but {} over {}: shards of different test sets (another corpus, filter or "
           "checkout)",
           f.path, selected_text(f.run), first.path, selected_text(first.run));
    for (const TestResult& t : f.tests) {
      if (auto [it, fresh] = by_test.emplace(t.name, &f); !fresh)
        fail(ErrorKind::kUsage, "report merge: test {} is in both {} and {}: overlapping shards", t.name,
             it->second->path, f.path);
      // A test outside its report's slice: the report was not made by that shard's run.
      if (const int own = shard_of(t.name, s.count) + 1; own != s.index)
        fail(ErrorKind::kInvalid, "report merge: {} holds shard {} but its test {} belongs to shard {}", f.path,
             slice_text(s.index, s.count), t.name, slice_text(own, s.count));
      m.tests.push_back(t);
    }
    // A relative PATH as its shard typed it, where its shard typed it: the merge may run
    // elsewhere, and asks of the PATHs which baseline tests they hold.
    for (std::string p : f.run.paths) {
      if (!f.run.cwd.empty() && std::filesystem::path(p).is_relative()) p = absolute_path(f.run.cwd + "/" + p);
      if (std::find(m.run.paths.begin(), m.run.paths.end(), p) == m.run.paths.end()) m.run.paths.push_back(p);
    }
    m.run.jobs = std::max(m.run.jobs, f.run.jobs);
    m.merge.reports.push_back(f.path);
    m.merge.shards.push_back(slice_text(s.index, s.count));
    seconds += f.seconds;
  }
  for (int k = 1; k <= m.merge.shard_count; ++k)
    if (!by_slice.count(k)) m.merge.missing.push_back(slice_text(k, m.merge.shard_count));
  // Every shard there: together they hold exactly the tests their run selected.
  if (m.merge.missing.empty() && !first.run.selected.empty()) {
    std::vector<std::string> names;
    for (const TestResult& t : m.tests) names.push_back(t.name);
    if (const std::string held = names_digest(std::move(names)); held != first.run.selected)
      fail(ErrorKind::kInvalid, "report merge: the shards hold {} but their run selected {}: tests are missing", held,
           first.run.selected);
  }
  // Discovery's order: names sorted naturally (suite/discovery.h), so the merged list is
  // the one a single run of every shard would have written.
  std::stable_sort(m.tests.begin(), m.tests.end(),
                   [](const TestResult& a, const TestResult& b) { return natural_less(a.name, b.name); });
  m.summary = summarize(m.tests, seconds);
  return m;
}

}  // namespace onnxrun
