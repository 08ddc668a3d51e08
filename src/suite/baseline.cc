#include "suite/baseline.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>

#include "core/error.h"
#include "suite/report_file.h"

namespace fs = std::filesystem;

namespace onnxrun {
namespace {

// The components of the model path (the name when there is none), without the root and
// "." parts that depend on how the path was typed.
std::vector<std::string> parts_of(const TestIdentity& t) {
  std::vector<std::string> parts;
  for (const fs::path& p : fs::path(t.model.empty() ? t.name : t.model).lexically_normal()) {
    const std::string s = p.string();
    if (!s.empty() && s != "/" && s != ".") parts.push_back(s);
  }
  return parts;
}

// How many trailing components of `parts` the test's name spans: its own components, and
// the model file below them when the name is a folder's ("sub/good" of
// sub/good/model.onnx) rather than the model's stem ("light/x" of light/x.onnx).
size_t name_span(const TestIdentity& t, const std::vector<std::string>& parts) {
  const size_t components = static_cast<size_t>(std::count(t.name.begin(), t.name.end(), '/')) + 1;
  const std::string last = t.name.substr(t.name.rfind('/') + 1);
  const bool named_by_file = t.model.empty() || (!parts.empty() && fs::path(parts.back()).stem() == last);
  return std::min(parts.size(), components + (named_by_file ? 0 : 1));
}

// The last `k` of `parts`, as one key.
std::string suffix_key(const std::vector<std::string>& parts, size_t k) {
  std::string key;
  for (size_t i = parts.size() - k; i < parts.size(); ++i) key += parts[i] + '\0';
  return key;
}

// The test sets a result ran, when it ran every one it has: a pass, a failure (every set
// is compared) or no data (none). An error, a timeout, a crash or an unsupported feature
// stops a test early, so its count says nothing of its data.
std::optional<int> sets_of_whole_run(const TestResult& r) {
  const bool whole = r.outcome == Outcome::kPassed || r.outcome == Outcome::kFailed || r.outcome == Outcome::kNoData;
  if (!whole || r.sets == kSetsNotRecorded) return std::nullopt;
  return r.sets;
}

// Whether a test that was skipped (unsupported, no data) now runs and fails: a skip is
// not a known failure. A test onnx-run gains the operator of, and gets wrong, must not
// pass as the known state of the baseline.
bool skip_now_fails(Outcome before, Outcome now) {
  const bool skipped = before == Outcome::kUnsupported || before == Outcome::kNoData;
  return skipped && now != Outcome::kPassed && now != Outcome::kUnsupported && now != Outcome::kNoData;
}

// How `now` regressed against its baseline entry `before`, or nullopt: it passed and does
// not now, it was skipped and now fails, or it ran fewer of its test sets than it did (a
// baseline of an older onnx-run has no count: no check).
std::optional<BaselineChange> regression(const TestResult& now, const TestResult& before) {
  BaselineChange c{now.name, before.outcome, now.outcome, false};
  const std::optional<int> sets = sets_of_whole_run(now), baseline_sets = sets_of_whole_run(before);
  if (sets && baseline_sets && *sets < *baseline_sets) {
    c.sets = *sets;
    c.baseline_sets = *baseline_sets;
    return c;
  }
  if (before.outcome == Outcome::kPassed && now.outcome != Outcome::kPassed) return c;
  if (skip_now_fails(before.outcome, now.outcome)) return c;
  return std::nullopt;
}

// A test name without the "#N" that discovery adds to make names unique ("x#2": "x").
std::string unique_free(const std::string& name) {
  const size_t hash = name.rfind('#');
  if (hash == std::string::npos || hash + 1 == name.size() || name.find('/', hash) != std::string::npos) return name;
  for (size_t k = hash + 1; k < name.size(); ++k)
    if (name[k] < '0' || name[k] > '9') return name;
  return name.substr(0, hash);
}

// The '/'-separated components of a test name.
std::vector<std::string> name_parts(const std::string& name) {
  std::vector<std::string> parts;
  for (size_t at = 0;;) {
    const size_t slash = name.find('/', at);
    parts.push_back(name.substr(at, slash - at));
    if (slash == std::string::npos) return parts;
    at = slash + 1;
  }
}

// The folder a test is named from: its model path (`parts`) without the components its
// name spells out, and the model file below them ("a/x" of tree/a/x/model.onnx, of
// tree/a/x.onnx, or of the folder tree/a/x without a model: tree). None where the path
// does not end as the name says (a name made unique as "x#2").
std::optional<std::vector<std::string>> name_root(const std::string& name, std::vector<std::string> parts) {
  const std::vector<std::string> words = name_parts(name);
  auto ends_with = [&](const std::vector<std::string>& tail) {
    return parts.size() >= tail.size() && std::equal(tail.rbegin(), tail.rend(), parts.rbegin());
  };
  if (!parts.empty() && parts.back() == "model.onnx" && parts.size() > words.size() &&
      std::equal(words.rbegin(), words.rend(), parts.rbegin() + 1)) {
    parts.resize(parts.size() - words.size() - 1);  // a model folder's test
    return parts;
  }
  std::vector<std::string> file = words;  // NAME.onnx's test
  file.back() += ".onnx";
  if (!ends_with(file) && !ends_with(words)) return std::nullopt;  // neither, nor a folder without a model
  parts.resize(parts.size() - words.size());
  return parts;
}

// `prefix`, then `parts` from `from` on, '/'-joined.
std::string joined(std::vector<std::string> prefix, const std::vector<std::string>& parts, size_t from) {
  prefix.insert(prefix.end(), parts.begin() + static_cast<std::ptrdiff_t>(from), parts.end());
  std::string name;
  for (const std::string& p : prefix) name += (name.empty() ? "" : "/") + p;
  return name;
}

// A path as typed, for comparing: absolute (a test typed as "." is recorded by its
// folder's absolute path: suite/discovery.h), "." and ".." parts and a trailing '/' taken out.
fs::path normal(const std::string& p) {
  const fs::path n = absolute_path(p);
  return n.has_filename() ? n : n.parent_path();
}

// Whether `t` is one of `paths` itself (RunScope::paths): its model or its folder typed.
bool is_a_path(const TestIdentity& t, const std::vector<std::string>& paths) {
  const fs::path model = normal(t.model);
  for (const std::string& p : paths)
    if (model == normal(p) || (model.filename() == "model.onnx" && model.parent_path() == normal(p))) return true;
  return false;
}

// Of each baseline test, whether the run that wrote it had it as a PATH, named by its own
// folder: another test of the baseline is named from within that folder ("sub" of
// p/sub/model.onnx beside "p" of p/model.onnx, written by `test tree/p`). Such a name says
// nothing of how the baseline's other tests are named. Known by absolute model paths only.
std::vector<bool> named_as_path(const std::vector<TestResult>& baseline) {
  std::set<std::vector<std::string>> roots;  // the folders that tests are named from
  for (const TestResult& r : baseline)
    if (fs::path(r.model).is_absolute())
      if (auto root = name_root(r.name, parts_of(identity_of(r)))) roots.insert(std::move(*root));
  std::vector<bool> out(baseline.size(), false);
  for (size_t b = 0; b < baseline.size(); ++b) {
    std::vector<std::string> folder = parts_of(identity_of(baseline[b]));
    if (!fs::path(baseline[b].model).is_absolute() || folder.empty() || folder.back() != "model.onnx") continue;
    folder.pop_back();
    out[b] = roots.count(folder) > 0;
  }
  return out;
}

// How the baseline names tests in this run's terms: the (baseline, run) name prefixes of
// each test both know ({"sub"}, {} when the baseline ran the parent of this run's PATH).
// A test that is a PATH, here or in the run that wrote the baseline, teaches none.
using NamePrefixes = std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>>;
// `match`: of each of `tests`, as match_baseline gives it; `paths`: the PATHs typed;
// `baseline_path`: named_as_path(baseline).
NamePrefixes name_prefixes(const std::vector<TestIdentity>& tests, const std::vector<std::optional<size_t>>& match,
                           const std::vector<TestResult>& baseline, const std::vector<std::string>& paths,
                           const std::vector<bool>& baseline_path) {
  NamePrefixes prefixes;
  for (size_t i = 0; i < match.size(); ++i) {
    if (!match[i] || is_a_path(tests[i], paths) || baseline_path[*match[i]]) continue;
    std::vector<std::string> run = name_parts(tests[i].name), base = name_parts(baseline[*match[i]].name);
    size_t common = 0;  // trailing components both names share
    while (common < run.size() && common < base.size() &&
           run[run.size() - 1 - common] == base[base.size() - 1 - common])
      ++common;
    if (common == 0) continue;
    run.resize(run.size() - common);
    base.resize(base.size() - common);
    auto prefix = std::make_pair(std::move(base), std::move(run));
    if (std::find(prefixes.begin(), prefixes.end(), prefix) == prefixes.end()) prefixes.push_back(std::move(prefix));
  }
  return prefixes;
}

// Whether `parts` begins with `prefix`.
bool starts_with(const std::vector<std::string>& parts, const std::vector<std::string>& prefix) {
  return parts.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), parts.begin());
}

