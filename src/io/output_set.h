// The set of files a run will commit (DESIGN.md, "Files:"): a run's output files appear
// together, and only once the run has succeeded. The run owns its OutputSet and passes it
// to every writer of those files explicitly, inside each WriteTarget (io/output_folder.h);
// there is no process-wide or thread-local current set. An AtomicFile (io/atomic_file.h)
// whose target names a set leaves its finished temporary where it is and hands it to the
// set instead of renaming it; a target without a set (a report, --dump-intermediates)
// is put in place as soon as it is complete.
//
//   OutputSet outputs;                                   // before the run writes anything
//   const auto folder = outputs.folder("out");            // made if missing, owned by the set
//   write_tensor_file(outputs.target(folder, "output_0.pb"), t, "y");
//   ... run, compare, print, flush stdout ...
//   for (auto& p : outputs.commit()) log::info("wrote {}", p);
//
// - commit() renames every temporary over its final path, in the order written, and
//   returns the final paths. If a rename fails it takes back the files it has already
//   renamed into place (what each replaced is renamed back from its hard link; see
//   OwnedTemp::put_in_place) and removes every temporary left, then throws Error(kIo):
//   the run leaves nothing of itself and what stood there stands again. Only where the
//   filesystem has no hard links is a replaced file gone once its rename is done.
// - Rolling back is dropping the set: the destructor without a (successful) commit removes
//   every temporary, and the folders made for them (folder()) that are then empty: a
//   failed run leaves no empty `-o` folder behind.
// - SIGINT/SIGTERM (io/cleanup_signals.h) removes what the set holds: every temporary and
//   made folder is in a clean-up slot from before it exists, and during commit the files
//   already renamed into place are taken back as a failed commit takes them (and a file
//   its undo already put back stays). Once every file is in place the set is kept: a
//   signal then leaves the new files and removes the replaced files' links. Only a
//   SIGKILL in a commit can leave a replaced file's ".old" link beside its new file.
// - Writes in place (FIFOs, devices, /dev/stdout) cannot wait: they happen at once.
// Thread safe: writers on several threads may hand files to one set. Sets are independent
// of one another.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "io/output_folder.h"

namespace onnxrun {

namespace cleanup {
struct Slot;
}
class OwnedTemp;

class OutputSet {
 public:
  OutputSet();
  ~OutputSet();  // rolls back what was not committed
  OutputSet(const OutputSet&) = delete;
  OutputSet& operator=(const OutputSet&) = delete;

  // OutputFolder::make(dir), the folders it made registered with this set: a run that
  // fails takes them back (when they are empty).
  std::shared_ptr<const OutputFolder> folder(const std::string& dir);
  // `name` in `folder`, or a path the user named, as a file of this set.
  WriteTarget target(std::shared_ptr<const OutputFolder> folder, std::string name);
  WriteTarget target(std::string user_path);

  // Renames all into place; see above. A set commits once: a file handed to it
  // afterwards is refused (Error(kInternal)).
  std::vector<std::string> commit();

  // Final paths recorded so far, in order.
  std::vector<std::string> pending() const;

  // For io/atomic_file.cc: a finished temporary (io/owned_temp.h), to be put in place on
  // commit. The set owns it from here on. A second file for the same final path replaces
  // the first (whose temporary is removed).
  void add(std::unique_ptr<OwnedTemp> temp);

 private:
  struct Folder {
    std::string path;
    cleanup::Slot* slot;
  };
  void add_made_folder(const std::string& dir);
  void remove_made_folders() noexcept;  // with mu_ held
  mutable std::mutex mu_;
  std::vector<std::unique_ptr<OwnedTemp>> entries_;
  std::vector<Folder> folders_;
  bool done_ = false;
  // Set when every file is in place: from then on the signal handler keeps them all
  // (io/cleanup_signals.h set_kept_flag). Lock-free, read by the handler.
  std::atomic<int> kept_{0};
};

}  // namespace onnxrun
