// Writing every value a run produces into a folder (--dump-intermediates DIR), to
// compare node by node with another runtime. Each value becomes DIR/<name>.pb (a
// TensorProto named after the value) or DIR/<name>.npy, the name made safe by
// file_name_for_value (a clash gets "~2", "~3", ...); DIR/values.tsv lists
// "file<TAB>value name" in the order the values were produced.
// Used as the Executor's ValueObserver; exec itself writes no files. A run that fails
// part way leaves the values written so far: they show where it went wrong.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "core/tensor.h"
#include "io/tensor_format.h"

namespace onnxrun {

class ValueDump {
 public:
  // Creates `dir` if missing (Error(kIo) when it cannot). npz is written as npy files.
  ValueDump(std::string dir, TensorFormat format);

  // Writes one value (atomically); Error(kIo) on failure.
  void write(const std::string& value_name, const Tensor& t);

  // Writes DIR/values.tsv. Returns the number of values written.
  size_t finish();

 private:
  std::string dir_;
  TensorFormat format_;
  std::set<std::string> used_;
  std::vector<std::pair<std::string, std::string>> index_;  // file, value name
};

}  // namespace onnxrun
