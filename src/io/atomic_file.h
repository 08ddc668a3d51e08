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

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>

namespace onnxrun {

namespace cleanup {
struct Slot;
}

// One result file being written, as described above: the constructor opens the
// temporary (or the target itself, in place), commit() puts it in place (or hands it to
// the live OutputTransaction), and the destructor without a commit removes the
// temporary. Several can be open at once (outputs written block by block, side by side).
// Not thread safe; one writer per object.
class AtomicFile {
 public:
  // Throws Error(kIo) naming `path` when it cannot be opened (a folder, a folder that
  // cannot be written, an in-place target that refuses).
  explicit AtomicFile(const std::string& path);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  // The open file, buffered. Bytes written through file() and through fd() (pwrite)
  // meet in the file only in order: fflush(file()) before writing through fd().
  // REQUIRES: not committed.
  std::FILE* file() const { return f_; }
  int fd() const;
  // True when written in place (a FIFO, a device, /dev/stdout): no temporary, no rename,
  // and what was written stays even without a commit.
  bool in_place() const { return in_place_; }
  // True when writes may go to any offset (pwrite): a temporary, or a regular file
  // written in place.
  bool can_seek() const { return can_seek_; }
  const std::string& path() const { return path_; }  // as given, for messages

  // Flushes and closes the file; a temporary gets the usual permissions of a new file
  // and is renamed over the target, or handed to the live OutputTransaction unless an
  // ImmediateWrites scope is open. Throws Error(kIo) (the temporary is then removed).
  void commit();

  // Whether AtomicFile(path).can_seek() would be true, found without opening anything
  // (opening a FIFO would wait for its reader). Throws as resolving the path does.
  static bool can_seek_at(const std::string& path);

 private:
  std::string path_;
  std::string target_;  // the file replaced, or written in place
  std::string tmp_;     // the temporary, while it is ours
  std::FILE* f_ = nullptr;
  bool in_place_ = false;
  bool can_seek_ = false;
  cleanup::Slot* slot_ = nullptr;  // the temporary's signal clean-up slot, while it is ours
  [[noreturn]] void give_up(int err);
};

// Calls `write` with a FILE* open on the temporary file (or the target itself, in place),
// then commits it (AtomicFile). Throws Error(kIo) naming `path` when the folder cannot be
// written or a write fails.
void write_file_atomically(const std::string& path, const std::function<void(std::FILE*)>& write);

// pwrite of all n bytes at `offset` that throws Error(kIo) "cannot write PATH: ...".
void write_bytes_at(int fd, const void* data, size_t n, uint64_t offset, const std::string& path);

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
