#include "io/value_dump.h"

#include <cctype>
#include <filesystem>
#include <sstream>

#include "core/error.h"
#include "core/fail.h"
#include "io/atomic_file.h"
#include "io/file_bytes.h"
#include "io/output_names.h"

namespace onnxrun {

namespace {

// A value name in values.tsv: a tab or a line break in it would split its line, so they
// are written as \t, \n and \r, and a backslash as \\ (as PostgreSQL's COPY writes
// text). ONNX allows any string as a value name.
std::string escape_tsv_field(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '\t': out += "\\t"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      default: out += c;
    }
  }
  return out;
}

// escape_tsv_field undone; a backslash before any other character stays as it is.
std::string unescape_tsv_field(const std::string& s) {
  std::string out;
  for (size_t k = 0; k < s.size(); ++k) {
    if (s[k] != '\\' || k + 1 == s.size()) {
      out += s[k];
      continue;
    }
    const char next = s[k + 1];
    const char plain = next == '\\' ? '\\' : next == 't' ? '\t' : next == 'n' ? '\n' : next == 'r' ? '\r' : 0;
    if (!plain) {
      out += s[k];
      continue;
    }
    out += plain;
    ++k;
  }
  return out;
}

}  // namespace

ValueDump::ValueDump(std::string dir, TensorFormat format)
    : dir_(std::move(dir)), folder_(set_.folder(dir_)), format_(format) {}

ValueDump::~ValueDump() = default;  // not finished: every temporary goes, and the folders made

std::string ValueDump::claim_file(const std::string& value_name) {
  const std::string ext = single_file_extension(format_);
  const std::string base = file_name_for_value(value_name);
  std::string file = base + ext;
  // Names are compared ignoring case: on a folder that ignores it, A.pb and a.pb are one
  // file, and the second value would replace the first.
  auto key = [](std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  for (int n = 2; used_.count(key(file)); ++n) file = base + "~" + std::to_string(n) + ext;
  used_.insert(key(file));
  return file;
}

void ValueDump::write(const std::string& value_name, const Tensor& t) {
  const size_t id = begin_value(value_name, t.dtype(), t.shape());  // one block
  append(id, t.raw(), t.nbytes());
  end_value(id);
}

size_t ValueDump::begin_value(const std::string& value_name, DType dtype, const Shape& shape) {
  const WriteTarget path = set_.target(folder_, claim_file(value_name));
  const std::string& file = path.name;
  const TensorFormat format = format_ == TensorFormat::kPb ? TensorFormat::kPb : TensorFormat::kNpy;
  auto out = std::make_unique<StreamedTensorFile>(path, format, dtype, shape, value_name);
  const size_t id = index_.size();
  index_.push_back({file, value_name, false});  // its place in values.tsv is where it began
  open_.emplace(id, std::move(out));
  return id;
}

void ValueDump::append(size_t id, const void* data, size_t n) {
  const auto it = open_.find(id);
  if (it == open_.end()) fail(ErrorKind::kInternal, "ValueDump: append to value {}, which is not open", id);
  it->second->append(data, n);
}

void ValueDump::end_value(size_t id) {
  const auto it = open_.find(id);
  if (it == open_.end()) fail(ErrorKind::kInternal, "ValueDump: end of value {}, which is not open", id);
  const std::unique_ptr<StreamedTensorFile> out = std::move(it->second);
  open_.erase(it);
  out->commit();  // into the set: in place with the others on finish()
  index_[id].written = true;
}

size_t ValueDump::finish() {
  std::string text;
  size_t count = 0;
  for (const Entry& e : index_)
    if (e.written) {
      text += e.file + "\t" + escape_tsv_field(e.value_name) + "\n";
      ++count;
    }
  write_text_file(set_.target(folder_, kDumpIndexName), text);
  set_.commit();
  return count;
}

std::vector<std::pair<std::string, std::string>> read_values_tsv(const std::string& path) {
  std::vector<std::pair<std::string, std::string>> entries;
  const FileBytes bytes = FileBytes::read(path, FileBytes::Limit::kMemoryOnly);
  std::istringstream in(std::string(bytes.data(), bytes.size()));
  std::string line;
  while (std::getline(in, line)) {
    // A values.tsv saved with CRLF line endings (an editor, a Windows checkout): onnx-run
    // writes a name's CR as \r, so a CR at a line's end is the line ending's. Kept, it
    // ended every name, and no value was found.
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const size_t tab = line.find('\t');
    if (tab == std::string::npos) fail(ErrorKind::kInvalid, "{}: a line without a tab: '{}'", path, line);
    const std::string file = line.substr(0, tab);
    const std::string ext = std::filesystem::path(file).extension().string();
    if (file.find('/') != std::string::npos || file == ".." || (ext != ".pb" && ext != ".npy"))
      fail(ErrorKind::kInvalid, "{}: '{}' is not a tensor file of this folder", path, file);
    entries.emplace_back(file, unescape_tsv_field(line.substr(tab + 1)));
  }
  return entries;
}

}  // namespace onnxrun
