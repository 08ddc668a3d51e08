// Writing a result file so that it either appears whole or not at all (DESIGN.md,
// "Files:"). Every result file of onnx-run is written through here.
//
// What happens depends on what the path names (symlinks followed):
// - nothing, or a regular file: the bytes go to a temporary `.NAME.tmp.PID.XXXXXX` in the
//   target's folder, renamed over the target when complete. A symlink's target is what
//   gets replaced (the temporary sits beside it); the link stays a link. Temporaries of
//   NAME left by a killed process (SIGKILL runs no handler) are removed first: those of
//   a PID that no longer exists, last written before this process started.
// - a FIFO, a character or block device, a socket, or /dev/stdout, /dev/fd/N,
//   /proc/.../fd/N: opened and written in place, no temporary, no rename.
// - a folder: Error(kIo), nothing written.
// While an OutputTransaction (io/output_transaction.h) is alive, a replacing write stops
// before the rename and hands (temporary, target) to it, unless it runs inside an
// ImmediateWrites scope. A failure (including an exception from the
// writer) removes the temporary; SIGINT/SIGTERM does too (io/cleanup_signals.h).
#pragma once

#include <cstdio>
#include <functional>
#include <string>

namespace onnxrun {

// Calls `write` with a FILE* open on the temporary file (or the target itself, in place).
// Throws Error(kIo) naming `path` when the folder cannot be written or a write fails.
void write_file_atomically(const std::string& path, const std::function<void(std::FILE*)>& write);

// While alive, this thread's writes go to their files at once, whatever transaction is
// alive: for writers that must not wait for a commit (reports, --dump-intermediates).
class ImmediateWrites {
 public:
  ImmediateWrites();
  ~ImmediateWrites();
  ImmediateWrites(const ImmediateWrites&) = delete;
  ImmediateWrites& operator=(const ImmediateWrites&) = delete;
};

// Throws Error(kIo) when write_file_atomically(path) is sure to fail for where the file
// goes: `path` is a folder, its folder does not exist or is not a folder, or that folder
// cannot be written. For checking report and output paths before a long run.
void check_writable_target(const std::string& path);

// `text` as the whole of `path`, written now (an ImmediateWrites scope): reports and the
// --dump-intermediates index, which a failed run keeps.
void write_text_file_now(const std::string& path, const std::string& text);

// fwrite that throws Error(kIo) on a short write.
void write_bytes(std::FILE* f, const void* data, size_t n, const std::string& path);

}  // namespace onnxrun
