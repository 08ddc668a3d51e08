#include "io/value_dump.h"

#include <filesystem>

#include "core/error.h"
#include "io/atomic_file.h"
#include "io/npy.h"
#include "io/tensor_file.h"

namespace fs = std::filesystem;

namespace onnxrun {

ValueDump::ValueDump(std::string dir, TensorFormat format) : dir_(std::move(dir)), format_(format) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec || !fs::is_directory(dir_))
    fail(ErrorKind::kIo, "cannot create folder {}: {}", dir_, ec ? ec.message() : "not a folder");
}

void ValueDump::write(const std::string& value_name, const Tensor& t) {
  const std::string ext = format_ == TensorFormat::kPb ? ".pb" : ".npy";
  const std::string base = file_name_for_value(value_name);
  std::string file = base + ext;
  for (int n = 2; used_.count(file); ++n) file = base + "~" + std::to_string(n) + ext;
  used_.insert(file);
  const std::string path = (fs::path(dir_) / file).string();
  // A failed run keeps the values dumped so far, on purpose: they show where it went wrong.
  ImmediateWrites now;
  if (format_ == TensorFormat::kPb) write_tensor_file(path, t, value_name);
  else write_npy_file(path, t);
  index_.emplace_back(file, value_name);
}

size_t ValueDump::finish() {
  std::string text;
  for (const auto& [file, name] : index_) text += file + "\t" + name + "\n";
  const std::string path = (fs::path(dir_) / "values.tsv").string();
  write_text_file_now(path, text);
  return index_.size();
}

}  // namespace onnxrun
