// Sets of result tensors as other tools leave them, for comparing (`--expected`,
// `onnx-run compare`, `verify`): a folder of TensorProto (.pb, .tensorproto) and numpy .npy
// files (a test set's output_K.pb, NAME.npy, a --dump-intermediates folder, onnxruntime's
// node dump), an .npz archive, or one file.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/tensor.h"
#include "io/tensor_stream.h"

namespace onnxrun {

struct ResultTensor {
  // The value it holds: a .pb's TensorProto name, an .npz member's or an .npy's name
  // (its file name without .npy), the name values.tsv gives its file; empty when the
  // file does not say (a .pb without a name), and then it matches by position.
  std::string name;
  std::string file;  // for messages: "dir/output_0.pb", "out.npz:y"
  // From a .npy or .npz: a uint16 tensor may be bfloat16's bits (numpy has no bfloat16;
  // io/npy.h), to retype where the value is declared bfloat16 (type_as_declared).
  bool numpy = false;
  DType dtype = DType::kFloat;  // as stored: numpy's bfloat16 bits are uint16 here
  Shape shape;
  // The data from its first byte, block by block (io/tensor_stream.h), a new stream at
  // each call, so it can be read more than once (a file that cannot be streamed was read
  // whole, and its stream serves that tensor each time).
  std::function<TensorStream()> open_stream;

  // The whole tensor: a .pb mapped where its raw_data lies, anything else read. Throws
  // as read_input_file and read_npz_file do. A Polygraphy value (io/value_index.h) has
  // this alone: its type and shape are known once its array is decoded.
  std::function<Tensor()> load;
  bool listed = false;  // named by its folder's values.tsv, not by what the file says

  // load(), with numpy's uint16 taken as bfloat16's bits where `declared` says bfloat16.
  Tensor as_declared(std::optional<DType> declared) const;
  // The type as_declared gives.
  DType type_as_declared(std::optional<DType> declared) const;
};

// Which tensors of a test set's folder are wanted: its outputs, as results to compare, or
// every tensor file, its inputs too, as values looked up by name (verify).
enum class FolderTensors { kTestSetOutputs, kEveryFile };

// The tensors of `path`, in order: a folder's tensor files that its values.tsv lists (a
// --dump-intermediates folder), in its order and under its names, then the others sorted
// naturally, but a test set's first (when it has output_K.pb files and `which` asks for
// them: those by K, then its other tensor files, its input_K.pb left out); an .npz's
// members in archive order; a single tensor file. Files of other kinds in a folder are ignored. Only what
// the files say of their tensors is read here, not their data (but where a file cannot
// be streamed). Throws Error(kIo) for what cannot be read, Error(kInvalid) for a damaged
// file or a folder without tensor files.
std::vector<ResultTensor> read_result_files(const std::string& path,
                                            FolderTensors which = FolderTensors::kTestSetOutputs);
// One .pb, .tensorproto or .npy file, `listed_name` its name where an index (values.tsv)
// gives one. The same checks and throws as read_result_files.
ResultTensor read_result_file(const std::string& file, const std::string& listed_name = "");

// Matching tensors to wanted names (graph outputs, or the other set's names): each
// tensor whose name is one of `wanted` (and not yet taken) goes there; the others fill
// the remaining places in order. Returns, per tensor, its place in `wanted`, or
// wanted.size() for a tensor left over (more tensors than places).
std::vector<size_t> match_by_name_then_position(const std::vector<std::string>& wanted,
                                                const std::vector<std::string>& names);

}  // namespace onnxrun
