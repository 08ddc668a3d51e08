#include "core/thread_placement.h"

#include <sched.h>

#include <vector>

namespace onnxrun {

int current_cpu() { return sched_getcpu(); }

void start_away_from(int creator_cpu, unsigned k) {
  cpu_set_t allowed;
  if (creator_cpu < 0 || k == 0 || sched_getaffinity(0, sizeof allowed, &allowed) != 0) return;
  std::vector<int> others;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &allowed) && c != creator_cpu) others.push_back(c);
  if (others.empty()) return;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(others[(k - 1) % others.size()], &one);
  // Setting the one CPU migrates the thread now; restoring the set leaves it there.
  if (sched_setaffinity(0, sizeof one, &one) == 0) sched_setaffinity(0, sizeof allowed, &allowed);
}

}  // namespace onnxrun
