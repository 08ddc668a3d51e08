// Writing a result file so that it either appears whole or not at all (DESIGN.md,
// "Files:"). Every result file of onnx-run is written through here.
//
// What happens depends on the target (io/output_folder.h WriteTarget):
// - a name onnx-run chose inside an OutputFolder: the bytes go to a temporary of the run's
//   own (io/owned_temp.h) in that folder, renamed over the name when complete, replacing
//   whatever entry stands there (a file, a symlink, a FIFO, a device node) and never
//   writing through it.
// - a path the user named (symlinks followed, except another user's symlink in a sticky
//   world-writable folder such as /tmp, refused with Error(kSecurity) as the kernel's
//   protected_symlinks refuses it):
//   - nothing, or a regular file: a temporary beside the target, renamed over it when
//     complete. A symlink's target is what gets replaced; the link stays a link.
//   - a FIFO, a character or block device, a socket, or /dev/stdout, /dev/fd/N,
//     /proc/.../fd/N: opened and written in place, no temporary, no rename.
//   - a folder: Error(kIo), nothing written.
// Temporaries that killed runs left for the same file are removed first (only those
// provably nobody's: io/owned_temp.h).
// When the target names an OutputSet (io/output_set.h), a replacing write stops before
// the rename and hands the temporary to it; the set puts it in place on its commit.
// A failure (including an exception from the writer) removes the temporary;
// SIGINT/SIGTERM does too (io/cleanup_signals.h).
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "io/output_folder.h"

namespace onnxrun {

class OutputSet;
class OwnedTemp;

// One result file being written, as described above: the constructor opens the
// temporary (or the target itself, in place), commit() puts it in place (or hands it to
// the target's OutputSet), and the destructor without a commit removes the
// temporary. Several can be open at once (outputs written block by block, side by side).
// Not thread safe; one writer per object.
class AtomicFile {
 public:
  // Throws Error(kIo) naming the path when it cannot be opened (a folder, a folder that
  // cannot be written, an in-place target that refuses).
  explicit AtomicFile(const WriteTarget& target);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  // The open file, buffered. Bytes written through file() and through fd() (pwrite)
  // meet in the file only in order: fflush(file()) before writing through fd(). A
  // temporary's stream writes through the temporary's descriptor, holding none of its own
  // (fileno gives -1): a file being written holds one descriptor.
  // REQUIRES: not committed.
  std::FILE* file() const { return f_; }
  int fd() const;
  // fwrite through file(), a large write straight to fd() (page_matched_write.h); throws
  // Error(kIo) naming the file on a short write.
  void write(const void* data, size_t n);
  // True when written in place (a FIFO, a device, /dev/stdout): no temporary, no rename,
  // and what was written stays even without a commit.
  bool in_place() const { return in_place_; }
  const std::string& path() const { return path_; }  // as given, for messages

  // Flushes and closes the file; a temporary gets the permission bits of the regular
  // file it replaces (as `sed -i`), or the usual permissions of a new file, and is
  // renamed over the target, or handed to the target's OutputSet when it names
  // one. Throws Error(kIo) (the temporary is then removed).
  void commit();

 private:
  std::string path_;
  OutputSet* set_ = nullptr;         // the target's: where commit() hands the temporary
  std::unique_ptr<OwnedTemp> temp_;  // the temporary, while it is ours
  std::FILE* f_ = nullptr;
  bool in_place_ = false;
  [[noreturn]] void give_up(int err);
};

// pwrite of all n bytes at `offset` that throws Error(kIo) "cannot write PATH: ...".
void write_bytes_at(int fd, const void* data, size_t n, uint64_t offset, const std::string& path);

// Throws Error(kIo) when an AtomicFile(target) is sure to fail for where the file
// goes: it is a folder, its folder does not exist or is not a folder, or that folder
// cannot be written. For checking report and output paths before a long run.
void check_writable_target(const WriteTarget& target);

// `text` as the whole of the target, written as an AtomicFile: handed to the
// target's set when it names one (the --dump-intermediates index, a run's reports).
void write_text_file(const WriteTarget& target, const std::string& text);
// The same, put in place now whatever set the target names.
void write_text_file_now(const WriteTarget& target, const std::string& text);

// The file that an AtomicFile of `path` would replace, for a path the user names:
// symlinks followed (the last one too, dangling or not), the path made absolute with "."
// and ".." taken out; nullopt where nothing would be replaced (a FIFO, a device,
// /dev/stdout: written in place; a folder: refused). Two report paths, or a report path
// and a file the command reads, with the same answer name one file.
std::optional<std::string> replaced_file(const std::string& path);

}  // namespace onnxrun
