// A run's output files appear together, and only once the run has succeeded
// (DESIGN.md, "Files:"). While an OutputTransaction is alive it is the process's
// current one, and write_file_atomically (io/atomic_file.h) leaves each finished
// temporary where it is and records (temporary, final path) here instead of renaming.
//
//   OutputTransaction outputs;         // before the run writes anything
//   ... run, compare, print, flush stdout ...
//   for (auto& p : outputs.commit()) log::info("wrote {}", p);
//
// - commit() renames every temporary over its final path, in the order written, and
//   returns the final paths. If a rename fails it removes the files it has already
//   renamed into place and every temporary left, then throws Error(kIo): the run leaves
//   nothing of itself. A regular file that a rename had replaced cannot be brought back
//   (its old contents are gone once the rename is done).
// - The destructor without a (successful) commit removes every temporary, and the
//   folders made for them (add_made_folder) that are then empty: a failed run leaves no
//   empty `-o` folder behind.
// - SIGINT/SIGTERM (io/cleanup_signals.h) removes the temporaries, and during commit the
//   files already renamed into place.
// - Writes in place (FIFOs, devices, /dev/stdout) cannot wait: they happen at once.
// - Writers that must not wait (--dump-intermediates, `onnx-run test` reports) bypass the
//   transaction: an ImmediateWrites scope, or write_text_file_now (io/atomic_file.h).
// One transaction at a time: constructing a second while one is alive throws Error(kInternal).
#pragma once

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

class OutputTransaction {
 public:
  OutputTransaction();
  ~OutputTransaction();
  OutputTransaction(const OutputTransaction&) = delete;
  OutputTransaction& operator=(const OutputTransaction&) = delete;

  // The live transaction, or nullptr.
  static OutputTransaction* current();

  // Renames all into place; see above. A transaction commits once: afterwards it is
  // no longer current, and writes go straight to their files again.
  std::vector<std::string> commit();

  // Final paths recorded so far, in order.
  std::vector<std::string> pending() const;

  // For io/atomic_file.cc: a finished temporary (io/owned_temp.h), to be put in place on
  // commit. The transaction owns it from here on. A second file for the same final path
  // replaces the first (whose temporary is removed).
  void add(std::unique_ptr<OwnedTemp> temp);

  // A folder made for this transaction's files (io/output_files.h make_output_dir), a
  // parent before its children: removed again, when empty, unless the commit succeeds.
  void add_made_folder(const std::string& dir);

 private:
  struct Folder {
    std::string path;
    cleanup::Slot* slot;
  };
  void discard() noexcept;
  void remove_made_folders() noexcept;  // with mu_ held
  mutable std::mutex mu_;
  std::vector<std::unique_ptr<OwnedTemp>> entries_;
  std::vector<Folder> folders_;
  bool done_ = false;
};

// OutputFolder::make(dir), with the folders it made registered with the live
// transaction, if any: a run that fails takes them back (when they are empty).
std::shared_ptr<const OutputFolder> make_output_folder(const std::string& dir);

}  // namespace onnxrun
