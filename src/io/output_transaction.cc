#include "io/output_transaction.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include <unistd.h>

#include "core/error.h"
#include "core/fail.h"
#include "io/cleanup_signals.h"

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

void OutputTransaction::add(std::string temp, std::string final, cleanup::Slot* slot) {
  std::lock_guard<std::mutex> lock(mu_);
  for (Entry& e : entries_)
    if (e.final == final) {
      ::unlink(e.temp.c_str());
      cleanup::release(e.slot);
      e.temp = std::move(temp);
      e.slot = slot;
      return;
    }
  entries_.push_back({std::move(temp), std::move(final), slot});
}

void OutputTransaction::add_made_folder(const std::string& dir) {
  cleanup::Slot* slot = cleanup::claim("", dir);
  cleanup::set_state(slot, cleanup::SlotState::kDir);
  std::lock_guard<std::mutex> lock(mu_);
  folders_.push_back({"", dir, slot});
}

void OutputTransaction::remove_made_folders() noexcept {
  for (auto it = folders_.rbegin(); it != folders_.rend(); ++it) {
    ::rmdir(it->final.c_str());  // fails, as it should, when something else is inside
    cleanup::release(it->slot);
  }
  folders_.clear();
}

std::vector<std::string> OutputTransaction::pending() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> out;
  for (const Entry& e : entries_) out.push_back(e.final);
  return out;
}

void OutputTransaction::discard() noexcept {
  std::lock_guard<std::mutex> lock(mu_);
  for (Entry& e : entries_) {
    ::unlink(e.temp.c_str());
    cleanup::release(e.slot);
  }
  entries_.clear();
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
      Entry& e = entries_[k];
      cleanup::set_state(e.slot, cleanup::SlotState::kRenaming);
      if (std::rename(e.temp.c_str(), e.final.c_str()) != 0) {
        const int err = errno;
        // Undo: what this commit renamed into place goes, and so do the temporaries left.
        for (size_t j = 0; j < k; ++j) {
          ::unlink(entries_[j].final.c_str());
          cleanup::release(entries_[j].slot);
        }
        for (size_t j = k; j < entries_.size(); ++j) {
          ::unlink(entries_[j].temp.c_str());
          cleanup::release(entries_[j].slot);
        }
        const std::string final = e.final;
        entries_.clear();
        remove_made_folders();
        fail(ErrorKind::kIo, "cannot write {}: {}", final, std::strerror(err));
      }
      cleanup::set_state(e.slot, cleanup::SlotState::kRenamed);
    }
    // All in place: the run's files are the user's now.
    for (Entry& e : entries_) {
      cleanup::release(e.slot);
      finals.push_back(e.final);
    }
    entries_.clear();
    for (Entry& f : folders_) cleanup::release(f.slot);
    folders_.clear();
  }
  return finals;
}

}  // namespace onnxrun
