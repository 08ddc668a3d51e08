// What the fuzz targets share: a quiet, bounded process set up once, and a scratch
// folder (with a small data file for external-data references to find).
#pragma once

#include <string>

namespace onnxrun::fuzz {

// Silences logging, sets a 256 MiB memory limit and creates the scratch folder,
// once. Returns the folder, which holds "data.bin" (4096 bytes).
const std::string& setup();

}  // namespace onnxrun::fuzz
