// Temporaries that are provably the run's own (DESIGN.md, "Files:"). A result file is
// written to a temporary in its folder, then renamed over its final name.
//
// Where the filesystem has O_TMPFILE, the temporary has no name at all while it is
// written: nothing can mistake it for debris, and a run killed by SIGKILL leaves nothing
// (the kernel frees an unnamed file with its last descriptor). It gets a name,
// ".NAME.onnx-run.XXXXXXXXXXXX.tmp", only between linkat and the rename. Where
// O_TMPFILE is lacking, the temporary is created under such a name at once.
//
// Either way its writer holds an exclusive flock on it for as long as it has a name: the
// unnamed file is locked before it is linked; a named one counts as created only once
// its lock is held and the name still leads to it (a clean-up that came in between has
// removed the name, and the writer takes another). A lock is held by an open file, not
// by a process id: it holds across PID namespaces, containers sharing a volume and NFS
// clients, and ends when the writer dies, however it dies.
//
// remove_stale_temporaries (io/temp_names.h) removes only files of exactly that pattern whose lock it can
// take: never a live writer's, never a file because some process id looks dead, never a
// file of another pattern (the former ".NAME.tmp.PID.XXXXXX" is not touched any more).
#pragma once

#include <atomic>
#include <memory>
#include <string>

#include "io/output_folder.h"

namespace onnxrun {

namespace cleanup {
struct Slot;
}

class OwnedTemp {
 public:
  // A new temporary for `name` in `folder`, empty, locked, registered for the signal
  // handler (io/cleanup_signals.h). Throws Error(kIo) "cannot write FOLDER/NAME: ...".
  OwnedTemp(std::shared_ptr<const OutputFolder> folder, std::string name);
  // Not put in place: the temporary goes (its name, if it has one; its lock).
  ~OwnedTemp();
  OwnedTemp(const OwnedTemp&) = delete;
  OwnedTemp& operator=(const OwnedTemp&) = delete;

  int fd() const { return fd_; }
  const std::string& path() const { return path_; }  // the final file's, for messages

  // The permission bits (0777) of the regular file the temporary will replace (the entry
  // at the final name, not followed), or `otherwise` when there is none.
  unsigned replaced_mode(unsigned otherwise) const;
  // Names the temporary if it has no name yet, then renames it over the final name,
  // replacing whatever entry stands there (never following it). The entry replaced keeps
  // a hard link, ".NAME.onnx-run.XXXXXXXXXXXX.old", where the filesystem allows one. From
  // here the final file is the run's own until keep(): remove_placed() takes it back.
  // Throws Error(kIo) (the temporary is then still the run's, removed by the destructor).
  void put_in_place();
  // The final file is the user's now: no clean-up touches it any more; the replaced
  // entry's link goes.
  void keep();
  // The signal handler leaves this file alone once `kept` is set (cleanup::set_kept_flag).
  void join(const std::atomic<int>* kept);
  // After put_in_place() and before keep(): takes the final file back (a failed commit):
  // the entry it replaced is renamed back, or, where none stood, the name removed.
  void remove_placed() noexcept;

 private:
  void link_name();  // gives the unnamed temporary its name
  std::shared_ptr<const OutputFolder> folder_;
  std::string name_, path_;
  std::string temp_;        // the temporary's name in the folder; empty while it has none
  std::string backup_;      // the replaced entry's link, named before it may exist (the slot knows it)
  bool backed_up_ = false;  // the link stands
  int fd_ = -1;
  bool placed_ = false;
  cleanup::Slot* slot_ = nullptr;
};

// For tests: false makes every new temporary a named one, as where O_TMPFILE is lacking.
void set_unnamed_temporaries_allowed(bool allowed);

}  // namespace onnxrun
