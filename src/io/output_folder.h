// Where a result file goes (DESIGN.md, "Files:"). Two kinds of place, two rules:
// - A name onnx-run chooses inside a folder it fills (-o, --save-inputs,
//   --dump-intermediates): the folder is opened once (OutputFolder), and every file goes
//   in relative to that descriptor by rename, replacing whatever entry stands there (a
//   file, a symlink, a FIFO, a device node) and never following it. A symlink planted
//   there, or swapped in while the run writes, redirects nothing.
// - A path the user names (--json F, --junit F): its symlinks are followed, a FIFO or
//   device is written in place (io/atomic_file.h).
// A WriteTarget says which, and whether the file joins an OutputSet (io/output_set.h) to
// appear on its commit; a plain string is the user's path, written at once.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace onnxrun {

class OutputSet;

// An open folder that result files go into. Thread safe (read-only after creation).
class OutputFolder {
 public:
  // The folder `dir` that onnx-run fills, created with its parents when missing, and
  // opened once. The folders it made are appended to `made` (when given), outermost
  // first, so that a run that fails can take them back (OutputSet::folder in
  // io/output_set.h does). Temporaries that killed runs left in it are removed
  // (io/temp_names.h remove_stale_temporaries). Throws Error(kIo) when it cannot be made
  // or opened, or is not a folder.
  static std::shared_ptr<const OutputFolder> make(const std::string& dir, std::vector<std::string>* made = nullptr);
  // An existing folder, opened (a report path's folder): Error(kIo) when it cannot be.
  static std::shared_ptr<const OutputFolder> open_existing(const std::string& dir);

  ~OutputFolder();
  OutputFolder(const OutputFolder&) = delete;
  OutputFolder& operator=(const OutputFolder&) = delete;

  int fd() const { return fd_; }
  const std::string& path() const { return path_; }  // as given, for messages
  // path()/name, for messages and reports.
  std::string path_of(const std::string& name) const;

 private:
  OutputFolder(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  int fd_;
  std::string path_;
};

// Throws Error(kSecurity) when opening `path` would follow another user's symlink in a
// sticky world-writable folder (/tmp), at any step of the path: the rule of the kernel's
// protected_symlinks, kept whatever the machine's setting, for every file and folder
// onnx-run writes (a report path, an -o, --save-inputs or --dump-intermediates folder).
// Without it, anyone could plant /tmp/out -> a folder of yours and have a run write or
// clean there. The message names the link; callers put what was refused in front.
void refuse_foreign_symlinks(const std::string& path);

// Whether the folder paths `a` and `b` name one folder: the same folder where both exist
// (symlinks followed, as OutputFolder follows them), else the same path once symlinks in
// its existing part are resolved and "." and ".." taken out.
bool same_folder(const std::string& a, const std::string& b);

// A file's entry by identity: its folder's device and inode, and its name there. A folder
// has many paths (a symlink, "..", a bind mount of it, as containers have) but one
// identity: comparing paths let a bind mount of a folder the run reads pass for another.
struct FileEntry {
  uint64_t dev = 0, ino = 0;
  std::string name;
  bool operator==(const FileEntry& o) const { return dev == o.dev && ino == o.ino && name == o.name; }
};
// The entry `path` names, the links in its folder's path followed, its last name not;
// where its folder is not there, known by its path made absolute instead (dev, ino 0).
FileEntry file_entry(const std::string& path);
// The entry `name` in the open `folder`.
FileEntry file_entry(const OutputFolder& folder, const std::string& name);

// A result file's place: a name inside an OutputFolder, or a path the user named; and the
// set it is committed with (OutputSet::target), or none: put in place once complete.
struct WriteTarget {
  WriteTarget(std::string user_path) : path(std::move(user_path)) {}  // NOLINT: a path is a target
  WriteTarget(const char* user_path) : path(user_path) {}             // NOLINT
  WriteTarget(std::shared_ptr<const OutputFolder> in, std::string file_name)
      : path(in->path_of(file_name)), folder(std::move(in)), name(std::move(file_name)) {}

  std::string path;                            // for messages
  std::shared_ptr<const OutputFolder> folder;  // null: a path the user named
  std::string name;                            // inside `folder`
  OutputSet* set = nullptr;                    // null: in place as soon as complete
};

}  // namespace onnxrun
