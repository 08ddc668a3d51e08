#include "io/output_transaction.h"

#include <atomic>

#include <unistd.h>

#include "core/error.h"
#include "core/fail.h"
#include "io/cleanup_signals.h"
#include "io/owned_temp.h"

namespace onnxrun {
namespace {
std::atomic<OutputTransaction*> g_current{nullptr};
}  // namespace

OutputTransaction::OutputTransaction() {
  OutputTransaction* expected = nullptr;
  if (!g_current.compare_exchange_strong(expected, this))
    fail(ErrorKind::kInternal, "an output transaction is already open");
}

OutputTransaction::~OutputTransaction() {
  discard();
  OutputTransaction* self = this;
  g_current.compare_exchange_strong(self, nullptr);
}

OutputTransaction* OutputTransaction::current() { return g_current.load(); }

void OutputTransaction::add(std::unique_ptr<OwnedTemp> temp) {
  std::lock_guard<std::mutex> lock(mu_);
  for (std::unique_ptr<OwnedTemp>& e : entries_)
    if (e->path() == temp->path()) {
      e = std::move(temp);  // the earlier temporary goes with its OwnedTemp
      return;
    }
  entries_.push_back(std::move(temp));
}

void OutputTransaction::add_made_folder(const std::string& dir) {
  cleanup::Slot* slot = cleanup::claim("", dir);
  cleanup::set_state(slot, cleanup::SlotState::kDir);
  std::lock_guard<std::mutex> lock(mu_);
  folders_.push_back({dir, slot});
}

void OutputTransaction::remove_made_folders() noexcept {
  for (auto it = folders_.rbegin(); it != folders_.rend(); ++it) {
    ::rmdir(it->path.c_str());  // fails, as it should, when something else is inside
    cleanup::release(it->slot);
  }
  folders_.clear();
}

std::vector<std::string> OutputTransaction::pending() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> out;
  for (const auto& e : entries_) out.push_back(e->path());
  return out;
}

void OutputTransaction::discard() noexcept {
  std::lock_guard<std::mutex> lock(mu_);
  entries_.clear();  // each temporary removed
  remove_made_folders();
}

std::vector<std::string> OutputTransaction::commit() {
  std::vector<std::string> finals;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (done_) fail(ErrorKind::kInternal, "an output transaction was committed twice");
    done_ = true;
    // Writes from here on go straight to their files.
    OutputTransaction* self = this;
    g_current.compare_exchange_strong(self, nullptr);
    for (size_t k = 0; k < entries_.size(); ++k) {
      try {
        entries_[k]->put_in_place();
      } catch (const Error&) {
        // Undo: what this commit renamed into place goes, and so do the temporaries left.
        for (size_t j = 0; j < k; ++j) entries_[j]->remove_placed();
        entries_.clear();
        remove_made_folders();
        throw;
      }
    }
    // All in place: the run's files are the user's now.
    for (auto& e : entries_) {
      e->keep();
      finals.push_back(e->path());
    }
    entries_.clear();
    for (Folder& f : folders_) cleanup::release(f.slot);
    folders_.clear();
  }
  return finals;
}

std::shared_ptr<const OutputFolder> make_output_folder(const std::string& dir) {
  std::vector<std::string> made;
  std::shared_ptr<const OutputFolder> folder = OutputFolder::make(dir, &made);
  if (OutputTransaction* tx = OutputTransaction::current())
    for (const std::string& p : made) tx->add_made_folder(p);
  return folder;
}

}  // namespace onnxrun
