// What each fuzz target does with one input, as functions, so that the normal test run
// (tests/unit/model/fuzz_regression_test.cc) replays the inputs kept under regressions/<target>/
// exactly the way the fuzzer ran them. Each returns normally when the input was handled
// or refused with an onnxrun::Error; anything else (another exception, a crash, a
// sanitizer report, std::abort for a broken round trip) is a finding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace onnxrun::fuzz {

// The memory limit (core/memory_limit.h) each target runs under: far below libFuzzer's
// -rss_limit_mb, so that a huge tensor is a refusal and not an out-of-memory report.
inline constexpr size_t kModelMemoryLimit = size_t{256} << 20;
inline constexpr size_t kRunMemoryLimit = size_t{64} << 20;

// The bytes as the file `path` (aborts when it cannot be written: the scratch folder is
// the harness's own).
void write_bytes(const std::string& path, const uint8_t* data, size_t size);

// Writes what the cases expect in their scratch folder: "data.bin" (4096 bytes), which
// the seeds' external-data references name.
void prepare_scratch_dir(const std::string& dir);

// fuzz_model: a model from bytes (external data looked for in `dir`), loaded and, when
// it loads, run on inputs filled with bytes of the input.
void model_case(const uint8_t* data, size_t size, const std::string& dir);

// fuzz_tensor_file: a .pb tensor file, read as the runs read it (open_tensor_stream) and
// by read_tensor_file, written back and read again (the two readers and the round trip
// must agree, or it aborts).
void tensor_file_case(const uint8_t* data, size_t size, const std::string& dir);

// fuzz_run: the whole `onnx-run MODEL -o DIR` pipeline. The bytes are written to
// dir/model.onnx and run through run_model (suite/run.h) on made-up inputs, one thread,
// outputs to dir/out in pb, npy or npz (chosen by the middle byte of the input); the report
// is rendered as JSON and each output with format_shown and format_stats (the strings are
// dropped), then the outputs are committed.
void run_case(const uint8_t* data, size_t size, const std::string& dir);

// fuzz_cli: the command line's argument parsing. The bytes, split at NUL, are the
// arguments after "onnx-run" (at most 64); select_command picks the command and its
// check_args parses and checks every option value, running nothing (cli/commands.h).
// Each argument that is a tensor literal ([NAME=][...]) is parsed as every element type.
void cli_case(const uint8_t* data, size_t size);

// fuzz_result_file (fuzz_verdict_cases.cc): a result file as `onnx-run compare` and
// `--expected` read it. The first byte picks its name, so its format (output_0.pb,
// output_0.npy, outputs.npz, y.npy), and the tolerance (--exact, --max-ulp N or the
// default); the rest is the file, alone in a folder compared with a float[4] output y,
// given as --expected for a graph whose output is y, float[4], and, as output_0.pb, the
// expected output of a LeakyRelu test set run block by block.
void result_file_case(const uint8_t* data, size_t size, const std::string& dir);

// fuzz_report (fuzz_verdict_cases.cc): a test report from bytes, merged with a good shard
// as `onnx-run report merge` does, rendered, then read as a --baseline and compared with
// the merged tests, and the --update-baseline result made.
void report_case(const uint8_t* data, size_t size, const std::string& dir);

}  // namespace onnxrun::fuzz
