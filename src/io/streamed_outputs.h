// A run's files, written as their data comes, block by block (a whole run's tensors are
// one block each): -o's outputs and --save-inputs' inputs, pb as output_<k>.pb (a
// TensorProto named after its value), npy as output_<k>.npy, npz as one outputs.npz (a
// member keyed by each value's name), and input_<k>..., inputs.npz alike, named by
// io/output_names.h, and handed to the caller's OutputSet (io/output_set.h) on finish():
// they appear when it commits, or not at all. Memory is the headers; data goes from the
// caller's blocks to the files.
//
// Each file is one writer of io/streamed_tensor_file.h; outputs.npz takes its members'
// blocks in any interleaving. Every file is a temporary of the run's own, so it can seek.
// Every file goes into the folder by rename (io/output_folder.h): a FIFO, device or
// symlink standing at an output's name is replaced, never written into.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/tensor.h"
#include "io/output_names.h"
#include "io/streamed_tensor_file.h"
#include "io/tensor_format.h"

namespace onnxrun {

class OutputSet;

// Before a run: Error(kIo) when StreamedOutputs(format, dir, <count values>, role) is
// sure to fail (dir is not a folder; a file's name is a folder; dir is not writable), and
// Error(kUsage) when one of its files would replace one of `reads`, the files the run
// reads (a test set's expected output, an input): the reference it is checked against
// would be lost, as a report may not replace a file its command reads. Folders are
// compared by identity (device, inode), so a bind mount of a folder read is refused too.
// `option` names dir in that message ("-o").
// Removes the temporaries killed runs left in dir (io/owned_temp.h).
void check_output_targets(TensorFormat format, const std::string& dir, size_t count, TensorRole role,
                          const std::vector<std::string>& reads, const char* option);

class StreamedOutputs {
 public:
  // Creates `dir` if missing (through `set`, which takes it back if the run fails) and
  // opens a file for each value (Error(kIo) when one cannot be). REQUIRES: `set` outlives
  // this object. TensorRole::kInputs writes the files --save-inputs names (input_<k>,
  // inputs.npz).
  StreamedOutputs(OutputSet& set, TensorFormat format, const std::string& dir, const std::vector<ValueSpec>& values,
                  TensorRole role = TensorRole::kOutputs);
  // Not finished: every temporary removed, nothing left.
  ~StreamedOutputs();
  StreamedOutputs(const StreamedOutputs&) = delete;
  StreamedOutputs& operator=(const StreamedOutputs&) = delete;

  // The next n data bytes of output k. Error(kInternal) past its byte size.
  void append(size_t k, const void* data, size_t n);
  // Error(kInternal) when an output got other than its byte size: then none of them is
  // handed over. Else every file goes to the set. Returns their paths.
  std::vector<std::string> finish();

 private:
  size_t count_;
  std::vector<std::unique_ptr<StreamedTensorFile>> files_;  // pb, npy
  std::unique_ptr<StreamedNpzFile> npz_;
  bool finished_ = false;
};

}  // namespace onnxrun
