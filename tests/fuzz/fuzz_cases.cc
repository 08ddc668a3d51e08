#include "fuzz_cases.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <vector>

#include "cli/commands.h"
#include "core/dtype.h"
#include "core/error.h"
#include "core/tensor_stats.h"
#include "exec/bind.h"
#include "exec/executor.h"
#include "io/streamed_tensor_file.h"
#include "io/tensor_file.h"
#include "io/tensor_format.h"
#include "io/tensor_literal.h"
#include "io/tensor_stream.h"
#include "io/tensor_text.h"
#include "model/load.h"
#include "suite/json_documents.h"
#include "suite/run.h"
#include "support/shortcuts.h"

namespace onnxrun::fuzz {
void write_bytes(const std::string& path, const uint8_t* data, size_t size) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) std::abort();
  if (size && std::fwrite(data, 1, size, f) != size) std::abort();
  std::fclose(f);
}

namespace {

// Inputs for every required graph input whose type and rank are declared, filled with
// bytes of the fuzz input; symbolic and unknown dims become 1. Gives up (false) on an
// input it cannot make or one too big to be worth running.
bool make_feeds(const Graph& g, const uint8_t* data, size_t size, std::vector<Feed>& feeds) {
  for (const ValueInfo* v : g.required_inputs()) {
    if (!v->dtype || !v->shape || !dtype_is_storable(*v->dtype)) return false;
    Shape shape;
    int64_t numel = 1;
    for (const Dim& d : *v->shape) {
      const int64_t n = d.fixed() ? d.value : 1;
      if (n > 4096 || numel * std::max<int64_t>(n, 1) > 4096) return false;
      numel *= n;
      shape.push_back(n);
    }
    Feed f;
    f.name = v->name;
    f.tensor = Tensor(*v->dtype, shape);
    auto* out = static_cast<uint8_t*>(f.tensor.mutable_raw());
    for (size_t i = 0; i < f.tensor.nbytes(); ++i) out[i] = size ? data[i % size] : 0;
    feeds.push_back(std::move(f));
  }
  return true;
}

}  // namespace

void prepare_scratch_dir(const std::string& dir) {
  std::ofstream f(dir + "/data.bin", std::ios::binary);
  for (int i = 0; i < 4096; ++i) f.put(static_cast<char>(i * 37));
  if (!f) std::abort();
}

void model_case(const uint8_t* data, size_t size, const std::string& dir) {
  try {
    Model m = load_model_from_bytes(data, size, dir);
    std::vector<Feed> feeds;
    if (!make_feeds(m.graph, data, size, feeds)) return;
    Executor exec(std::move(m.graph));
    auto bound = bind_inputs(exec.graph(), std::move(feeds));
    std::vector<Tensor> outputs = exec.run(std::move(bound));
    // Touch every output byte so that ASan sees any out-of-bounds buffer.
    volatile uint8_t sink = 0;
    for (const Tensor& t : outputs)
      for (size_t i = 0; i < t.nbytes(); ++i) sink = sink ^ static_cast<const uint8_t*>(t.raw())[i];
  } catch (const Error&) {
  }
}

void tensor_file_case(const uint8_t* data, size_t size, const std::string& dir) {
  const std::string path = dir + "/input.pb";
  write_bytes(path, data, size);
  // The runs read it as a source (io/tensor_stream.h: streamed, or read whole by
  // read_tensor_file); it must never take what the whole reader refuses, and must give
  // the same tensor when both take it.
  std::optional<NamedTensor> streamed;
  try {
    const TensorStream s = open_tensor_stream(path);
    streamed = NamedTensor{s.name, read_whole(s)};
  } catch (const Error&) {
  }
  NamedTensor nt;
  try {
    nt = read_tensor_file(path);
  } catch (const Error&) {
    if (streamed) std::abort();
    return;
  }
  if (streamed &&
      (streamed->name != nt.name || streamed->tensor.dtype() != nt.tensor.dtype() ||
       streamed->tensor.shape() != nt.tensor.shape() ||
       (nt.tensor.nbytes() && std::memcmp(streamed->tensor.raw(), nt.tensor.raw(), nt.tensor.nbytes()) != 0)))
    std::abort();
  // A tensor that was read must survive a round trip bit for bit.
  const std::string back = dir + "/back.pb";
  write_tensor_file(back, nt.tensor, nt.name);
  NamedTensor again = read_tensor_file(back);
  if (again.name != nt.name || again.tensor.dtype() != nt.tensor.dtype() || again.tensor.shape() != nt.tensor.shape() ||
      again.tensor.nbytes() != nt.tensor.nbytes() ||
      (nt.tensor.nbytes() && std::memcmp(again.tensor.raw(), nt.tensor.raw(), nt.tensor.nbytes()) != 0))
    std::abort();
}

void run_case(const uint8_t* data, size_t size, const std::string& dir) {
  RunRequest r;
  r.model = dir + "/model.onnx";
  write_bytes(r.model, data, size);
  r.source = FeedSource::kRandom;
  r.seed = size;
  r.threads = 1;  // the fuzzer runs one input at a time; no pool per input
  r.output_dir = dir + "/out";
  const uint8_t pick = size ? data[size / 2] : 0;
  static constexpr TensorFormat kFormats[] = {TensorFormat::kPb, TensorFormat::kNpy, TensorFormat::kNpz};
  r.format = kFormats[pick % 3];
  r.print.full = pick & 4;
  try {
    RunReport report = run_model(r);
    // --full output only while it stays cheap: every element of a 16M-element output as
    // text would be a timeout, not a finding.
    bool cheap = true;
    for (const SetRun& s : report.runs)
      for (const auto* values : {&s.inputs, &s.outputs})
        for (const RunValue& v : *values)
          if (v.digest.valid() && v.digest.print.full && v.digest.shown.numel() > 65536) cheap = false;
    size_t text = 0;
    if (cheap) {
      text += run_json(report).size();
      for (const SetRun& s : report.runs)
        for (const RunValue& v : s.outputs)
          text +=
              format_shown(v.digest.shown, v.digest.shape, v.digest.print).size() + format_stats(v.digest.stats).size();
    }
    (void)text;
    report.commit_outputs();
  } catch (const Error&) {
  }
}

void cli_case(const uint8_t* data, size_t size) {
  std::vector<std::string> args{"onnx-run"};
  const char* text = reinterpret_cast<const char*>(data);
  for (size_t start = 0; start <= size && args.size() <= 64;) {
    const char* nul = start < size ? static_cast<const char*>(std::memchr(text + start, 0, size - start)) : nullptr;
    const size_t end = nul ? static_cast<size_t>(nul - text) : size;
    args.emplace_back(text + start, end - start);
    start = end + 1;
  }
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  try {
    const cli::CommandLine line = cli::select_command(static_cast<int>(args.size()), argv.data());
    if (line.command) line.command->check_args(line.argc, line.argv);
  } catch (const Error&) {
  }
  for (const std::string& a : args) {
    const size_t eq = a.find('=');
    const std::string value = eq != std::string::npos && !is_tensor_literal(a) ? a.substr(eq + 1) : a;
    if (!is_tensor_literal(value)) continue;
    for (DType t : {DType::kFloat, DType::kDouble, DType::kFloat16, DType::kBFloat16, DType::kInt64, DType::kInt32,
                    DType::kUInt8, DType::kBool}) {
      try {
        parse_tensor_literal(value, t, std::nullopt, "-i");
      } catch (const Error&) {
      }
    }
  }
}

}  // namespace onnxrun::fuzz
