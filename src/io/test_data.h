// The ONNX test-data layout: model.onnx beside test_data_set_N/ folders that hold
// input_K.pb and output_K.pb (TensorProto files, K from 0).
#pragma once

#include <string>
#include <system_error>
#include <vector>

namespace onnxrun {

// "a2" < "a10": digit runs compare by value. Used wherever sets or tests are listed.
bool natural_less(const std::string& a, const std::string& b);

// The test_data_set_* folders in `dir`, sorted naturally; empty when there are none. A
// test_data_set_* that is a broken link, and a test_data_set_N that is a file or a FIFO,
// are listed too (reading them then fails): a set whose data is not there is a set that
// did not run, never one that was not there.
std::vector<std::string> find_test_sets(const std::string& dir);

struct TestSetFiles {
  std::vector<std::string> inputs;   // input_0.pb, input_1.pb, ... by K
  std::vector<std::string> outputs;  // output_0.pb, ...
};

// The files of one test set. Throws Error(kIo) when the folder cannot be read and
// Error(kInvalid) when the K indices have a gap (check_numbered_files).
TestSetFiles list_test_set(const std::string& dir);

// The entries of `dir` named PREFIXinput_K.pb and PREFIXoutput_K.pb ("" in a test set,
// "NAME_" beside NAME.onnx), sorted by K, gaps not checked. Entries of every kind are listed
// (a FIFO, a folder, a dangling link), so that reading them refuses them as in every door.
// `ec` is set when `dir` cannot be listed.
TestSetFiles list_numbered_files(const std::string& dir, const std::string& prefix, std::error_code& ec);

// Sorts test-data files (input_K.pb, NAME_output_K.pb) by K, compared as numbers
// (natural_less) however many digits K has: nothing here parses K into an integer.
void sort_numbered_files(std::vector<std::string>& paths);
// Throws Error(kInvalid) unless `paths`, sorted, are named `stem`_0.pb, `stem`_1.pb, ... (stem
// "input", or "NAME_output" in the flat layout) in `dir`: a gap (output_1.pb without
// output_0.pb) says which file is missing, and so does a K no count reaches (input_99999999999999999999.pb)
// or written with a leading zero (input_01.pb).
void check_numbered_files(const std::vector<std::string>& paths, const std::string& stem, const std::string& dir);

}  // namespace onnxrun
