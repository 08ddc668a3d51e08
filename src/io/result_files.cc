#include "io/result_files.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

#include "core/error.h"
#include "core/fail.h"
#include "io/input_file.h"
#include "io/npz.h"
#include "io/test_data.h"

namespace fs = std::filesystem;

namespace onnxrun {
namespace {

bool is_tensor_file(const fs::path& p) { return p.extension() == ".pb" || p.extension() == ".npy"; }

// One .pb or .npy file; `name` from values.tsv when it lists the file.
ResultTensor read_one(const fs::path& file, const std::string& listed_name) {
  NamedTensor nt = read_input_file(file.string());
  ResultTensor r;
  r.file = file.string();
  r.name = !listed_name.empty()         ? listed_name
           : !nt.name.empty()           ? nt.name
           : file.extension() == ".npy" ? file.stem().string()
                                        : "";
  r.tensor = std::move(nt.tensor);
  r.numpy = file.extension() == ".npy";
  return r;
}

// values.tsv of a --dump-intermediates folder: "file<TAB>value name" lines, in order.
std::vector<std::pair<std::string, std::string>> read_values_tsv(const fs::path& file) {
  std::vector<std::pair<std::string, std::string>> entries;
  std::ifstream in(file);
  if (!in) fail(ErrorKind::kIo, "{}: cannot be read", file.string());
  std::string line;
  while (std::getline(in, line)) {
    const size_t tab = line.find('\t');
    if (tab == std::string::npos) fail(ErrorKind::kInvalid, "{}: a line without a tab: '{}'", file.string(), line);
    entries.emplace_back(line.substr(0, tab), line.substr(tab + 1));
  }
  return entries;
}

std::vector<ResultTensor> read_folder(const fs::path& dir) {
  std::vector<ResultTensor> out;
  std::error_code ec;
  const fs::path index = dir / "values.tsv";
  if (fs::is_regular_file(index, ec)) {
    for (const auto& [file, name] : read_values_tsv(index)) {
      if (file.find('/') != std::string::npos || file == ".." || !is_tensor_file(file))
        fail(ErrorKind::kInvalid, "{}: '{}' is not a tensor file of this folder", index.string(), file);
      out.push_back(read_one(dir / file, name));
    }
    return out;
  }
  // A test set: its output_K.pb files, in K order (its input_K.pb are not results).
  if (fs::is_regular_file(dir / "output_0.pb", ec)) {
    for (const std::string& f : list_test_set(dir.string()).outputs) out.push_back(read_one(f, ""));
    return out;
  }
  std::vector<std::string> files;
  fs::directory_iterator it(dir, ec);
  if (ec) fail(ErrorKind::kIo, "{}: {}", dir.string(), ec.message());
  for (const fs::directory_entry& e : it)
    if (is_tensor_file(e.path()) && e.is_regular_file(ec)) files.push_back(e.path().filename().string());
  std::sort(files.begin(), files.end(), natural_less);
  if (files.empty()) fail(ErrorKind::kInvalid, "{}: no .pb or .npy files", dir.string());
  for (const std::string& f : files) out.push_back(read_one(dir / f, ""));
  return out;
}

}  // namespace

std::vector<ResultTensor> read_result_files(const std::string& path) {
  std::error_code ec;
  const fs::path p(path);
  if (fs::is_directory(p, ec)) return read_folder(p);
  if (!fs::exists(p, ec)) fail(ErrorKind::kIo, "{}: no such file or folder", path);
  std::vector<ResultTensor> out;
  if (p.extension() == ".npz") {
    for (NamedArray& a : read_npz_file(path)) out.push_back({a.name, path + ":" + a.name, std::move(a.tensor), true});
    return out;
  }
  out.push_back(read_one(p, ""));
  return out;
}

std::vector<size_t> match_by_name_then_position(const std::vector<std::string>& wanted,
                                                const std::vector<std::string>& names) {
  const size_t none = wanted.size();
  std::vector<size_t> slot(names.size(), none);
  std::vector<bool> taken(wanted.size(), false);
  for (size_t k = 0; k < names.size(); ++k)
    for (size_t j = 0; j < wanted.size() && !names[k].empty(); ++j)
      if (!taken[j] && wanted[j] == names[k]) {
        slot[k] = j;
        taken[j] = true;
        break;
      }
  // Tensors whose names match no place fill the remaining places in order.
  size_t next = 0;
  for (size_t k = 0; k < names.size(); ++k) {
    if (slot[k] != none) continue;
    while (next < wanted.size() && taken[next]) ++next;
    if (next == wanted.size()) break;
    slot[k] = next;
    taken[next] = true;
  }
  return slot;
}

}  // namespace onnxrun
