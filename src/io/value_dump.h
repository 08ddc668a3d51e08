// Writing every value a run produces into a folder (--dump-intermediates DIR), to
// compare node by node with another runtime. Each value becomes DIR/<name>.pb (a
// TensorProto named after the value) or DIR/<name>.npy, the name made safe by
// file_name_for_value (a clash, ignoring case, gets "~2", "~3", ...); DIR/values.tsv lists
// "file<TAB>value name" in the order the values were produced, the value name with a
// backslash, tab, newline and carriage return written as \\, \t, \n and \r.
// Used as the Executor's ValueObserver; exec itself writes no files. The files join the
// dump's own OutputSet (io/output_set.h), which finish() commits: the dump appears whole
// once the run has produced every value (whatever its verdict), or not at all. A run that
// fails or is interrupted (SIGINT/SIGTERM) before then leaves none of its files, and a
// folder it made for them goes too, as -o's does; a folder that stood is left as it was.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/tensor.h"
#include "io/output_folder.h"
#include "io/output_names.h"
#include "io/output_set.h"
#include "io/streamed_tensor_file.h"
#include "io/tensor_format.h"

namespace onnxrun {

class ValueDump {
 public:
  // Creates `dir` if missing (Error(kIo) when it cannot; the dump's set takes it back
  // unless finish() commits). npz is written as npy files.
  ValueDump(std::string dir, TensorFormat format);

  ~ValueDump();
  ValueDump(const ValueDump&) = delete;
  ValueDump& operator=(const ValueDump&) = delete;

  // Writes one value (atomically); Error(kIo) on failure.
  void write(const std::string& value_name, const Tensor& t);

  // One value produced block by block: the same file name, bytes and place in values.tsv
  // as write() would give it when called here. begin_value opens its file (a temporary
  // until end_value) and returns an id for append and end_value; append gives the next
  // n data bytes (Error(kInternal) past the value's size); end_value puts the file in
  // place (Error(kInternal) when its data is short). A value begun and never ended
  // leaves no file and no line in values.tsv. Several may be open at once.
  size_t begin_value(const std::string& value_name, DType dtype, const Shape& shape);
  void append(size_t id, const void* data, size_t n);
  void end_value(size_t id);

  // Writes DIR/values.tsv and puts every file in place (OutputSet::commit). Returns the
  // number of values written.
  size_t finish();

 private:
  // A new file name for the value, claimed.
  std::string claim_file(const std::string& value_name);

  struct Entry {
    std::string file, value_name;
    bool written = false;
  };
  std::string dir_;
  OutputSet set_;                               // before folder_: it records the folders made
  std::shared_ptr<const OutputFolder> folder_;  // opened once: names in it are replaced, never followed
  TensorFormat format_;
  std::set<std::string> used_;                                  // file names claimed, in lower case
  std::vector<Entry> index_;                                    // in the order values were produced
  std::map<size_t, std::unique_ptr<StreamedTensorFile>> open_;  // by id: index_'s position
};

// DIR/values.tsv read back (`path`): (file, value name) per line, in order, the name's
// escapes undone (a backslash before another character stays one). Throws
// Error(kInvalid) naming `path` for a line without a tab or a file that is not a .pb or
// .npy of the folder itself; what FileBytes::read throws.
std::vector<std::pair<std::string, std::string>> read_values_tsv(const std::string& path);

}  // namespace onnxrun
