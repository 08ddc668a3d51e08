// start_away_from: a placement, not a pin. The worker leaves with the allowed set it came
// with, whatever CPU it was moved to, and does nothing when there is nowhere to go.
#include <catch2/catch.hpp>

#include <sched.h>

#include <thread>

#include "core/thread_placement.h"

using namespace onnxrun;

namespace {

cpu_set_t allowed_now() {
  cpu_set_t set;
  CPU_ZERO(&set);
  REQUIRE(sched_getaffinity(0, sizeof set, &set) == 0);
  return set;
}

// Runs start_away_from(creator, k) on a fresh thread with `mask` as its allowed set, and
// returns the set that thread is left with.
cpu_set_t allowed_after(const cpu_set_t& mask, int creator, unsigned k) {
  cpu_set_t after;
  CPU_ZERO(&after);
  std::thread t([&] {
    if (sched_setaffinity(0, sizeof mask, &mask) != 0) return;
    start_away_from(creator, k);
    sched_getaffinity(0, sizeof after, &after);
  });
  t.join();
  return after;
}

}  // namespace

TEST_CASE("a placed worker keeps the allowed set it started with", "[thread_placement]") {
  const cpu_set_t all = allowed_now();
  const int here = current_cpu();
  REQUIRE(here >= 0);
  for (unsigned k : {1u, 2u, 5u}) {
    INFO("worker " << k);
    cpu_set_t after = allowed_after(all, here, k);
    CHECK(CPU_EQUAL(&after, &all));
  }
}

TEST_CASE("placement does nothing with one allowed CPU or an unknown creator", "[thread_placement]") {
  const int here = current_cpu();
  REQUIRE(here >= 0);
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(here, &one);
  cpu_set_t after = allowed_after(one, here, 1);
  CHECK(CPU_EQUAL(&after, &one));
  const cpu_set_t all = allowed_now();
  after = allowed_after(all, -1, 1);
  CHECK(CPU_EQUAL(&after, &all));
}
