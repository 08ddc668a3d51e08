// --max-memory SIZE: the ceiling on the memory tensors may hold (core/memory_limit.h),
// for every command that loads models or tensors. Call add_max_memory_option before
// parsing and apply_max_memory after.
#pragma once

#include <string>

#include "cli/cli11_fwd.h"

namespace onnxrun::cli {

CLI::Option* add_max_memory_option(CLI::App& app, std::string& value);

// Sets the process-wide limit from the option's text; empty keeps the default.
// Throws Error(kUsage) on a malformed size.
void apply_max_memory(const std::string& value);

}  // namespace onnxrun::cli
