#include "io/test_data.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <regex>

#include "core/error.h"
#include "core/fail.h"

namespace fs = std::filesystem;

namespace onnxrun {

bool natural_less(const std::string& a, const std::string& b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) && std::isdigit(static_cast<unsigned char>(b[j]))) {
      size_t i2 = i, j2 = j;
      while (i2 < a.size() && a[i2] == '0') ++i2;
      while (j2 < b.size() && b[j2] == '0') ++j2;
      size_t ie = i2, je = j2;
      while (ie < a.size() && std::isdigit(static_cast<unsigned char>(a[ie]))) ++ie;
      while (je < b.size() && std::isdigit(static_cast<unsigned char>(b[je]))) ++je;
      if (ie - i2 != je - j2) return ie - i2 < je - j2;
      int c = a.compare(i2, ie - i2, b, j2, je - j2);
      if (c != 0) return c < 0;
      i = ie;
      j = je;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

std::vector<std::string> find_test_sets(const std::string& dir) {
  std::vector<std::string> sets;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind("test_data_set_", 0) != 0) continue;
    std::error_code ec2;
    const bool folder = it->is_directory(ec2);
    const bool broken_link = !folder && it->is_symlink(ec2) && !fs::exists(it->path(), ec2);
    if (folder || broken_link) sets.push_back(it->path().string());
  }
  std::sort(sets.begin(), sets.end(), natural_less);
  return sets;
}

TestSetFiles list_test_set(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) fail(ErrorKind::kIo, "{}: not a test-set folder", dir);
  static const std::regex kFile(R"((input|output)_(\d+)\.pb)");
  std::map<long, std::string> inputs, outputs;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::smatch m;
    const std::string name = it->path().filename().string();
    if (!std::regex_match(name, m, kFile)) continue;
    (m[1] == "input" ? inputs : outputs)[std::stol(m[2])] = it->path().string();
  }
  if (ec) fail(ErrorKind::kIo, "cannot read {}: {}", dir, ec.message());
  auto ordered = [&](const std::map<long, std::string>& files, const char* kind) {
    std::vector<std::string> out;
    for (const auto& [k, path] : files) {
      if (k != static_cast<long>(out.size()))
        fail(ErrorKind::kInvalid, "{}: {}_{}.pb is missing (found {}_{}.pb)", dir, kind, out.size(), kind, k);
      out.push_back(path);
    }
    return out;
  };
  return {ordered(inputs, "input"), ordered(outputs, "output")};
}

}  // namespace onnxrun
