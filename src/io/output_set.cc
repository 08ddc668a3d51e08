#include "io/output_set.h"

#include <csignal>
#include <cstdlib>

#include <unistd.h>

#include "core/error.h"
#include "core/fail.h"
#include "io/cleanup_signals.h"
#include "io/owned_temp.h"

namespace onnxrun {

namespace {

// A test hook, no user interface: ONNXRUN_TEST_COMMIT_SIGNAL=N raises SIGTERM at the
// commit's Nth step (each file put in place, the set kept, each replaced file's link
// removed, each file taken back by a failed commit), so that tests can drive a signal
// into every gap between them (tests/unit/io/commit_signal_test.cc).
class CommitSteps {
 public:
  CommitSteps() {
    const char* at = std::getenv("ONNXRUN_TEST_COMMIT_SIGNAL");
    signal_at_ = at ? std::atoi(at) : 0;
  }
  void step() {
    if (++done_ == signal_at_) std::raise(SIGTERM);
  }

 private:
  int signal_at_ = 0, done_ = 0;
};

}  // namespace

OutputSet::OutputSet() = default;

OutputSet::~OutputSet() {
  std::lock_guard<std::mutex> lock(mu_);
  entries_.clear();  // each temporary removed
  remove_made_folders();
}

std::shared_ptr<const OutputFolder> OutputSet::folder(const std::string& dir) {
  std::vector<std::string> made;
  std::shared_ptr<const OutputFolder> f = OutputFolder::make(dir, &made);
  for (const std::string& p : made) add_made_folder(p);
  return f;
}

WriteTarget OutputSet::target(std::shared_ptr<const OutputFolder> folder, std::string name) {
  WriteTarget t(std::move(folder), std::move(name));
  t.set = this;
  return t;
}

WriteTarget OutputSet::target(std::string user_path) {
  WriteTarget t(std::move(user_path));
  t.set = this;
  return t;
}

void OutputSet::add(std::unique_ptr<OwnedTemp> temp) {
  std::lock_guard<std::mutex> lock(mu_);
  if (done_) fail(ErrorKind::kInternal, "{}: written after its output set was committed", temp->path());
  temp->join(&kept_);
  for (std::unique_ptr<OwnedTemp>& e : entries_)
    if (e->path() == temp->path()) {
      e = std::move(temp);  // the earlier temporary goes with its OwnedTemp
      return;
    }
  entries_.push_back(std::move(temp));
}

void OutputSet::add_made_folder(const std::string& dir) {
  cleanup::Slot* slot = cleanup::claim("", dir);
  cleanup::set_kept_flag(slot, &kept_);
  cleanup::set_state(slot, cleanup::SlotState::kDir);
  std::lock_guard<std::mutex> lock(mu_);
  folders_.push_back({dir, slot});
}

void OutputSet::remove_made_folders() noexcept {
  for (auto it = folders_.rbegin(); it != folders_.rend(); ++it) {
    ::rmdir(it->path.c_str());  // fails, as it should, when something else is inside
    cleanup::release(it->slot);
  }
  folders_.clear();
}

std::vector<std::string> OutputSet::pending() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> out;
  for (const auto& e : entries_) out.push_back(e->path());
  return out;
}

std::vector<std::string> OutputSet::commit() {
  std::lock_guard<std::mutex> lock(mu_);
  if (done_) fail(ErrorKind::kInternal, "an output set was committed twice");
  done_ = true;
  CommitSteps steps;
  for (size_t k = 0; k < entries_.size(); ++k) {
    try {
      entries_[k]->put_in_place();
    } catch (const Error&) {
      // Undo: what this commit renamed into place goes, and so do the temporaries left.
      for (size_t j = 0; j < k; ++j) {
        entries_[j]->remove_placed();
        steps.step();
      }
      entries_.clear();
      remove_made_folders();
      throw;
    }
    steps.step();
  }
  // All in place: the run's files are the user's now, all at once for the signal handler.
  kept_.store(1);
  steps.step();
  std::vector<std::string> finals;
  for (auto& e : entries_) {
    e->keep();
    finals.push_back(e->path());
    steps.step();
  }
  entries_.clear();
  for (Folder& f : folders_) cleanup::release(f.slot);
  folders_.clear();
  return finals;
}

}  // namespace onnxrun
