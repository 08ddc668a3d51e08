#include "io/cleanup_signals.h"

#include <atomic>
#include <csignal>
#include <cstring>

#include <sys/stat.h>
#include <unistd.h>

namespace onnxrun {
namespace cleanup {

// A path longer than this (PATH_MAX) is not kept; open() refuses most of those anyway.
constexpr size_t kPathBytes = 4096;

struct Slot {
  std::atomic<int> state{static_cast<int>(SlotState::kClaimed)};
  Slot* next = nullptr;                                // set once, before the slot is published
  int dir = AT_FDCWD;                                  // what temp and final are relative to
  std::atomic<int> fd{-1};                             // set_fd
  std::atomic<const std::atomic<int>*> kept{nullptr};  // set_kept_flag
  std::atomic<int> backed_up{0};                       // set_backed_up
  char temp[kPathBytes] = {};
  char final[kPathBytes] = {};
  char backup[kPathBytes] = {};
};

namespace {

std::atomic<Slot*> g_head{nullptr};

void copy_path(char (&dst)[kPathBytes], const std::string& src) {
  if (src.size() >= kPathBytes) {
    dst[0] = 0;
    return;
  }
  std::memcpy(dst, src.c_str(), src.size() + 1);
}

}  // namespace

Slot* claim(const std::string& temp, const std::string& final, int dir, const std::string& backup) {
  Slot* s = nullptr;
  for (Slot* p = g_head.load(std::memory_order_acquire); p; p = p->next) {
    int expected = static_cast<int>(SlotState::kFree);
    if (p->state.compare_exchange_strong(expected, static_cast<int>(SlotState::kClaimed))) {
      s = p;
      break;
    }
  }
  if (!s) {
    s = new Slot;  // claimed from birth; published below, never deleted
    Slot* head = g_head.load(std::memory_order_relaxed);
    do s->next = head;
    while (!g_head.compare_exchange_weak(head, s, std::memory_order_release, std::memory_order_relaxed));
  }
  s->dir = dir;
  s->kept.store(nullptr);
  s->backed_up.store(0);
  s->fd.store(-1);
  copy_path(s->temp, temp);
  copy_path(s->final, final);
  copy_path(s->backup, backup);
  return s;
}

void set_temp(Slot* s, const std::string& temp) { copy_path(s->temp, temp); }

void set_fd(Slot* s, int fd) { s->fd.store(fd); }

void set_kept_flag(Slot* s, const std::atomic<int>* kept) { s->kept.store(kept); }

void set_backed_up(Slot* s, bool backed_up) { s->backed_up.store(backed_up ? 1 : 0); }

void set_state(Slot* s, SlotState state) { s->state.store(static_cast<int>(state), std::memory_order_seq_cst); }

void release(Slot* s) {
  // Free first, then forget the flag: the handler reads a slot's flag only while the slot
  // is in use, and the flag may die with its output set as soon as the slot is released.
  set_state(s, SlotState::kFree);
  s->kept.store(nullptr);
}

namespace {

// The final file a commit put in place taken back: the file it replaced renamed back over
// it from the backup, or, where none stood (or no backup could be made), unlinked. A
// backup that was made but is gone was renamed back by the commit's own undo: the final
// name holds the user's file again, and stays.
void take_back(const Slot* p) {
  if (p->backed_up.load()) {
    if (p->backup[0]) ::renameat(p->dir, p->backup, p->dir, p->final);
    return;
  }
  ::unlinkat(p->dir, p->final, 0);
}

// Whether `temp` is the name of the slot's open file (fstat and fstatat are
// async-signal-safe): the name a kLinking slot tried may be another's file.
bool names_own_file(const Slot* p) {
  struct stat named {
  }, own{};
  const int fd = p->fd.load();
  return p->temp[0] && fd >= 0 && ::fstat(fd, &own) == 0 &&
         ::fstatat(p->dir, p->temp, &named, AT_SYMLINK_NOFOLLOW) == 0 && named.st_dev == own.st_dev &&
         named.st_ino == own.st_ino;
}

// Async-signal-safe: atomics (lock-free on every target we build for), unlinkat, renameat, rmdir, fstat.
// Files first, then folders: the newest slots come first, so a folder made inside
// another one the run made goes before its parent.
//
// A slot's kept flag is read only after its state says it is in use: a free slot's flag
// may belong to an output set that is gone (a signal during exit found one, and reading
// it was a use after free).
bool kept(const Slot* p) {
  const std::atomic<int>* flag = p->kept.load();
  return flag && flag->load() != 0;
}

void remove_registered_files() {
  for (Slot* p = g_head.load(std::memory_order_acquire); p; p = p->next) {
    const auto state = static_cast<SlotState>(p->state.load());
    if (state == SlotState::kFree || state == SlotState::kClaimed) continue;
    if (kept(p)) {
      // The commit is done but was still removing the replaced files' links.
      if (state == SlotState::kRenamed && p->backed_up.load() && p->backup[0]) ::unlinkat(p->dir, p->backup, 0);
      continue;
    }
    switch (state) {
      case SlotState::kTemp:
        if (p->temp[0]) ::unlinkat(p->dir, p->temp, 0);
        if (p->backup[0]) ::unlinkat(p->dir, p->backup, 0);
        break;
      case SlotState::kRenaming:
        // The temporary still there: the rename has not happened, the final name is not ours.
        if (p->temp[0] && ::unlinkat(p->dir, p->temp, 0) == 0) {
          if (p->backup[0]) ::unlinkat(p->dir, p->backup, 0);
        } else if (p->final[0]) {
          take_back(p);
        }
        break;
      case SlotState::kRenamed:
        if (p->final[0]) take_back(p);
        break;
      case SlotState::kLinking:
        if (names_own_file(p)) ::unlinkat(p->dir, p->temp, 0);
        break;
      default: break;
    }
  }
  for (Slot* p = g_head.load(std::memory_order_acquire); p; p = p->next)
    if (static_cast<SlotState>(p->state.load()) == SlotState::kDir && p->final[0] && !kept(p)) ::rmdir(p->final);
}

}  // namespace
}  // namespace cleanup

namespace {

static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs lock-free atomics");
static_assert(std::atomic<const std::atomic<int>*>::is_always_lock_free, "the signal handler needs lock-free atomics");

extern "C" void on_cleanup_signal(int sig) {
  cleanup::remove_registered_files();
  static const char kInt[] = "onnx-run: interrupted (SIGINT)\n";
  static const char kTerm[] = "onnx-run: interrupted (SIGTERM)\n";
  const char* msg = sig == SIGINT ? kInt : kTerm;
  const size_t n = sig == SIGINT ? sizeof kInt - 1 : sizeof kTerm - 1;
  ssize_t ignored = ::write(STDERR_FILENO, msg, n);
  (void)ignored;
  ::_exit(128 + sig);
}

}  // namespace

void install_cleanup_signal_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_cleanup_signal;
  sigemptyset(&sa.sa_mask);
  // One clean-up at a time: the other signal waits while the handler runs.
  sigaddset(&sa.sa_mask, SIGINT);
  sigaddset(&sa.sa_mask, SIGTERM);
  sa.sa_flags = 0;
  for (int sig : {SIGINT, SIGTERM}) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN && sig == SIGINT) continue;
    ::sigaction(sig, &sa, nullptr);
  }
}

}  // namespace onnxrun