// Whether the name `parts` lies below the name prefix `prefix`.
bool below(const std::vector<std::string>& parts, const std::vector<std::string>& prefix) {
  return parts.size() > prefix.size() && starts_with(parts, prefix);
}

// A move of a tree: the folder it was in (a baseline's path) and the folder it is in now.
using Move = std::pair<std::vector<std::string>, std::vector<std::string>>;

// The folders above the end two paths share: (the first's, the second's).
Move roots(std::vector<std::string> a, std::vector<std::string> b) {
  while (!a.empty() && !b.empty() && a.back() == b.back()) a.pop_back(), b.pop_back();
  return {std::move(a), std::move(b)};
}

// `at`, which begins with `from`, with `to` in its place.
std::vector<std::string> moved(const std::vector<std::string>& at, const std::vector<std::string>& from,
                               const std::vector<std::string>& to) {
  std::vector<std::string> out = to;
  out.insert(out.end(), at.begin() + static_cast<std::ptrdiff_t>(from.size()), at.end());
  return out;
}

// Where the baseline's tree lies in this run's: for each pair of tests both know by
// absolute paths, the folders above the end their paths share (the baseline's, this
// run's); the same folder on both sides, always: a tree that did not move.
using TreeMoves = std::vector<Move>;
// `match`: of each of `tests`, as match_baseline gives it.
TreeMoves tree_moves(const std::vector<TestIdentity>& tests, const std::vector<TestResult>& baseline,
                     const std::vector<std::optional<size_t>>& match) {
  TreeMoves moves{{{}, {}}};
  for (size_t i = 0; i < match.size(); ++i) {
    if (!match[i] || !fs::path(baseline[*match[i]].model).is_absolute()) continue;
    auto move = roots(parts_of(identity_of(baseline[*match[i]])), parts_of(tests[i]));
    if (std::find(moves.begin(), moves.end(), move) == moves.end()) moves.push_back(std::move(move));
  }
  return moves;
}

