#include "suite/discovery.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <utility>

#include <sys/stat.h>

#include <fmt/format.h>

#include "core/error.h"
#include "core/fail.h"

namespace fs = std::filesystem;

namespace onnxrun {
namespace {

struct Listing {
  std::vector<fs::path> files, dirs;
  // Entries that exist but are neither (FIFOs, sockets, devices, links to them, broken
  // links): a model among them is still a test, which fails when run (never opened here:
  // opening a FIFO for reading blocks).
  std::vector<fs::path> others;
  // Why the folder could not be listed (empty when it could): its tests are unknown.
  std::string error;
};

// One folder's entries, naturally sorted.
Listing list_dir(const fs::path& dir) {
  Listing l;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code ec2;
    const fs::file_status st = it->status(ec2);  // follows links
    if (ec2) {
      // A link to nothing (or a loop of links) is an entry whose target is gone: a model
      // among them is a test that errs. Any other failure: the folder cannot be read.
      std::error_code ec3;
      if (fs::is_symlink(it->symlink_status(ec3)) && !ec3) {
        l.others.push_back(it->path());
        continue;
      }
      l.error = fmt::format("cannot read {}: {}", it->path().string(), ec2.message());
      return l;
    }
    if (fs::is_directory(st)) l.dirs.push_back(it->path());
    else if (fs::is_regular_file(st)) l.files.push_back(it->path());
    else if (fs::exists(st)) l.others.push_back(it->path());
  }
  if (ec) {
    l.error = fmt::format("cannot read folder {}: {}", dir.string(), ec.message());
    return l;
  }
  auto by_name = [](const fs::path& a, const fs::path& b) {
    return natural_less(a.filename().string(), b.filename().string());
  };
  std::sort(l.files.begin(), l.files.end(), by_name);
  std::sort(l.dirs.begin(), l.dirs.end(), by_name);
  std::sort(l.others.begin(), l.others.end(), by_name);
  return l;
}

bool has_suffix(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// NAME_input_K.pb / NAME_output_K.pb beside NAME.onnx, by K, of any kind (a FIFO there is
// refused when read, as in a test set). A gap in K is left for the run to report
// (case_runner.cc, as list_test_set does), so that it is an error of that test, not of the
// whole discovery; a folder that cannot be listed has none.
TestSetFiles files_beside(const fs::path& model) {
  std::error_code ec;
  const fs::path dir = model.parent_path().empty() ? fs::path(".") : model.parent_path();
  TestSetFiles files = list_numbered_files(dir.string(), model.stem().string() + "_", ec);
  return ec ? TestSetFiles{} : files;
}

std::string folder_name(const fs::path& p) {
  std::error_code ec;
  const fs::path c = fs::canonical(p, ec);
  return (ec ? p : c).filename().string();
}

// `dir` as a path whose last part names the folder: absolute where it ends in "." or ".."
// (as typed from inside the folder).
fs::path naming(const fs::path& dir) {
  const fs::path n = dir.lexically_normal();
  const fs::path last = n.has_filename() ? n.filename() : n.parent_path().filename();
  if (!last.empty() && last != "." && last != "..") return dir;
  return absolute_path(dir.string());
}

// Where a test is, the same however its PATH was typed: for ordering tests of one name.
std::string where(const TestCase& c) {
  const fs::path p = c.model.empty() ? c.dir : c.model;
  std::error_code ec;
  const fs::path canonical = fs::canonical(p, ec);
  return (ec ? fs::absolute(p, ec).lexically_normal() : canonical).string();
}

class Walker {
 public:
  std::vector<TestCase> found;

  size_t candidates = 0;  // tests found, including those already found from another PATH

  void add_folder_test(const fs::path& dir, const fs::path& model, std::string name) {
    ++candidates;
    if (!seen(dir)) return;
    TestCase c;
    c.name = std::move(name);
    c.kind = CaseKind::kFolder;
    c.model = model.string();
    c.dir = dir.string();
    c.sets = find_test_sets(c.dir);
    found.push_back(std::move(c));
  }

  void add_file_test(const fs::path& model, std::string name) {
    ++candidates;
    if (!seen(model.parent_path().empty() ? fs::path(".") : model.parent_path(), model.filename())) return;
    TestCase c;
    c.name = std::move(name);
    c.model = model.string();
    c.dir = model.parent_path().empty() ? "." : model.parent_path().string();
    c.files = files_beside(model);
    if (c.files.outputs.empty() && c.files.inputs.empty()) {
      // A lone model file given by the user: its test sets, if any, are the folder's.
      c.kind = CaseKind::kFolder;
      c.sets = find_test_sets(c.dir);
    } else {
      c.kind = CaseKind::kFile;
    }
    found.push_back(std::move(c));
  }

  // A model file given by its path: the test of its folder when it is model.onnx.
  void add_model_file(const fs::path& p) {
    if (p.filename() == "model.onnx") {
      const fs::path dir = naming(p.parent_path().empty() ? fs::path(".") : p.parent_path());
      add_folder_test(dir, dir / p.filename(), folder_name(dir));
    } else {
      add_file_test(p, p.stem().string());
    }
  }

  // A folder that could not be listed: one test that errs, so that the run fails and the
  // reports name it, rather than its tests silently missing from them.
  void add_unreadable(const fs::path& dir, std::string name, std::string problem) {
    ++candidates;
    if (!seen(dir)) return;
    TestCase c;
    c.name = std::move(name);
    c.kind = CaseKind::kUnreadable;
    c.dir = dir.string();
    c.problem = std::move(problem);
    found.push_back(std::move(c));
  }

  // Walks the tree at `root`, naming tests relative to it.
  void walk_root(const fs::path& root) {
    visited_.clear();
    root_ = root.string();
    walk(root, "", folder_name(root), 0);
  }

 private:
  // `prefix` is the name of `dir` relative to the root ("" for the root itself), `depth`
  // how many folders below the root it is.
  void walk(const fs::path& dir, const std::string& prefix, const std::string& root_name, int depth) {
    // Too deep to search is like unreadable: one test that errs names the folder, while
    // the rest of the tree still runs (one stray deep folder must not stop the whole run).
    if (depth > kMaxDiscoveryDepth) {
      add_unreadable(dir, prefix,
                     fmt::format("folder {} is deeper than {} levels below {}, the limit, and was not searched",
                                 dir.string(), kMaxDiscoveryDepth, root_));
      return;
    }
    // A folder is known by its device and inode: one stat, where resolving its path
    // (fs::canonical) reads every link above it and made a deep tree cost its depth cubed.
    struct stat st {};
    if (::stat(dir.c_str(), &st) != 0) {
      add_unreadable(dir, prefix.empty() ? root_name : prefix,
                     fmt::format("cannot read folder {}: {}", dir.string(), std::strerror(errno)));
      return;
    }
    if (!visited_.insert({st.st_dev, st.st_ino}).second) return;  // a link loop
    const Listing l = list_dir(dir);
    // The root's own test is named after its folder: its path must name that folder too
    // (a baseline matches tests by their paths), which "." typed inside it does not.
    const fs::path at = prefix.empty() ? naming(dir) : dir;
    if (!l.error.empty()) {
      add_unreadable(at, prefix.empty() ? root_name : prefix, l.error);
      return;
    }
    auto join = [&](const std::string& leaf) { return prefix.empty() ? leaf : prefix + "/" + leaf; };
    // Every entry that may be a model or data.json: files, entries of other kinds (a FIFO,
    // a dangling link), and a folder where a model belongs (model.onnx, or NAME.onnx with
    // NAME_*.pb beside it). Whatever stands at such a name is a test, one that errs when
    // its model is read, never one left out.
    std::vector<fs::path> entries = l.files;
    entries.insert(entries.end(), l.others.begin(), l.others.end());
    for (const fs::path& d : l.dirs) {
      const std::string dname = d.filename().string();
      if (!has_suffix(dname, ".onnx")) continue;  // the listing of files_beside is for these alone
      const TestSetFiles beside = dname == "model.onnx" ? TestSetFiles{} : files_beside(d);
      if (dname == "model.onnx" || !(beside.inputs.empty() && beside.outputs.empty())) entries.push_back(d);
    }
    // A model folder is a test, and what else it holds is still searched: a test in a
    // folder below it, or a NAME.onnx beside it with NAME_output_K.pb of its own, must not
    // vanish from the run unsaid (a lone NAME.onnx there would pair with model.onnx's
    // test sets, so it is none).
    bool model_folder = false;
    for (const fs::path& f : entries)
      if (!model_folder && f.filename() == "model.onnx") {
        add_folder_test(at, at / f.filename(), prefix.empty() ? root_name : prefix);
        model_folder = true;
      }
    bool any_model = model_folder, data_json = false;
    for (const fs::path& f : entries) {
      const std::string fname = f.filename().string();
      if (fname == "data.json") data_json = true;
      if (!has_suffix(fname, ".onnx") || fname == "model.onnx") continue;
      if (model_folder && files_beside(f).outputs.empty()) continue;
      any_model = true;
      add_file_test(f, join(f.stem().string()));
    }
    if (!any_model && data_json) {
      TestCase c;
      c.name = prefix.empty() ? root_name : prefix;
      c.kind = CaseKind::kMissingModel;
      c.dir = at.string();
      ++candidates;
      if (seen(dir)) found.push_back(std::move(c));
    }
    for (const fs::path& d : l.dirs) {
      const std::string dname = d.filename().string();
      if (dname.rfind("test_data_set_", 0) == 0 || dname.rfind('.', 0) == 0) continue;
      walk(d, join(dname), root_name, depth + 1);
    }
  }

  // False when this test was already found from another PATH: the same folder (by
  // canonical path), or the same `file` in it. A test is its data as much as its model:
  // a folder whose model.onnx links to another test's model is a test of its own, with
  // its own test sets (so `file` is not resolved: NAME.onnx pairs with the NAME_*.pb
  // beside the link).
  bool seen(const fs::path& dir, const fs::path& file = {}) {
    std::error_code ec;
    const fs::path c = fs::canonical(dir, ec);
    return tests_.insert(((ec ? dir : c) / file).string()).second;
  }
  std::set<std::string> tests_;
  std::set<std::pair<dev_t, ino_t>> visited_;
  std::string root_;
};

}  // namespace

TestCase test_of_model(const std::string& model) {
  Walker w;
  w.add_model_file(model);
  return std::move(w.found.front());
}

std::vector<TestCase> discover_tests(const std::vector<std::string>& paths) {
  Walker w;
  for (const std::string& path : paths) {
    std::error_code ec;
    const fs::path p(path);
    const size_t before = w.candidates;
    if (fs::is_directory(p, ec)) {
      w.walk_root(p);
    } else if (fs::exists(p, ec)) {  // a regular file, or a FIFO or device that fails when run
      w.add_model_file(p);
    } else {
      fail(ErrorKind::kUsage, "{}: no such file or folder", path);
    }
    if (w.candidates == before)
      fail(ErrorKind::kUsage,
           "{}: no tests found (expected model.onnx beside test_data_set_* folders, or *.onnx files)", path);
  }
  // One name in every door (text, JSON, JUnit, filters, shards): a folder name that is not
  // UTF-8 would be U+FFFD in the reports and match no test when read back, and a control
  // character would reach the terminal, a CI log or the JUnit XML (which may not hold one).
  for (TestCase& c : w.found) c.name = printable(valid_utf8(c.name));
  std::stable_sort(w.found.begin(), w.found.end(),
                   [](const TestCase& a, const TestCase& b) { return natural_less(a.name, b.name); });
  // Two PATHs can yield the same relative name: keep names unique, first one unchanged.
  // First by where the tests are, not by the order the PATHs were typed in: shards run
  // with `x y` and with `y x` must give each test the same name, or a merge of their
  // reports could hold one test twice and the other never.
  for (auto from = w.found.begin(); from != w.found.end();) {
    const auto to = std::find_if(from, w.found.end(), [&](const TestCase& c) { return c.name != from->name; });
    if (to - from > 1) std::sort(from, to, [](const TestCase& a, const TestCase& b) { return where(a) < where(b); });
    from = to;
  }
  // The suffix skips names already taken, a real folder named "x#2" among them: two
  // tests of one name would be one entry to a merge, a filter and a JUnit reader.
  std::set<std::string> taken;
  for (const TestCase& c : w.found) taken.insert(c.name);
  std::map<std::string, int> uses;
  for (TestCase& c : w.found) {
    if (++uses[c.name] == 1) continue;
    std::string unique;
    for (int n = 2; !taken.insert(unique = c.name + "#" + std::to_string(n)).second; ++n) {
    }
    c.name = unique;
  }
  // In name order again (report merge lists tests so): "x#3" may sort after a real "x#2".
  std::stable_sort(w.found.begin(), w.found.end(),
                   [](const TestCase& a, const TestCase& b) { return natural_less(a.name, b.name); });
  return w.found;
}

std::string absolute_path(const std::string& path) {
  std::error_code ec;
  const fs::path abs = fs::absolute(path, ec);
  if (ec) return fs::path(path).lexically_normal().string();
  const std::vector<fs::path> parts(abs.begin(), abs.end());
  const auto up = std::find(parts.rbegin(), parts.rend(), "..");
  if (up == parts.rend()) return abs.lexically_normal().string();
  // Up to the last "..", as the system resolves it; the rest as typed.
  fs::path head, tail;
  for (auto it = parts.begin(); it != parts.end(); ++it) (it < up.base() ? head : tail) /= *it;
  const fs::path resolved = fs::canonical(head, ec);
  return (ec ? abs : resolved / tail).lexically_normal().string();
}

std::string reported_model(const TestCase& t) {
  return printable(valid_utf8(absolute_path(t.model.empty() ? t.dir : t.model)));
}

void parse_shard(const std::string& text, Selection& sel) {
  static const std::regex kShard(R"((\d{1,6})/(\d{1,6}))");
  std::smatch m;
  if (!std::regex_match(text, m, kShard)) fail(ErrorKind::kUsage, "--shard {}: expected K/N, as in --shard 2/4", text);
  const int k = std::stoi(m[1]), n = std::stoi(m[2]);
  if (n < 1 || k < 1 || k > n) fail(ErrorKind::kUsage, "--shard {}: K must be from 1 to N", text);
  sel.shard_index = k;
  sel.shard_count = n;
}

namespace {

// FNV-1a: fixed, so shards and digests are the same on every machine.
uint64_t fnv1a(const std::string& bytes, uint64_t h = 1469598103934665603ull) {
  for (unsigned char ch : bytes) {
    h ^= ch;
    h *= 1099511628211ull;
  }
  return h;
}

}  // namespace

int shard_of(const std::string& name, int count) {
  return static_cast<int>(fnv1a(name) % static_cast<uint64_t>(count));
}

std::string names_digest(std::vector<std::string> names) {
  std::sort(names.begin(), names.end());
  uint64_t h = fnv1a("");
  for (const std::string& n : names) h = fnv1a(std::string(1, '\0'), fnv1a(n, h));  // '\0' ends each name
  return fmt::format("{} tests, digest {:016x}", names.size(), h);
}

NamePattern::NamePattern(const std::string& pattern, const char* option) {
  // libstdc++ compiles a regex by recursion, a level per term and per group: a pattern
  // of 100,000 characters or 30,000 nested groups overflows the stack. These limits are
  // far above any name filter and, under ASan's larger frames too, far below the overflow.
  constexpr size_t kMaxLength = 4096, kMaxNesting = 64;
  if (pattern.size() > kMaxLength)
    fail(ErrorKind::kUsage, "{}: a pattern of {} characters; at most {} are allowed", option, pattern.size(),
         kMaxLength);
  size_t depth = 0, deepest = 0;
  for (size_t k = 0; k < pattern.size(); ++k) {
    if (pattern[k] == '\\') ++k;  // an escaped character opens nothing
    else if (pattern[k] == '(') deepest = std::max(deepest, ++depth);
    else if (pattern[k] == ')' && depth > 0) --depth;
  }
  if (deepest > kMaxNesting)
    fail(ErrorKind::kUsage, "{}: groups nested {} deep; at most {} are allowed", option, deepest, kMaxNesting);
  try {
    // Compiled alone first: wrapped, a pattern such as `a)|(b` would be valid.
    std::regex(pattern, std::regex::ECMAScript | std::regex_constants::__polynomial);
    // Searched as one match of the whole name, so that the breadth-first run passes over
    // the name once; a search would start it again at every character (quadratic). `^`
    // and `$` still anchor at the name's ends: [\s\S]* before `^` can only be empty.
    regex_ = std::regex("[\\s\\S]*(?:" + pattern + ")[\\s\\S]*",
                        std::regex::ECMAScript | std::regex_constants::__polynomial);
  } catch (const std::regex_error& e) {
    if (e.code() == std::regex_constants::error_complexity)  // what libstdc++ says of \1 here
      fail(ErrorKind::kUsage, "{} '{}': back-references are not supported", option, pattern);
    fail(ErrorKind::kUsage, "{} '{}': not a valid regular expression ({})", option, pattern, e.what());
  }
}

bool NamePattern::found_in(const std::string& name) const { return std::regex_match(name, regex_); }

NameSelector::NameSelector(const Selection& sel)
    : sel_(sel), filter_(sel.filter, "--filter"), exclude_(sel.exclude, "--exclude") {}

bool NameSelector::keeps(const std::string& name) const {
  if (!sel_.filter.empty() && !filter_.found_in(name)) return false;
  if (!sel_.exclude.empty() && exclude_.found_in(name)) return false;
  return sel_.shard_count == 0 || shard_of(name, sel_.shard_count) == sel_.shard_index - 1;
}

std::vector<TestCase> select_tests(const std::vector<TestCase>& tests, const Selection& sel) {
  const NameSelector selector(sel);
  std::vector<TestCase> kept;
  for (const TestCase& t : tests)
    if (selector.keeps(t.name)) kept.push_back(t);
  return kept;
}

}  // namespace onnxrun
