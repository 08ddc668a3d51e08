// What the fuzz targets share: a quiet, bounded process set up once, and a scratch
// folder (with a small data file for external-data references to find).
#pragma once

#include <cstddef>
#include <string>

namespace onnxrun::fuzz {

// Silences logging, sets the memory limit to `memory_limit` bytes and creates the
// scratch folder (fuzz_cases.h, prepare_scratch_dir), once. Returns the folder.
const std::string& setup(size_t memory_limit);

}  // namespace onnxrun::fuzz
