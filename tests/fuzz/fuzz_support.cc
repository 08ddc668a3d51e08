#include "fuzz_support.h"

#include <cstdlib>

#include <unistd.h>

#include "core/log.h"
#include "core/memory_limit.h"
#include "fuzz_cases.h"

namespace onnxrun::fuzz {

const std::string& setup(size_t memory_limit) {
  static const std::string dir = [memory_limit] {
    log::set_level(log::Level::kOff);
    // Well below libFuzzer's -rss_limit_mb: a refusal, not an OOM.
    set_memory_limit(memory_limit);
    std::string tmpl = "/tmp/onnxrun-fuzz-" + std::to_string(::getpid()) + "-XXXXXX";
    if (!::mkdtemp(tmpl.data())) std::abort();
    prepare_scratch_dir(tmpl);
    return tmpl;
  }();
  return dir;
}

}  // namespace onnxrun::fuzz
