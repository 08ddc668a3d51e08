#include "io/value_index.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include <sys/stat.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.h"
#include "core/fail.h"
#include "core/log.h"
#include "io/output_names.h"
#include "io/polygraphy_results.h"
#include "io/test_data.h"
#include "io/value_dump.h"

namespace fs = std::filesystem;

namespace onnxrun {
namespace {

bool is_numpy_file(const fs::path& p) { return p.extension() == ".npy"; }
bool is_proto_file(const fs::path& p) { return p.extension() == ".pb" || p.extension() == ".tensorproto"; }

// A tensor file, named by values.tsv (`listed_name`), else by itself, else by its file name.
ResultTensor file_value(const fs::path& file, const std::string& listed_name) {
  ResultTensor v = read_result_file(file.string(), listed_name);
  if (v.name.empty()) v.name = file.stem().string();
  return v;
}

std::vector<ResultTensor> polygraphy_values(const std::string& path) {
  PolygraphyResults r = read_polygraphy_results(path);
  if (!r.other_runners.empty())
    log::warn("{}: the values of runner '{}' are used; not those of {}", path, r.runner,
              fmt::format("'{}'", fmt::join(r.other_runners, "', '")));
  std::vector<ResultTensor> out;
  for (PolygraphyValue& p : r.values) {
    ResultTensor v;
    v.name = p.name;
    v.file = path + ":" + p.name;
    v.numpy = true;
    v.load = [p, what = v.file] { return decode_polygraphy_array(*p.encoded, what); };
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace

std::string onnxruntime_dump_name(const std::string& value_name) {
  std::string out = value_name;
  for (char& c : out)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) c = '_';
  return out;
}

void ValueIndex::put(ResultTensor v, const std::string& stem) {
  if (by_name_.count(v.name)) return;  // the first source given wins
  values_.push_back(std::make_shared<ResultTensor>(std::move(v)));
  const ResultTensor* p = values_.back().get();
  by_name_.emplace(p->name, p);
  if (!stem.empty()) by_stem_.emplace(stem, p);
}

void ValueIndex::add(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) fail(ErrorKind::kIo, "{}: no such file or folder", path);
    fail(ErrorKind::kIo, "cannot read {}: {}", path, std::strerror(errno));
  }
  const fs::path p(path);
  if (S_ISDIR(st.st_mode)) {
    const fs::path index = p / "values.tsv";
    std::error_code ec;
    if (fs::exists(fs::symlink_status(index, ec))) {
      for (const auto& [file, name] : read_values_tsv(index.string()))
        put(file_value(p / file, name), fs::path(file).stem().string());
      return;
    }
    std::vector<std::string> files;
    fs::directory_iterator it(p, ec);
    if (ec) fail(ErrorKind::kIo, "{}: {}", path, ec.message());
    for (const fs::directory_entry& e : it)
      if ((is_proto_file(e.path()) || is_numpy_file(e.path())) && !e.is_directory(ec))
        files.push_back(e.path().filename().string());
    std::sort(files.begin(), files.end(), natural_less);
    if (files.empty()) fail(ErrorKind::kInvalid, "{}: no .pb, .tensorproto or .npy files", path);
    for (const std::string& f : files) put(file_value(p / f, ""), fs::path(f).stem().string());
    return;
  }
  if (p.extension() == ".npz") {
    for (ResultTensor& v : read_result_files(path)) put(std::move(v), "");
  } else if (p.extension() == ".json") {
    for (ResultTensor& v : polygraphy_values(path)) put(std::move(v), "");
  } else {
    put(file_value(p, ""), p.stem().string());
  }
}

const ResultTensor* ValueIndex::find(const std::string& name) const {
  if (const auto it = by_name_.find(name); it != by_name_.end()) return it->second;
  for (const std::string& stem : {file_name_for_value(name), onnxruntime_dump_name(name)})
    if (const auto it = by_stem_.find(stem); it != by_stem_.end()) return it->second;
  return nullptr;
}

}  // namespace onnxrun
