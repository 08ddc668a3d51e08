// Values another runtime dumped, indexed by value name before any data is read, for
// `onnx-run verify` (suite/verify.h): each value is read when a node asks for it and let
// go after, so what verify holds is one node's tensors, not the model's.
//
// Sources, in any mix (add() once per path):
//   - a folder of NAME.pb / NAME.npy files: a --dump-intermediates folder (its values.tsv
//     names each file's value), onnxruntime's node dump (NAME.tensorproto, written with
//     ORT_DEBUG_NODE_IO_DUMP_OUTPUT_DATA and ..._DUMP_DATA_TO_FILES: a TensorProto whose
//     name is the value's), or any folder of such files;
//   - an .npz keyed by value name;
//   - Polygraphy's --save-outputs JSON (io/polygraphy_results.h);
//   - a single .pb / .tensorproto / .npy file.
// A TensorProto is named by its own name field when it has one, else by its file name; an
// .npy by its file name; a values.tsv folder's files by the names it lists. A value name is
// found as written, else, among the files that record no name of their own (an .npy, a .pb
// without one, outside a values.tsv folder), by the file name --dump-intermediates would
// give it (io/output_names.h: file_name_for_value), else by onnxruntime's (every character
// other than a letter or digit as '_'). A file that records a name stands for that value
// alone, and so does one whose file name is the name of a value of the model. One source
// holding a name twice (two files of a folder) is refused.
// Each file is opened as `compare` opens a result file (io/result_files.h): its header
// read and checked now, its data when asked; .npz members read on their own; a Polygraphy
// JSON is held as its text (base64, 4/3 of the arrays' size), as Polygraphy itself holds it.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "io/result_files.h"

namespace onnxrun {

// The names of a model's values, as ValueIndex::find asks after them by file name.
class ModelValueNames {
 public:
  void insert(const std::string& name);
  bool contains(const std::string& name) const { return names_.count(name) > 0; }
  // How many of the names have `stem` for a file name (--dump-intermediates' or
  // onnxruntime's): 't/1' and 't:1' share "t_1".
  size_t sharing(const std::string& stem) const;

 private:
  std::set<std::string> names_;
  std::map<std::string, size_t> stems_;
};

class ValueIndex {
 public:
  // Indexes `path` (what it holds is read, not its data). Throws Error(kIo) for a path
  // that cannot be read, Error(kInvalid) for a damaged file, a folder without tensor
  // files or with two files for one value, or a JSON that is not Polygraphy's RunResults, Error(kUnsupported) for a
  // tensor of a type onnx-run does not hold. A name seen in an earlier
  // source keeps that source's value (the first given wins).
  void add(const std::string& path);

  // The value named `name` (as written, else by its sanitised file names); null when
  // no source holds it. `others`: the names of the model's values. A file that stands for
  // one of them by its own name (a_b.npy for 'a_b') is not found by its file name for
  // another ('a/b', whose --dump-intermediates file name it has) as well, and a file name
  // that several of them share (t_1.npy for 't/1' and 't:1') stands for none: one file
  // cannot be two values' dump.
  const ResultTensor* find(const std::string& name, const ModelValueNames& others = {}) const;
  size_t size() const { return values_.size(); }
  // Every value, in the order indexed.
  const std::vector<std::shared_ptr<ResultTensor>>& values() const { return values_; }

 private:
  void put(ResultTensor v, const std::string& stem);

  std::vector<std::shared_ptr<ResultTensor>> values_;
  std::map<std::string, const ResultTensor*> by_name_;
  std::map<std::string, const ResultTensor*> by_stem_;  // file names (without extension)
};

// onnxruntime's file name for a value's dump (without ".tensorproto"): every character
// other than an ASCII letter or digit becomes '_'.
std::string onnxruntime_dump_name(const std::string& value_name);

}  // namespace onnxrun
