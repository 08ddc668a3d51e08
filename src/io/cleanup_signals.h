// Removing a run's files when SIGINT or SIGTERM ends it (DESIGN.md, "Files:").
//
// Every temporary that an AtomicFile creates, every folder an OutputSet
// (io/output_set.h) makes for its files, and every file its commit renames into place, is
// registered here in a preallocated slot *before* the file exists. The signal handler
// walks the slots with async-signal-safe calls only (unlink, rename, write, _exit): it
// unlinks each live temporary, and takes back each file a commit in progress has already
// renamed into place (the file it replaced is renamed back from its backup, or the name
// is unlinked where none stood), then removes the folders made for them when empty, then
// prints `onnx-run: interrupted
// (SIGINT)` (or SIGTERM) and exits 130 (143). The slots are the set's state as the
// handler sees it: no list of sets is kept.
#pragma once

#include <atomic>
#include <string>

#include <fcntl.h>

namespace onnxrun {

// Installs the handler for SIGINT and SIGTERM (a SIGINT the parent set to be ignored
// stays ignored, as for any background job). Called once, from main().
void install_cleanup_signal_handlers();

namespace cleanup {

// What the handler does with a slot.
enum class SlotState : int {
  kFree = 0,      // unused; ready to be claimed
  kClaimed = 1,   // owned, nothing to remove (yet)
  kTemp = 2,      // unlink the temporary (and the backup, if made)
  kRenaming = 3,  // a rename is under way: unlink the temporary and the backup; if the
                  // temporary is gone, take the final file back (as kRenamed)
  kRenamed = 4,   // take the final file back (a commit in progress put it there): rename
                  // the backup over it, or unlink it when there is none. Once the set's
                  // kept flag is up, only the backup goes: the new file is the user's.
  kDir = 5,       // rmdir `final`, a folder the run made for its files, if it is empty
  kLinking = 6,   // an unnamed temporary is being given the name `temp`: unlink it if
                  // that name leads to the open file `fd` (set_fd), not another's file
};

struct Slot;

// A slot holding copies of `temp`, `final` and `backup` (any may be empty), in state
// kClaimed. `backup` names the hard link that keeps the file `final` replaces until the
// commit is done (io/owned_temp.h); it is given before it may exist, so that the handler
// always knows it. All are names relative to the folder descriptor `dir`
// (io/output_folder.h), which must stay open while the slot is claimed; AT_FDCWD for paths.
// Never null; slots are never freed, only reused, so the handler can always walk them.
// Paths longer than the slot's buffers are kept out of it (the handler then cannot remove
// that file; normal clean-up still can).
Slot* claim(const std::string& temp, const std::string& final, int dir = AT_FDCWD, const std::string& backup = "");
void set_temp(Slot* s, const std::string& temp);  // while kClaimed only
void set_fd(Slot* s, int fd);                     // the temporary's descriptor, for kLinking
// Ties the slot to its output set's `kept` flag: once the flag is set, the handler leaves
// the slot's files alone. A commit sets it when all its files are in place, in one store,
// so a signal then keeps them all; releasing the slots one by one would leave a window
// in which it kept some and removed others. `kept` must outlive the slot's claim.
void set_kept_flag(Slot* s, const std::atomic<int>* kept);
void set_state(Slot* s, SlotState state);
// Whether the backup link stands: the handler then takes the final file back by renaming
// the backup over it, and does nothing when the backup is gone (the commit has renamed it
// back itself); without one it unlinks the final file. Set before kRenaming.
void set_backed_up(Slot* s, bool backed_up);
void release(Slot* s);  // back to kFree

}  // namespace cleanup
}  // namespace onnxrun