// The name discovery gives the model at `model` (path components) below the folder PATH
// `path`: its folder's path below PATH (the PATH's own name for its own model.onnx), or
// the file's without ".onnx"; a folder without a model (data.json) by its path.
std::string name_below(const std::vector<std::string>& path, std::vector<std::string> model) {
  if (model.back() == "model.onnx") model.pop_back();
  else if (fs::path(model.back()).extension() == ".onnx") model.back() = fs::path(model.back()).stem().string();
  if (model.size() == path.size()) return path.empty() ? "" : path.back();
  return joined({}, model, path.size());
}

// A path as reports write model paths (discovery.h reported_model), for comparing with them.
std::string reported_path(const std::string& p) { return printable(valid_utf8(normal(p).string())); }

// The deepest of the PATHs of the baseline's run (`groups`: RunScope::baseline_paths)
// that holds the model at `at` (path components): its group and its components.
std::optional<std::pair<size_t, std::vector<std::string>>> holding_path(
    const std::vector<std::string>& at, const std::vector<std::vector<std::string>>& groups) {
  std::optional<std::pair<size_t, std::vector<std::string>>> holder;
  for (size_t g = 0; g < groups.size(); ++g)
    for (const std::string& p : groups[g])
      if (std::vector<std::string> path = parts_of({"", p});
          starts_with(at, path) && (!holder || path.size() > holder->second.size()))
        holder = {g, std::move(path)};
  return holder;
}

// Of each baseline test, the group of the PATHs of the baseline's run that holds it
// (holding_path), or none.
std::vector<std::optional<size_t>> groups_of(const std::vector<TestResult>& baseline,
                                             const std::vector<std::vector<std::string>>& groups) {
  std::vector<std::optional<size_t>> group(baseline.size());
  for (size_t b = 0; b < baseline.size(); ++b)
    if (const auto holder = holding_path(parts_of(identity_of(baseline[b])), groups)) group[b] = holder->first;
  return group;
}

// Of each baseline test, whether it lies below a PATH of the baseline's run that this run
// did not type: that PATH's group (`group`: groups_of) holds no test matched here
// (`match`: of the run's selected tests), and no move of the tree puts the test's model
// at or below one of `folders` (the PATHs typed here).
std::vector<bool> unseen_paths(const std::vector<TestResult>& baseline, const std::vector<std::optional<size_t>>& match,
                               const std::vector<std::optional<size_t>>& group, size_t groups, const TreeMoves& moves,
                               const std::vector<std::vector<std::string>>& folders) {
  std::vector<bool> seen(groups, false);
  for (const auto& m : match)
    if (m && group[*m]) seen[*group[*m]] = true;
  std::vector<bool> unseen(baseline.size(), false);
  for (size_t b = 0; b < baseline.size(); ++b) {
    if (!group[b] || seen[*group[b]]) continue;
    const std::vector<std::string> at = parts_of(identity_of(baseline[b]));
    bool here = false;
    for (const auto& [from, to] : moves)
      for (const std::vector<std::string>& folder : folders)
        here = here || (starts_with(at, from) && starts_with(moved(at, from, to), folder));
    unseen[b] = !here;
  }
  return unseen;
}

