#include "io/value_index.h"

#include <filesystem>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/fail.h"
#include "core/log.h"
#include "io/output_names.h"
#include "io/polygraphy_results.h"

namespace fs = std::filesystem;

namespace onnxrun {
namespace {

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

void ModelValueNames::insert(const std::string& name) {
  if (!names_.insert(name).second) return;
  const std::string dump = file_name_for_value(name), ort = onnxruntime_dump_name(name);
  ++stems_[dump];
  if (ort != dump) ++stems_[ort];
}

size_t ModelValueNames::sharing(const std::string& stem) const {
  const auto it = stems_.find(stem);
  return it == stems_.end() ? 0 : it->second;
}

void ValueIndex::put(ResultTensor v, const std::string& stem) {
  if (by_name_.count(v.name)) return;  // the first source given wins
  values_.push_back(std::make_shared<ResultTensor>(std::move(v)));
  const ResultTensor* p = values_.back().get();
  by_name_.emplace(p->name, p);
  if (!stem.empty()) by_stem_.emplace(stem, p);
}

void ValueIndex::add(const std::string& path) {
  const fs::path p(path);
  std::error_code ec;
  const bool folder = fs::is_directory(p, ec);
  if (!folder && p.extension() == ".json") {
    for (ResultTensor& v : polygraphy_values(path)) put(std::move(v), "");
    return;
  }
  // A file that does not record its value's name (an .npy, a .pb without one, neither
  // listed in a values.tsv) is named by its file name and found by it; one that records a
  // name is that value alone: a t_1.pb that says 't_1' is not the never-dumped 't/1', whose
  // --dump-intermediates file name it has, nor a y.pb that says 'z' the value y.
  const bool files = folder || p.extension() != ".npz";
  std::map<std::string, std::string> seen;  // value name -> the file of this source holding it
  for (ResultTensor& v : read_result_files(path, FolderTensors::kEveryFile)) {
    const std::string stem = files ? fs::path(v.file).stem().string() : "";
    const bool unnamed = v.name.empty() || (v.numpy && files && !v.listed);
    if (v.name.empty()) v.name = stem;
    // Two files for one value: which one the other runtime meant cannot be told (an .npz
    // holding a name twice is refused alike).
    if (const auto [it, fresh] = seen.emplace(v.name, v.file); !fresh)
      fail(ErrorKind::kInvalid, "{}: holds '{}' twice: {} and {}", path, v.name, it->second, v.file);
    put(std::move(v), unnamed ? stem : "");
  }
}

const ResultTensor* ValueIndex::find(const std::string& name, const ModelValueNames& others) const {
  if (const auto it = by_name_.find(name); it != by_name_.end()) return it->second;
  for (const std::string& stem : {file_name_for_value(name), onnxruntime_dump_name(name)})
    if (const auto it = by_stem_.find(stem);
        it != by_stem_.end() && !others.contains(it->second->name) && others.sharing(stem) <= 1)
      return it->second;
  return nullptr;
}

}  // namespace onnxrun
