#include "io/value_index.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <sstream>

#include <sys/stat.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.h"
#include "core/fail.h"
#include "core/log.h"
#include "io/file_bytes.h"
#include "io/input_file.h"
#include "io/mapped_file.h"
#include "io/npy.h"
#include "io/npz.h"
#include "io/output_names.h"
#include "io/polygraphy_results.h"
#include "io/tensor_file.h"
#include "io/tensor_stream.h"
#include "io/tensor_wire.h"
#include "io/test_data.h"
#include "io/value_dump.h"

namespace fs = std::filesystem;

namespace onnxrun {
namespace {

bool is_numpy_file(const fs::path& p) { return p.extension() == ".npy"; }
bool is_proto_file(const fs::path& p) { return p.extension() == ".pb" || p.extension() == ".tensorproto"; }

// A TensorProto file's name field, read from the header alone when the data is in
// raw_data (skipped, never paged in); a file with typed fields (small ones) is read whole.
std::string proto_name(const fs::path& file) {
  const auto mapped = MappedFile::open(file.string(), /*prefault=*/false);
  std::optional<RawTensorLayout> raw;
  try {
    raw = find_raw_tensor(mapped->data(), mapped->size());
  } catch (const Error& e) {
    throw e.with_context(file.string());
  }
  return raw ? raw->name : read_input_file(file.string()).name;
}

// A .pb whose raw_data lies aligned in the file is a view of the mapping (no copy). Any
// other streamable file is read with pread into a tensor of its own: copying from a
// mapping would hold the mapped pages and the copy at once. The rest is read whole.
Tensor load_tensor_file(const std::string& path) {
  if (!is_numpy_file(path)) {
    const auto mapped = MappedFile::open(path, /*prefault=*/false);
    std::optional<RawTensorLayout> raw;
    try {
      raw = find_raw_tensor(mapped->data(), mapped->size());
      if (raw) {
        const size_t align = std::min<size_t>(dtype_size(raw_layout_type(*raw).first), 8);
        if (reinterpret_cast<uintptr_t>(mapped->data() + raw->raw_offset) % align == 0)
          return raw_layout_tensor(mapped, *raw);
      }
    } catch (const Error& e) {
      throw e.with_context(path);
    }
  }
  return read_whole(open_tensor_stream(path));
}

IndexedValue file_value(const fs::path& file, const std::string& listed_name) {
  IndexedValue v;
  v.file = file.string();
  v.numpy = is_numpy_file(file);
  v.name = !listed_name.empty() ? listed_name : v.numpy ? file.stem().string() : proto_name(file);
  if (v.name.empty()) v.name = file.stem().string();
  v.load = [path = file.string()] { return load_tensor_file(path); };
  return v;
}

std::vector<IndexedValue> npz_values(const std::string& path) {
  std::vector<IndexedValue> out;
  // Each member read on its own when wanted: the archive is never held whole (but one
  // that cannot be streamed, io/tensor_stream.h).
  for (TensorStream& member : open_npz_streams(path)) {
    IndexedValue v{member.name, path + ":" + member.name, true, nullptr};
    v.load = [s = std::make_shared<TensorStream>(std::move(member))] { return read_whole(*s); };
    out.push_back(std::move(v));
  }
  return out;
}

std::vector<IndexedValue> polygraphy_values(const std::string& path) {
  PolygraphyResults r = read_polygraphy_results(path);
  if (!r.other_runners.empty())
    log::warn("{}: the values of runner '{}' are used; not those of {}", path, r.runner,
              fmt::format("'{}'", fmt::join(r.other_runners, "', '")));
  std::vector<IndexedValue> out;
  for (PolygraphyValue& p : r.values) {
    IndexedValue v{p.name, path + ":" + p.name, true, nullptr};
    v.load = [p, what = v.file] { return decode_polygraphy_array(*p.encoded, what); };
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace

Tensor IndexedValue::load_as(std::optional<DType> declared) const {
  Tensor t = load();
  return numpy ? bfloat16_from_bits(t, declared) : t;
}

std::string onnxruntime_dump_name(const std::string& value_name) {
  std::string out = value_name;
  for (char& c : out)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) c = '_';
  return out;
}

void ValueIndex::put(IndexedValue v, const std::string& stem) {
  if (by_name_.count(v.name)) return;  // the first source given wins
  values_.push_back(std::make_shared<IndexedValue>(std::move(v)));
  const IndexedValue* p = values_.back().get();
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
    for (IndexedValue& v : npz_values(path)) put(std::move(v), "");
  } else if (p.extension() == ".json") {
    for (IndexedValue& v : polygraphy_values(path)) put(std::move(v), "");
  } else {
    put(file_value(p, ""), p.stem().string());
  }
}

const IndexedValue* ValueIndex::find(const std::string& name) const {
  if (const auto it = by_name_.find(name); it != by_name_.end()) return it->second;
  for (const std::string& stem : {file_name_for_value(name), onnxruntime_dump_name(name)})
    if (const auto it = by_stem_.find(stem); it != by_stem_.end()) return it->second;
  return nullptr;
}

}  // namespace onnxrun