// The baseline tests that are missing from this run (RunScope): for each, its name in
// this run's terms, or nullopt (met, or not selected). `met`: matched by a run test.
// A test is named by the names of the tests both know (name_prefixes); one that none of
// them names (a PATH that is a model folder teaches no prefix) is put in this run's tree
// by its absolute model path (tree_moves) and named as discovery would name it below the
// PATH it lies under.
std::vector<std::optional<std::string>> missing_names(const std::vector<TestResult>& baseline,
                                                      const std::vector<bool>& met, const RunScope* scope) {
  std::vector<std::optional<std::string>> missing(baseline.size());
  if (!scope) return missing;
  // A baseline test that a selected test of another slice is, is there: not missing.
  std::vector<bool> there = met;
  const std::vector<std::optional<size_t>> selected_match = match_baseline(scope->selected, baseline);
  for (const auto& m : selected_match)
    if (m) there[*m] = true;
  const std::vector<bool> baseline_path = named_as_path(baseline);
  const std::vector<std::optional<size_t>> group = groups_of(baseline, scope->baseline_paths);
  // The names of a baseline's PATH are told by the tests of that PATH both runs know: a
  // baseline of `test t/a t/b` names t/b's y "y", as it names t/a's x "x", and a run of
  // t naming that x "a/x" says nothing of y's name here, "b/y".
  std::map<std::optional<size_t>, NamePrefixes> prefixes_of;
  auto prefixes_for = [&](size_t b) -> const NamePrefixes& {
    const auto [it, fresh] = prefixes_of.try_emplace(group[b]);
    if (fresh) {
      std::vector<std::optional<size_t>> same = selected_match;
      for (auto& m : same)
        if (m && group[b] && group[*m] != group[b]) m.reset();
      it->second = name_prefixes(scope->selected, same, baseline, scope->paths, baseline_path);
    }
    return it->second;
  };
  const TreeMoves moves = tree_moves(scope->selected, baseline, selected_match);
  std::vector<std::vector<std::string>> folders;  // the PATHs typed
  for (const std::string& p : scope->paths) folders.push_back(parts_of({"", reported_path(p)}));
  const std::vector<bool> unseen =
      unseen_paths(baseline, selected_match, group, scope->baseline_paths.size(), moves, folders);
  const NameSelector selector(Selection{scope->filter, scope->exclude});
  auto keeps = [&](const std::string& name) {
    const int slice = scope->shard_count > 0 ? shard_of(name, scope->shard_count) + 1 : 0;
    return selector.keeps(name) &&
           (slice == 0 || std::find(scope->shards.begin(), scope->shards.end(), slice) != scope->shards.end());
  };
  for (size_t b = 0; b < baseline.size(); ++b) {
    if (there[b] || unseen[b]) continue;
    const std::vector<std::string> parts = name_parts(baseline[b].name);
    bool placed = false;  // named in this run's terms, selected or not
    for (const auto& [base_prefix, run_prefix] : prefixes_for(b)) {
      // A test named by its own folder as its run's PATH is named so by no prefix: its path says.
      if (baseline_path[b] || !below(parts, base_prefix)) continue;
      placed = true;
      const std::string name = joined(run_prefix, parts, base_prefix.size());
      if (keeps(name)) {
        missing[b] = name;
        break;
      }
    }
    if (placed || !fs::path(baseline[b].model).is_absolute()) continue;
    // No test both know names it: where its path puts it, below a PATH typed.
    const std::vector<std::string> at = parts_of(identity_of(baseline[b]));
    for (const auto& [from, to] : moves) {
      if (missing[b] || !starts_with(at, from)) continue;
      const std::vector<std::string> here = moved(at, from, to);
      for (const std::vector<std::string>& folder : folders)
        if (here.size() > folder.size() && starts_with(here, folder)) {
          if (keeps(name_below(folder, here))) missing[b] = name_below(folder, here);
          break;
        }
    }
  }
  return missing;
}

}  // namespace

Baseline read_baseline(const std::string& path) {
  ReportFile f = read_report_file(path, "baseline");
  Baseline b{std::move(f.tests), {}};
  for (const std::string& p : f.run.paths) {
    const bool relative = fs::path(p).is_relative();
    if (relative && f.run.cwd.empty()) continue;  // where it was typed is not said
    const std::string at = reported_path(relative ? f.run.cwd + "/" + p : p);
    const bool known = std::any_of(b.path_groups.begin(), b.path_groups.end(), [&](const auto& group) {
      return std::find(group.begin(), group.end(), at) != group.end();
    });
    if (known) continue;
    if (!f.merged || b.path_groups.empty()) b.path_groups.push_back({at});
    else b.path_groups.front().push_back(at);
  }
  return b;
}

TestIdentity identity_of(const TestResult& r) { return {r.name, r.model}; }

TestIdentity identity_of(const TestCase& t) { return {t.name, reported_model(t)}; }

