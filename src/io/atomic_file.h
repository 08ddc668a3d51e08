// Writing a file so that it either appears whole or not at all: the bytes go to a
// temporary file in the same folder, which is renamed over the target only when
// complete. A failure (including an exception from the writer) removes the temporary.
#pragma once

#include <cstdio>
#include <functional>
#include <string>

namespace onnxrun {

// Calls `write` with a FILE* open on the temporary file. Throws Error(kIo) naming
// `path` when the folder cannot be written or a write fails.
void write_file_atomically(const std::string& path, const std::function<void(std::FILE*)>& write);

// fwrite that throws Error(kIo) on a short write.
void write_bytes(std::FILE* f, const void* data, size_t n, const std::string& path);

}  // namespace onnxrun
