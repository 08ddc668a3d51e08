#include "io/result_files.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <new>
#include <regex>
#include <sstream>
#include <string>
#include <unordered_set>

#include <sys/stat.h>

#include "core/error.h"
#include "core/fail.h"
#include "core/memory_limit.h"
#include "io/file_bytes.h"
#include "io/input_file.h"
#include "io/npy.h"
#include "io/npz.h"
#include "io/output_names.h"
#include "io/tensor_stream.h"
#include "io/test_data.h"
#include "io/value_dump.h"

namespace fs = std::filesystem;

namespace onnxrun {
namespace {

bool is_tensor_file(const fs::path& p) {
  return p.extension() == ".pb" || p.extension() == ".tensorproto" || p.extension() == ".npy";
}

}  // namespace

// Its header is read now, its data when asked.
ResultTensor read_result_file(const std::string& path, const std::string& listed_name) {
  const fs::path file(path);
  ResultTensor r;
  r.file = file.string();
  r.numpy = file.extension() == ".npy";
  TensorStream s = open_tensor_stream(r.file);
  r.dtype = s.dtype;
  r.shape = s.shape;
  const std::string own_name = s.name;
  if (s.held) {  // read whole already: the stream serves it again
    r.load = [t = *s.held] { return t; };
    r.open_stream = [s = std::move(s)] { return s; };
  } else {
    r.open_stream = [path = r.file, dtype = r.dtype, shape = r.shape] {
      TensorStream again = open_tensor_stream(path);
      if (again.dtype != dtype || again.shape != shape) fail(ErrorKind::kIo, "{}: changed while being compared", path);
      return again;
    };
    r.load = [path = r.file] { return read_input_file(path).tensor; };
  }
  r.name = !listed_name.empty() ? listed_name : !own_name.empty() ? own_name : r.numpy ? file.stem().string() : "";
  return r;
}

namespace {

// A file for verify's index (FolderTensors::kEveryFile) of a type onnx-run reads nowhere
// (string, int4): a value it cannot use, not a run it cannot make. It is indexed by its
// file name, and its error is raised again when a node reads it (a tokenizer's string
// input beside the dumped LeakyRelus made the whole verify exit 3).
ResultTensor read_value_file(const fs::path& file, const std::string& listed_name) {
  try {
    return read_result_file(file.string(), listed_name);
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::kUnsupported) throw;
    ResultTensor r;
    r.name = listed_name;  // empty: named by its file name (io/value_index.h)
    r.file = file.string();
    r.load = [e]() -> Tensor { throw e; };
    r.open_stream = [e]() -> TensorStream { throw e; };
    return r;
  }
}

// The members of an .npz, each read on its own when asked.
std::vector<ResultTensor> read_npz_members(const std::string& path) {
  std::vector<ResultTensor> out;
  NpzStreams npz = open_npz(path);
  for (size_t j = 0; j < npz.members.size(); ++j) {
    TensorStream& m = npz.members[j];
    ResultTensor r{m.name, path + ":" + m.name, true, m.dtype, m.shape, nullptr, nullptr};
    if (m.held) {  // the archive was read whole
      r.load = [t = *m.held] { return t; };
      r.open_stream = [m = std::move(m)] { return m; };
    } else {
      r.open_stream = [reopen = npz.reopen, path, j, dtype = m.dtype, shape = m.shape] {
        TensorStream again = reopen(j);
        if (again.dtype != dtype || again.shape != shape)
          fail(ErrorKind::kIo, "{}: changed while being compared", path);
        return again;
      };
      r.load = [open = r.open_stream] {
        TensorStream s = open();
        check_memory_fits(s.nbytes(), s.what);  // refused by name before anything is inflated
        return read_whole(s);
      };
    }
    out.push_back(std::move(r));
  }
  return out;
}

// Whether `p` names an entry of any kind (a FIFO or a dangling link too): a FIFO where a
// tensor file belongs is refused when read (io/read_open.h), never skipped, in every door.
bool entry_exists(const fs::path& p) {
  std::error_code ec;
  return fs::exists(fs::symlink_status(p, ec));
}

std::vector<ResultTensor> read_folder(const fs::path& dir, FolderTensors which) {
  const auto read_one =
      which == FolderTensors::kEveryFile ? read_value_file : [](const fs::path& f, const std::string& name) {
        return read_result_file(f.string(), name);
      };
  std::vector<ResultTensor> out;
  std::error_code ec;
  std::vector<std::string> files;
  fs::directory_iterator it(dir, ec);
  if (ec) fail(ErrorKind::kIo, "{}: {}", dir.string(), ec.message());
  for (const fs::directory_entry& e : it)
    if (is_tensor_file(e.path()) && !e.is_directory(ec)) files.push_back(e.path().filename().string());
  // values.tsv (a --dump-intermediates folder) names the files it lists, in its order;
  // every other tensor file is read as in a folder without it, after them: a file that
  // values.tsv does not list is still judged, never skipped.
  if (const fs::path index = dir / kDumpIndexName; entry_exists(index)) {
    std::unordered_set<std::string> listed;  // a dump may list many thousand values
    for (const auto& [file, name] : read_values_tsv(index.string())) {
      // One file cannot be the dump of two values: which one it is cannot be told.
      if (!listed.insert(file).second) fail(ErrorKind::kInvalid, "{}: lists {} for two values", index.string(), file);
      out.push_back(read_one(dir / file, name));
      out.back().listed = true;
    }
    std::erase_if(files, [&](const std::string& f) { return listed.count(f) != 0; });
  }
  if (files.empty() && out.empty()) fail(ErrorKind::kInvalid, "{}: no .pb, .tensorproto or .npy files", dir.string());
  // A test set: its output_K.pb files first, in K order, and its input_K.pb left out (they
  // are not results). Any other tensor file beside them is a result too: skipping it would
  // let a value that differs pass unseen.
  // Any output_K.pb makes it a set, so that a gap (output_1.pb alone) is refused naming
  // output_0.pb as missing, rather than output_1.pb taken for the first output.
  static const std::regex kOutput(R"(output_\d+\.pb)");
  const bool test_set =
      std::any_of(files.begin(), files.end(), [](const std::string& f) { return std::regex_match(f, kOutput); });
  if (which == FolderTensors::kTestSetOutputs && test_set) {
    const TestSetFiles set = list_test_set(dir.string());
    for (const std::string& f : set.inputs) std::erase(files, fs::path(f).filename().string());
    for (const std::string& f : set.outputs)
      if (std::erase(files, fs::path(f).filename().string())) out.push_back(read_one(f, ""));
  }
  std::sort(files.begin(), files.end(), natural_less);
  for (const std::string& f : files) out.push_back(read_one(dir / f, ""));
  return out;
}

}  // namespace