namespace {

// The move that the match of `test` with `base`, sharing `length` path components at
// their end, says the tree made, and whether that end is no more than their names (weak).
// None for relative paths and for a tree that did not move.
struct MatchMove {
  Move move;
  bool weak = false;
};
std::optional<MatchMove> move_of(const TestIdentity& test, const TestResult& base, size_t length) {
  const TestIdentity b = identity_of(base);
  if (!fs::path(test.model).is_absolute() || !fs::path(b.model).is_absolute()) return std::nullopt;
  Move move = roots(parts_of(b), parts_of(test));
  if (move.first == move.second) return std::nullopt;
  return MatchMove{std::move(move), length <= std::max(name_span(test, parts_of(test)), name_span(b, parts_of(b)))};
}

// A match of two paths that differ says the baseline's tree moved: from the folder above
// their shared end to the run's. When that end is no more than a test's name (no folder
// above it agrees), the move is all the match rests on, and it is refused where it
// cannot be one: into a folder of itself or out of one (a new "sub" run from tree/x is
// not the baseline's tree/sub, and a new tree/sub not its deleted tree/x/sub), or where a
// move whose end reaches further puts that folder elsewhere (the same in a checkout
// elsewhere). A folder may be in two places at once: shards merged from two checkouts
// (Jenkins' proj and proj@2). Relative paths (older reports) say nothing of where a tree is.
void refuse_unfounded_moves(const std::vector<TestIdentity>& tests, const std::vector<TestResult>& baseline,
                            std::vector<std::optional<size_t>>& match, const std::vector<size_t>& length) {
  std::vector<std::optional<MatchMove>> moves(tests.size());
  std::vector<Move> founded;  // strong matches' moves
  for (size_t i = 0; i < tests.size(); ++i)
    if (match[i] && (moves[i] = move_of(tests[i], baseline[*match[i]], length[i])) && !moves[i]->weak)
      founded.push_back(moves[i]->move);
  // The baseline paths of tests still where they were: the folders above them did not move.
  std::vector<std::vector<std::string>> in_place;
  for (size_t i = 0; i < tests.size(); ++i)
    if (match[i] && !moves[i] && fs::path(tests[i].model).is_absolute() &&
        fs::path(baseline[*match[i]].model).is_absolute())
      in_place.push_back(parts_of(tests[i]));
  for (size_t i = 0; i < tests.size(); ++i) {
    if (!moves[i]) continue;
    // Named, not a structured binding: clang 14 (the fuzz build) cannot capture one.
    const std::vector<std::string>& from = moves[i]->move.first;
    const std::vector<std::string>& to = moves[i]->move.second;
    const bool into_itself = starts_with(to, from) || starts_with(from, to);
    // Even a strong match does not move a folder into or out of itself while a test in it
    // stays where it was: tree/tree/a moved up to tree/a is gone from tree/tree, whose b
    // still is at tree/tree/b, not the tree moved up with its end tree/a/model.onnx.
    bool refused = into_itself &&
                   std::any_of(in_place.begin(), in_place.end(), [&](const auto& at) { return starts_with(at, from); });
    if (moves[i]->weak) {
      refused = refused || into_itself;
      for (const auto& [f, t] : founded)
        if (!refused && starts_with(from, f)) refused = moved(from, f, t) != to;
    }
    if (refused) match[i].reset();
  }
}

// Weak matches whose moves put one folder in two places, one inside the other, cannot all
// be right: a tree is not both at T and inside it. The move that puts more of the run's
// tests at a baseline test's path stands, and of as many the one that puts that folder
// higher (it places the other's run test as a new one below it). So a baseline's known failure "sub"
// is not taken for a new x/sub of a checkout of its tree under another name, whose x/y
// says where the tree went; a checkout named like a folder inside it (ci/x, holding x/q)
// keeps its tests; and proj/tree/a is not taken for a checkout's top-level a where p and
// q of proj/b say that proj itself is at the checkout's root.
void refuse_nested_moves(const std::vector<TestIdentity>& tests, const std::vector<TestResult>& baseline,
                         std::vector<std::optional<size_t>>& match, const std::vector<size_t>& length) {
  std::vector<std::optional<Move>> weak(tests.size());
  std::map<Move, size_t> votes;  // how many run tests each move puts at a baseline test's path
  for (size_t i = 0; i < tests.size(); ++i)
    if (match[i])
      if (auto m = move_of(tests[i], baseline[*match[i]], length[i]); m && m->weak) votes[*(weak[i] = m->move)] = 0;
  std::set<std::vector<std::string>> baseline_paths;
  for (const TestResult& b : baseline)
    if (fs::path(b.model).is_absolute()) baseline_paths.insert(parts_of(identity_of(b)));
  std::vector<std::vector<std::string>> run_paths;
  for (const TestIdentity& t : tests)
    if (fs::path(t.model).is_absolute()) run_paths.push_back(parts_of(t));
  for (auto& [move, count] : votes)
    for (const std::vector<std::string>& at : run_paths)
      if (starts_with(at, move.second)) count += baseline_paths.count(moved(at, move.second, move.first));
  // Where `a` and `b` put the deeper of their two folders, when one holds the other and
  // they put it in two places, one inside the other: (a's place, b's place).
  auto places = [](const Move& a,
                   const Move& b) -> std::optional<std::pair<std::vector<std::string>, std::vector<std::string>>> {
    std::vector<std::string> by_a, by_b;
    if (starts_with(a.first, b.first)) by_a = a.second, by_b = moved(a.first, b.first, b.second);
    else if (starts_with(b.first, a.first)) by_a = moved(b.first, a.first, a.second), by_b = b.second;
    else return std::nullopt;
    if (by_a == by_b || !(starts_with(by_a, by_b) || starts_with(by_b, by_a))) return std::nullopt;
    return std::pair{std::move(by_a), std::move(by_b)};
  };
  std::vector<bool> refused(tests.size(), false);
  for (size_t i = 0; i < tests.size(); ++i) {
    if (!weak[i]) continue;
    const size_t mine = votes.at(*weak[i]);
    for (const auto& [other, count] : votes)
      if (const auto p = places(*weak[i], other)) {
        const bool deeper = below(p->first, p->second);
        if (mine < count || (mine == count && deeper)) refused[i] = true;
      }
  }
  for (size_t i = 0; i < tests.size(); ++i)
    if (refused[i]) match[i].reset();
}

// A run test left without a match whose path, the tree's move undone, is a baseline
// test's own path is that test, where the matches made show the move (from each match's
// end to its folders above) and no other run test takes that test so. The longest shared
// end can mislead where the checkout's root is named like a folder inside the tree: dev/tree
// checked out as ci/x gives the run's y (ci/x/y) the baseline's x/y's end, x/y/model.onnx,
// and it loses that claim to the run's x/y; the move to ci/x that a, z and the others
// show puts it at dev/tree/y.
void match_moved_paths(const std::vector<TestIdentity>& tests, const std::vector<TestResult>& baseline,
                       std::vector<std::optional<size_t>>& match, const std::vector<size_t>& length) {
  std::set<Move> moves{{{}, {}}};
  std::vector<bool> taken(baseline.size(), false);
  for (size_t i = 0; i < tests.size(); ++i) {
    if (!match[i]) continue;
    taken[*match[i]] = true;
    if (auto m = move_of(tests[i], baseline[*match[i]], length[i])) moves.insert(std::move(m->move));
  }
  std::map<std::vector<std::string>, size_t> free_paths;  // of the baseline tests no run test is
  for (size_t b = 0; b < baseline.size(); ++b)
    if (!taken[b] && fs::path(baseline[b].model).is_absolute())
      free_paths.emplace(parts_of(identity_of(baseline[b])), b);
  std::map<size_t, std::vector<size_t>> found;  // baseline test -> the run tests whose moved path it is
  for (size_t i = 0; i < tests.size(); ++i) {
    if (match[i] || !fs::path(tests[i].model).is_absolute()) continue;
    const std::vector<std::string> at = parts_of(tests[i]);
    std::set<size_t> candidates;
    for (const auto& [from, to] : moves)
      if (starts_with(at, to))
        if (const auto it = free_paths.find(moved(at, to, from)); it != free_paths.end()) candidates.insert(it->second);
    if (candidates.size() == 1) found[*candidates.begin()].push_back(i);
  }
  for (const auto& [b, claimants] : found)
    if (claimants.size() == 1) match[claimants[0]] = b;
}

}  // namespace

