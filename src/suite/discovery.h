// Finding the tests of a regression run, and choosing which of them to run.
//
// A test is one model with its expected data. Three layouts are recognised:
//  - a model folder: model.onnx beside test_data_set_*/ (the ONNX backend layout); its
//    other folders are searched too, as any folder is;
//  - a model file NAME.onnx beside NAME_input_K.pb / NAME_output_K.pb (the `light/`
//    layout of the ONNX test data, which gives expected outputs and often no inputs);
//  - a folder with a data.json but no model (the ONNX `real/` layout, whose model is
//    downloaded by URL): listed so that it is reported (as unsupported), not lost.
// Discovery only walks the file system; files are read when a test runs, so a broken
// test becomes that test's outcome rather than aborting the run. A folder that cannot be
// listed, and a model file that is a broken link, are tests too, that err: the tests
// they hide must not vanish from the run and its reports without a word.
#pragma once

#include <cstdint>
#include <regex>
#include <string>
#include <vector>

#include "io/test_data.h"

namespace onnxrun {

enum class CaseKind {
  kFolder,        // `model` with the test_data_set_* folders `sets`
  kFile,          // `model` with the expected data `files` beside it
  kMissingModel,  // `dir` has a data.json but no model file
  kUnreadable,    // `dir` could not be listed, or is deeper than kMaxDiscoveryDepth: whatever
                  // tests it holds are unknown, so it is a test of its own that errs with
                  // `problem` (never left out unsaid)
};

struct TestCase {
  // Stable name: the path relative to the PATH it was found under, '/'-separated,
  // without ".onnx" for a model file; a PATH that is itself a test is named by its
  // folder (model.onnx) or file stem. Names are unique within one discovery: of tests
  // that would share one, the first by canonical path keeps it and the others get "#2",
  // "#3", whatever order the PATHs were typed in.
  std::string name;
  CaseKind kind = CaseKind::kFolder;
  std::string model;              // the .onnx file; empty for kMissingModel and kUnreadable
  std::string dir;                // the folder holding the model (and any data.json)
  std::string problem;            // kUnreadable: why the folder could not be read
  std::vector<std::string> sets;  // kFolder: test_data_set_* folders, naturally sorted
  TestSetFiles files;             // kFile: NAME_input_K.pb / NAME_output_K.pb by K
};

// The model path a report records for `t`: its model, or its folder when it has none,
// absolute (links not resolved), as valid UTF-8 (core/error.h valid_utf8), so that it
// reads back as the same text and a baseline or merge matches it. Absolute, because a
// relative path says nothing of the folders above it: a baseline's "t/model.onnx",
// typed from inside tree/x, matched a new tree/y/t of another run. Test names are made
// valid UTF-8 so at discovery.
std::string reported_model(const TestCase& t);

// `path` made absolute, its "." parts taken out and its ".." resolved as the system
// resolves them: "link/.." is the parent of the folder the link names, which the text
// alone does not say ("other/c" reached as link/../other/c is no file at ./other/c).
// Other links stay as typed: a tree reached through a link is named by that path.
std::string absolute_path(const std::string& path);

// How many folders deep below a PATH discovery looks. Each folder costs one listing and
// one stat, so discovery is linear in the tree; the limit bounds the recursion and the
// path lengths (PATH_MAX is reached near this depth with short names anyway). A folder
// deeper is not searched: it becomes a kUnreadable test that says so.
constexpr int kMaxDiscoveryDepth = 256;

// Every test under `paths` (each a model file, a model folder or a tree), sorted
// naturally by name, each model once. Throws Error(kUsage) for a path that does not
// exist or holds no test at all.
std::vector<TestCase> discover_tests(const std::vector<std::string>& paths);

// The test of one model file, as discover_tests finds it when given that file: a
// model.onnx with the test_data_set_* folders beside it; any other NAME.onnx with the
// light layout's NAME_input_K.pb / NAME_output_K.pb beside it, or, when it has none, with
// those folders. `onnx-run MODEL` runs the same data as `onnx-run test MODEL`.
TestCase test_of_model(const std::string& model);

struct Selection {
  std::string filter;   // ECMAScript regex searched in the name; empty: all
  std::string exclude;  // likewise; matching tests are dropped
  int shard_index = 0;  // 1-based K of --shard K/N; 0: no sharding
  int shard_count = 0;
};

// Parses "K/N" (1 <= K <= N) into `sel`. Throws Error(kUsage).
void parse_shard(const std::string& text, Selection& sel);

// The shard (0-based) a test belongs to among `count`: a hash of its name only, so a
// test stays in its shard whatever other tests are added or removed, and the shards
// partition any set of tests exactly.
int shard_of(const std::string& name, int count);

// What a set of tests is, by name, whatever their order: "N tests, digest HEX" (FNV-1a
// over the sorted names). Every shard of one run records it for the selection before
// sharding, so `report merge` can tell shards of one corpus from shards of checkouts that
// differ, and shards that together hold fewer tests than their run selected.
std::string names_digest(std::vector<std::string> names);

// A name pattern (--filter, --exclude, --debug-crash-on): an ECMAScript regex, searched in
// a name in time proportional to the name's length times the pattern's, whatever the
// pattern: libstdc++'s backtracking search took exponential time over `(a|aa)+b` and a
// name of 90 characters. Its automaton is run breadth first (libstdc++'s __polynomial
// mode), which takes no back-references.
class NamePattern {
 public:
  // Throws Error(kUsage), naming `option`, for an invalid pattern, a back-reference, or a
  // pattern longer or more deeply nested than the regex compiler's recursion takes.
  NamePattern(const std::string& pattern, const char* option);
  bool found_in(const std::string& name) const;

 private:
  std::regex regex_;
};

// A Selection compiled once, asked of one name at a time: kept by filter, exclude and
// shard. Throws Error(kUsage) for a malformed regex.
class NameSelector {
 public:
  explicit NameSelector(const Selection& sel);
  bool keeps(const std::string& name) const;

 private:
  Selection sel_;
  NamePattern filter_, exclude_;
};

// The tests kept by filter, exclude, then shard, in their given order. Throws
// Error(kUsage) for a malformed regex.
std::vector<TestCase> select_tests(const std::vector<TestCase>& tests, const Selection& sel);

}  // namespace onnxrun
