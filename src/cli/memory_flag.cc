#include "cli/memory_flag.h"

#include <CLI/CLI.hpp>

#include "core/memory_limit.h"

namespace onnxrun::cli {

CLI::Option* add_max_memory_option(CLI::App& app, std::string& value) {
  return app
      .add_option("--max-memory", value,
                  "refuse a run whose tensors need more memory than SIZE (512M, 4G, ...; default: 3/4 of physical "
                  "memory, " +
                      format_bytes(default_memory_limit()) + " here)")
      ->type_name("SIZE");
}

void apply_max_memory(const std::string& value) {
  if (!value.empty()) set_memory_limit(parse_memory_size(value));
}

}  // namespace onnxrun::cli