std::vector<std::optional<size_t>> match_baseline(const std::vector<TestIdentity>& tests,
                                                  const std::vector<TestResult>& baseline) {
  // Every suffix of every baseline test's path, with the tests that end so.
  std::unordered_map<std::string, std::vector<size_t>> by_suffix;
  std::vector<size_t> baseline_span(baseline.size()), baseline_parts(baseline.size());
  for (size_t b = 0; b < baseline.size(); ++b) {
    const TestIdentity id = identity_of(baseline[b]);
    const std::vector<std::string> parts = parts_of(id);
    baseline_span[b] = name_span(id, parts);
    baseline_parts[b] = parts.size();
    for (size_t k = 1; k <= parts.size(); ++k) by_suffix[suffix_key(parts, k)].push_back(b);
  }
  std::vector<std::optional<size_t>> match(tests.size());
  std::vector<size_t> length(tests.size(), 0);  // the matched suffix's length
  for (size_t i = 0; i < tests.size(); ++i) {
    const std::vector<std::string> parts = parts_of(tests[i]);
    const size_t span = name_span(tests[i], parts);
    for (size_t k = parts.size(); k >= 1; --k) {
      const auto it = by_suffix.find(suffix_key(parts, k));
      if (it == by_suffix.end()) continue;
      // The longest shared suffix decides: one baseline test, spanning the shorter name,
      // and within the longer name no folder that the other path names otherwise. The
      // baseline's "x/t" is not the run's "t" at tree/y/t, whose path says "y" where the
      // baseline's name says "x"; it is the "t" of `cd tree/x && onnx-run test t`, whose
      // path says nothing there. So a top-level "conv" in a checkout elsewhere is the
      // baseline's "conv", not its "a/conv", though both paths end in conv/model.onnx.
      // Of several that fit, the one whose name is all of the shared end (the others lean on
      // a folder above their names): a tree whose root folder is named "tree" and that
      // holds tree/x gives its x and its tree/x one end, tree/x/model.onnx, which is tree/x.
      // Else the one of the same name, but not where another of them has that name made
      // unique ("sub#2") at another path:
      // t/b's "sub" and t/c's "sub#2" of a run of t/b t/c say nothing of which a new t/a/sub
      // is. Two folders whose names print alike (caf\xe9) share a path and "#2" alone.
      std::vector<size_t> fits;
      for (const size_t b : it->second) {
        const bool contradicted = (k < baseline_span[b] && k < parts.size()) || (k < span && k < baseline_parts[b]);
        if (k >= std::min(span, baseline_span[b]) && !contradicted) fits.push_back(b);
      }
      std::optional<size_t> only;
      size_t whole_name = 0;  // of the fits, how many have the shared end as their name
      for (const size_t b : fits) whole_name += baseline_span[b] == k;
      for (const size_t b : fits)
        if (fits.size() == 1 || (whole_name == 1 ? baseline_span[b] == k : baseline[b].name == tests[i].name)) only = b;
      for (const size_t b : fits)
        if (only && b != *only && unique_free(baseline[b].name) == unique_free(tests[i].name) &&
            baseline[b].model != baseline[*only].model)
          only.reset();
      if (only) {
        match[i] = only;
        length[i] = k;
      }
      break;
    }
  }
  refuse_unfounded_moves(tests, baseline, match, length);
  // Two run tests claiming one baseline test: the longer suffix keeps it, a tie neither.
  std::unordered_map<size_t, std::vector<size_t>> claims;
  for (size_t i = 0; i < tests.size(); ++i)
    if (match[i]) claims[*match[i]].push_back(i);
  for (const auto& [b, claimants] : claims) {
    if (claimants.size() < 2) continue;
    size_t best = 0, best_count = 0;
    for (size_t i : claimants) {
      if (length[i] > best) best = length[i], best_count = 0;
      best_count += length[i] == best;
    }
    for (size_t i : claimants)
      if (length[i] != best || best_count > 1) match[i].reset();
  }
  refuse_nested_moves(tests, baseline, match, length);
  match_moved_paths(tests, baseline, match, length);
  return match;
}

