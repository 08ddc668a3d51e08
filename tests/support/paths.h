// Where the tests find the binary, the project's testdata/ and ../shared/onnx-tests.
#pragma once

#include <string>
#include <vector>

namespace onnxrun::test {

std::string onnx_run_binary();
std::string testdata_dir();  // <source>/testdata
// The ONNX test data folder (may not exist): $ONNXRUN_TEST_DATA when set, else the one
// configured (-DONNXRUN_TEST_DATA, by default <source>/../shared/onnx-tests). A run with
// ONNXRUN_TEST_DATA=/nowhere shows how the cases needing it are skipped.
std::string shared_tests_dir();
std::string node_test(const std::string& name);  // shared_tests_dir()/node/<name>

// The names of the entries of `dir`, sorted; none when it does not exist.
std::vector<std::string> names_in(const std::string& dir);

// Makes `dir` a sticky world-writable folder (as /tmp is) holding `link` -> `target`, a
// symlink of another user (uid 12345): the link the kernel's protected_symlinks will not
// follow. Only root can give a link away: false, and nothing made, for anyone else.
bool plant_foreign_symlink(const std::string& dir, const std::string& link, const std::string& target);

// A fresh empty folder under the system temp dir, removed when the object dies.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

}  // namespace onnxrun::test
