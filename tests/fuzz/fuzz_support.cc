#include "fuzz_support.h"

#include <cstdlib>
#include <fstream>

#include <unistd.h>

#include <spdlog/spdlog.h>

#include "core/memory_limit.h"

namespace onnxrun::fuzz {

const std::string& setup() {
  static const std::string dir = [] {
    spdlog::set_level(spdlog::level::off);
    // Well below libFuzzer's default -rss_limit_mb (2048): a refusal, not an OOM.
    set_memory_limit(size_t{256} << 20);
    std::string tmpl = "/tmp/onnxrun-fuzz-" + std::to_string(::getpid()) + "-XXXXXX";
    if (!::mkdtemp(tmpl.data())) std::abort();
    std::ofstream f(tmpl + "/data.bin", std::ios::binary);
    for (int i = 0; i < 4096; ++i) f.put(static_cast<char>(i * 37));
    return tmpl;
  }();
  return dir;
}

}  // namespace onnxrun::fuzz