namespace {

// The baseline test each result is, matched within everything the run selected (`scope`:
// a --shard slice's results are a part of it) where every result is there, so that the
// tests of other slices say where the tree went too, and every slice matches as the whole
// run does: a slice holding only a new x/sub took it for the baseline's "sub", which the
// unsharded run refused since its x/y says the tree sits above x.
std::vector<std::optional<size_t>> match_results(const std::vector<TestResult>& results,
                                                 const std::vector<TestResult>& baseline, const RunScope* scope) {
  std::vector<TestIdentity> ids;
  for (const TestResult& r : results) ids.push_back(identity_of(r));
  if (!scope) return match_baseline(ids, baseline);
  std::map<std::pair<std::string, std::string>, size_t> selected;  // (name, model) -> index
  for (size_t k = 0; k < scope->selected.size(); ++k)
    selected.emplace(std::pair{scope->selected[k].name, scope->selected[k].model}, k);
  std::vector<size_t> at;
  for (const TestIdentity& id : ids) {
    const auto it = selected.find({id.name, id.model});
    if (it == selected.end()) return match_baseline(ids, baseline);
    at.push_back(it->second);
  }
  const std::vector<std::optional<size_t>> all = match_baseline(scope->selected, baseline);
  std::vector<std::optional<size_t>> match;
  for (const size_t k : at) match.push_back(all[k]);
  return match;
}

}  // namespace

BaselineDiff compare_with_baseline(const std::vector<TestResult>& results, const std::vector<TestResult>& baseline,
                                   bool strict, const RunScope* scope) {
  const std::vector<std::optional<size_t>> match = match_results(results, baseline, scope);
  BaselineDiff d;
  d.baseline_tests = baseline.size();
  std::vector<bool> met(baseline.size(), false);
  for (size_t i = 0; i < results.size(); ++i) {
    const TestResult& r = results[i];
    if (!match[i]) {
      if (r.outcome == Outcome::kPassed) d.newly_passing.push_back({r.name, r.outcome, r.outcome, true});
      else if (is_problem(r.outcome, strict)) d.regressions.push_back({r.name, r.outcome, r.outcome, true});
      continue;
    }
    met[*match[i]] = true;
    const Outcome before = baseline[*match[i]].outcome;
    if (std::optional<BaselineChange> c = regression(r, baseline[*match[i]])) d.regressions.push_back(std::move(*c));
    else if (before != Outcome::kPassed && r.outcome == Outcome::kPassed)
      d.newly_passing.push_back({r.name, before, r.outcome, false});
  }
  d.matched = static_cast<size_t>(std::count(met.begin(), met.end(), true));
  const std::vector<std::optional<std::string>> missing = missing_names(baseline, met, scope);
  for (size_t b = 0; b < baseline.size(); ++b)
    if (missing[b]) d.missing.push_back({*missing[b], baseline[b].name, baseline[b].model, baseline[b].outcome});
  d.not_run = baseline.size() - d.matched - d.missing.size();
  return d;
}

