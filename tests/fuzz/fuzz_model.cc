// Fuzz target: a model from bytes, loaded and, when it loads, run on inputs made from
// its declared shapes. Any Error is a proper refusal; anything else escaping, a crash,
// a leak or a sanitizer report is a bug.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/error.h"
#include "exec/bind.h"
#include "exec/executor.h"
#include "fuzz_support.h"
#include "model/load.h"

using namespace onnxrun;

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

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& dir = fuzz::setup();
  try {
    Model m = load_model_from_bytes(data, size, dir);
    std::vector<Feed> feeds;
    if (!make_feeds(m.graph, data, size, feeds)) return 0;
    Executor exec(std::move(m.graph));
    auto bound = bind_inputs(exec.graph(), std::move(feeds));
    std::vector<Tensor> outputs = exec.run(std::move(bound));
    // Touch every output byte so that ASan sees any out-of-bounds buffer.
    volatile uint8_t sink = 0;
    for (const Tensor& t : outputs)
      for (size_t i = 0; i < t.nbytes(); ++i) sink = sink ^ static_cast<const uint8_t*>(t.raw())[i];
  } catch (const Error&) {
  }
  return 0;
}