namespace {

std::vector<ResultTensor> read_results(const std::string& path, FolderTensors which) {
  const fs::path p(path);
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    // Only a name that is not there is "no such file": a folder that may not be searched
    // is another matter.
    if (errno == ENOENT) fail(ErrorKind::kIo, "{}: no such file or folder", path);
    fail(ErrorKind::kIo, "cannot read {}: {}", path, std::strerror(errno));
  }
  if (S_ISDIR(st.st_mode)) return read_folder(p, which);
  if (p.extension() == ".npz") return read_npz_members(path);
  std::vector<ResultTensor> out;
  out.push_back(which == FolderTensors::kEveryFile ? read_value_file(p, "") : read_result_file(path));
  return out;
}

}  // namespace

std::vector<ResultTensor> read_result_files(const std::string& path, FolderTensors which) {
  try {
    return read_results(path, which);
  } catch (const std::bad_alloc&) {
    // The system said no before the memory limit did: still a refusal naming the file.
    fail(ErrorKind::kSecurity, "{}: out of memory while reading it", path);
  }
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

Tensor ResultTensor::as_declared(std::optional<DType> declared) const {
  return numpy ? bfloat16_from_bits(load(), declared) : load();
}

DType ResultTensor::type_as_declared(std::optional<DType> declared) const {
  return numpy ? numpy_type_as_declared(dtype, declared) : dtype;
}

}  // namespace onnxrun
