#include "support/paths.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include <sys/stat.h>
#include <unistd.h>

namespace onnxrun::test {

std::string onnx_run_binary() { return ONNXRUN_BIN; }
std::string testdata_dir() { return std::string(ONNXRUN_SOURCE_DIR) + "/testdata"; }
std::string shared_tests_dir() {
  const char* other = std::getenv("ONNXRUN_TEST_DATA");
  return other && *other ? other : ONNXRUN_TEST_DATA;
}
std::string node_test(const std::string& name) { return shared_tests_dir() + "/node/" + name; }

bool plant_foreign_symlink(const std::string& dir, const std::string& link, const std::string& target) {
  if (::geteuid() != 0) return false;
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/" + link;
  std::filesystem::create_symlink(target, path);
  if (::chmod(dir.c_str(), 01777) != 0 || ::lchown(path.c_str(), 12345, 12345) != 0)
    throw std::runtime_error("cannot plant another user's symlink " + path);
  return true;
}

std::vector<std::string> names_in(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    out.push_back(it->path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

TempDir::TempDir() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "onnxrun-test-XXXXXX").string();
  if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
  path_ = tmpl;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

}  // namespace onnxrun::test
