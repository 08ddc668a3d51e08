// Waiting for another thread without sleeping, for a while. A thread that sleeps on a
// condition variable costs its waker a futex call and an interrupt to an idle core (more
// under a hypervisor), which for a job of a few microseconds costs more than the job; a
// thread that spins a little first is found awake. ThreadPool's workers and the block
// lanes waiting for their turn (exec/block_run.cc) spin so.
#pragma once

#include <chrono>

namespace onnxrun {

// How long to spin before sleeping: longer than the gap between two blocks of a streamed
// run (a 1 MiB read and its kernels), short enough that an idle thread gives its core back
// at once to a person's eye (docs/perf.md, "Threads").
inline constexpr auto kSpinWait = std::chrono::microseconds(500);

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// Spins until ready() or kSpinWait has passed; ready()'s last answer.
template <class Ready>
bool spin_until(const Ready& ready) {
  const auto until = std::chrono::steady_clock::now() + kSpinWait;
  for (;;) {
    for (int k = 0; k < 64; ++k) {
      if (ready()) return true;
      cpu_relax();
    }
    if (std::chrono::steady_clock::now() >= until) return ready();
  }
}

}  // namespace onnxrun