namespace {

// The folder the baseline names tests from, where this run's tests lie: what each test
// both know says, its model's folders above the baseline's name for it (but for one the
// baseline's run had as its PATH, named by its own folder); none where they disagree.
std::optional<std::vector<std::string>> baseline_root(const std::vector<TestResult>& run_tests,
                                                      const std::vector<std::optional<size_t>>& match,
                                                      const std::vector<TestResult>& baseline,
                                                      const std::vector<bool>& baseline_path) {
  std::optional<std::vector<std::string>> root;
  for (size_t i = 0; i < run_tests.size(); ++i) {
    if (!match[i] || baseline_path[*match[i]]) continue;
    std::optional<std::vector<std::string>> here =
        name_root(baseline[*match[i]].name, parts_of(identity_of(run_tests[i])));
    if (!here || (root && *root != *here)) return std::nullopt;
    root = std::move(here);
  }
  return root;
}

// A run and its baseline name the same tests differently when one ran a folder within
// the other's (`test tree`: "sub/x", `test tree/sub`: "x"). An update names them all one
// way: the baseline's where its folder holds every test of the run (a test both know as
// the baseline names it, a new one as discovery names it below that folder), else the
// run's where it names every test kept from the baseline. Named both ways in one file, the
// next run would take a kept "a/conv" for a test below its own PATH, and report it missing.
void name_in_one_frame(std::vector<TestResult>& run_tests, const std::vector<std::optional<size_t>>& match,
                       std::vector<TestResult>& kept, const std::vector<TestResult>& baseline,
                       const std::vector<bool>& baseline_path, const NamePrefixes& prefixes) {
  if (const auto root = baseline_root(run_tests, match, baseline, baseline_path)) {
    bool all_below = true;
    for (size_t i = 0; i < run_tests.size() && all_below; ++i)
      all_below = match[i] || below(parts_of(identity_of(run_tests[i])), *root);
    if (all_below) {
      for (size_t i = 0; i < run_tests.size(); ++i)
        run_tests[i].name =
            match[i] ? baseline[*match[i]].name : name_below(*root, parts_of(identity_of(run_tests[i])));
      return;
    }
  }
  if (prefixes.size() != 1) return;
  const auto& [base, run] = prefixes[0];
  for (const TestResult& t : kept)
    if (!below(name_parts(t.name), base)) return;
  for (TestResult& t : kept) t.name = joined(run, name_parts(t.name), base.size());
}

// A kept test recorded where this run's tree has it: its model path moved as the tests
// both know say the tree moved (the move from the deepest folder above it), so that the
// next run, in this checkout, reads the updated baseline in one tree. Left where it was
// when two such moves disagree, or none moves it. Kept at its old path, a known failure
// "sub" of a checkout named dev/tree stayed at dev/tree/sub when ci/x was run in a
// checkout named ci, and the next run took a new ci/x/sub for it.
// Returns the PATHs of the baseline's run (`groups`: RunScope::baseline_paths) that hold
// the kept tests, moved likewise. The updated baseline records them beside this run's, so
// that the next run tells a kept test below a PATH it does not type (a baseline of `test
// tree` ratcheted by `test tree/sub other` keeps a/conv) from one it would run.
std::vector<std::string> move_kept(std::vector<TestResult>& kept, const TreeMoves& moves,
                                   const std::vector<std::vector<std::string>>& groups) {
  std::vector<std::string> paths;
  for (TestResult& t : kept) {
    if (!fs::path(t.model).is_absolute()) continue;
    const std::vector<std::string> at = parts_of(identity_of(t));
    const Move* deepest = nullptr;
    bool agreed = true;
    for (const auto& move : moves) {
      if (!starts_with(at, move.first)) continue;
      if (!deepest || move.first.size() > deepest->first.size()) {
        deepest = &move;
        agreed = true;
      } else if (move.first.size() == deepest->first.size() && move.second != deepest->second) {
        agreed = false;
      }
    }
    const Move* move = deepest && agreed ? deepest : nullptr;
    auto absolute = [](const std::vector<std::string>& parts) { return "/" + joined({}, parts, 0); };
    if (const auto holder = holding_path(at, groups); holder && (!move || starts_with(holder->second, move->first))) {
      const std::string path = absolute(move ? moved(holder->second, move->first, move->second) : holder->second);
      if (std::find(paths.begin(), paths.end(), path) == paths.end()) paths.push_back(path);
    }
    if (move) t.model = absolute(moved(at, move->first, move->second));
  }
  return paths;
}

}  // namespace

std::vector<TestResult> updated_baseline(const std::vector<TestResult>& results, const std::vector<TestResult>* given,
                                         bool strict, const RunScope* scope, std::vector<std::string>* kept_paths) {
  if (!given) return results;
  const std::vector<TestResult>& baseline = *given;
  std::vector<TestIdentity> ids;
  for (const TestResult& r : results) ids.push_back(identity_of(r));
  const std::vector<std::optional<size_t>> match = match_results(results, baseline, scope);
  std::vector<TestResult> out;
  std::vector<std::optional<size_t>> out_match;  // of each of `out`
  std::vector<bool> met(baseline.size(), false);
  for (size_t i = 0; i < results.size(); ++i) {
    TestResult r = results[i];
    // A new test that does not pass is a regression (compare_with_baseline): recorded as
    // it is, it would become a known failure and the next run would pass over it.
    if (!match[i] && is_problem(r.outcome, strict)) continue;
    out_match.push_back(match[i]);
    if (match[i]) {
      met[*match[i]] = true;
      const TestResult& before = baseline[*match[i]];
      if (regression(r, before)) {  // not accepted by updating: recorded as it was
        r.outcome = before.outcome;
        r.message = before.message;
        r.causes = before.causes;
        r.signal = before.signal;
        r.sets = before.sets;
      }
    }
    out.push_back(std::move(r));
  }
  const std::vector<std::optional<std::string>> missing = missing_names(baseline, met, scope);
  std::vector<TestResult> kept;
  for (size_t b = 0; b < baseline.size(); ++b)
    if (!met[b] && !missing[b]) kept.push_back(baseline[b]);
  // A test that is a PATH itself (a model folder typed) says nothing of where the tree
  // around it went, as it teaches no name prefix: `test tree/sub/a/q` matched with a
  // baseline's a/q would otherwise move every kept test of tree/t into tree/sub.
  std::vector<std::optional<size_t>> teaching = match;
  for (size_t i = 0; i < teaching.size(); ++i)
    if (scope && is_a_path(ids[i], scope->paths)) teaching[i].reset();
  const std::vector<std::string> paths =
      move_kept(kept, tree_moves(ids, baseline, teaching),
                scope ? scope->baseline_paths : std::vector<std::vector<std::string>>{});
  if (kept_paths) *kept_paths = paths;
  const std::vector<bool> baseline_path = named_as_path(baseline);
  name_in_one_frame(
      out, out_match, kept, baseline, baseline_path,
      name_prefixes(ids, match, baseline, scope ? scope->paths : std::vector<std::string>{}, baseline_path));
  out.insert(out.end(), kept.begin(), kept.end());
  return out;
}

}  // namespace onnxrun
