#include "io/test_data.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <regex>
#include <utility>

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
  static const std::string kPrefix = "test_data_set_";
  std::vector<std::string> sets;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind(kPrefix, 0) != 0) continue;
    // A folder or a dangling link by any such name, and anything else named as a set
    // (test_data_set_N that is a FIFO, a file, a link to one): reading it refuses it.
    const bool numbered =
        name.size() > kPrefix.size() && name.find_first_not_of("0123456789", kPrefix.size()) == std::string::npos;
    std::error_code ec2;
    const bool folder = it->is_directory(ec2);
    const bool broken_link = !folder && it->is_symlink(ec2) && !fs::exists(it->path(), ec2);
    if (numbered || folder || broken_link) sets.push_back(it->path().string());
  }
  std::sort(sets.begin(), sets.end(), natural_less);
  return sets;
}

void sort_numbered_files(std::vector<std::string>& paths) {
  std::sort(paths.begin(), paths.end(), [](const std::string& a, const std::string& b) {
    return natural_less(fs::path(a).filename().string(), fs::path(b).filename().string());
  });
}

void check_numbered_files(const std::vector<std::string>& paths, const std::string& stem, const std::string& dir) {
  // output_00.pb beside output_0.pb was "output_0.pb is missing (found output_00.pb)".
  for (const std::string& p : paths) {
    const std::string name = fs::path(p).filename().string();  // STEM_DIGITS.pb
    const std::string digits = name.substr(stem.size() + 1, name.size() - stem.size() - 1 - 3);
    if (digits.size() > 1 && digits[0] == '0')
      fail(ErrorKind::kInvalid, "{}: {} is numbered with a leading zero; {}_K.pb files are {}_0.pb, {}_1.pb, ...", dir,
           name, stem, stem, stem);
  }
  for (size_t k = 0; k < paths.size(); ++k) {
    const std::string want = stem + "_" + std::to_string(k) + ".pb", name = fs::path(paths[k]).filename().string();
    if (name != want) fail(ErrorKind::kInvalid, "{}: {} is missing (found {})", dir, want, name);
  }
}

TestSetFiles list_numbered_files(const std::string& dir, const std::string& prefix, std::error_code& ec) {
  static const std::regex kFile(R"((input|output)_\d+\.pb)");
  TestSetFiles files;
  // Every entry, whatever its kind: a FIFO, folder or dangling link named so is a file of
  // the set that the read refuses (io/read_open.h), never one silently left out.
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::smatch m;
    const std::string name = it->path().filename().string();
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string rest = name.substr(prefix.size());
    if (!std::regex_match(rest, m, kFile)) continue;
    (m[1] == "input" ? files.inputs : files.outputs).push_back(it->path().string());
  }
  sort_numbered_files(files.inputs);
  sort_numbered_files(files.outputs);
  return files;
}

TestSetFiles list_test_set(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) fail(ErrorKind::kIo, "{}: not a test-set folder", dir);
  TestSetFiles files = list_numbered_files(dir, "", ec);
  if (ec) fail(ErrorKind::kIo, "cannot read {}: {}", dir, ec.message());
  check_numbered_files(files.inputs, "input", dir);
  check_numbered_files(files.outputs, "output", dir);
  return files;
}

}  // namespace onnxrun
