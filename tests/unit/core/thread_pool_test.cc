// ThreadPool and parallel_for: every item is covered exactly once, pieces respect the
// alignment and the minimum size, errors come back to the caller, and small ranges stay
// on the calling thread.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "core/thread_pool.h"

using namespace onnxrun;

TEST_CASE("parallel_for covers every item once in aligned pieces", "[thread_pool]") {
  ThreadPool pool(3);
  for (size_t n : {0u, 1u, 5u, 63u, 64u, 1000u, 4097u, 100000u}) {
    INFO("n " << n);
    std::vector<std::atomic<int>> hits(n);
    std::mutex mu;
    std::vector<std::pair<size_t, size_t>> pieces;
    parallel_for(&pool, n, 16, 8, [&](size_t b, size_t e) {
      for (size_t i = b; i < e; ++i) hits[i]++;
      std::lock_guard<std::mutex> lock(mu);
      pieces.emplace_back(b, e);
    });
    for (size_t i = 0; i < n; ++i) REQUIRE(hits[i] == 1);
    CHECK(pieces.size() <= 3 * kPiecesPerThread);
    if (n < 32) CHECK(pieces.size() <= 1);
    for (auto [b, e] : pieces)
      if (pieces.size() > 1) CHECK(e - b >= 8);  // at least min_piece (16) less alignment
    for (auto [b, e] : pieces) {
      CHECK(b % 8 == 0);
      CHECK(b < e);
    }
  }
}

TEST_CASE("a pool of one never splits", "[thread_pool]") {
  ThreadPool pool(1);
  int calls = 0;
  parallel_for(&pool, 1 << 20, 1, 1, [&](size_t b, size_t e) {
    ++calls;
    CHECK(e - b == (1u << 20));
  });
  CHECK(calls == 1);
}

TEST_CASE("small ranges run on the calling thread", "[thread_pool]") {
  ThreadPool pool(2);
  const auto me = std::this_thread::get_id();
  bool same = false;
  parallel_for(&pool, 100, 60, 1, [&](size_t, size_t) { same = std::this_thread::get_id() == me; });
  CHECK(same);
  parallel_for(nullptr, 1000, 1, 1, [&](size_t b, size_t e) {
    CHECK(b == 0);
    CHECK(e == 1000);
  });
}

TEST_CASE("a large range uses every thread of the pool", "[thread_pool]") {
  ThreadPool pool(2);
  REQUIRE(pool.size() == 2);
  for (int rep = 0; rep < 20; ++rep) {  // the pool is reused across jobs
    // The first piece waits for the second to start: only another thread can start it.
    std::atomic<int> started{0};
    std::atomic<bool> both{true};
    parallel_for(&pool, 1 << 20, 1024, 64, [&](size_t, size_t) {
      started++;
      const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
      while (started < 2)
        if (std::chrono::steady_clock::now() > until) {
          both = false;
          break;
        } else {
          std::this_thread::yield();
        }
    });
    REQUIRE(both);
  }
}

TEST_CASE("an exception in a task reaches the caller and the pool stays usable", "[thread_pool]") {
  ThreadPool pool(2);
  CHECK_THROWS_AS(pool.run(8,
                           [](size_t k) {
                             if (k == 5) throw std::runtime_error("task 5");
                           }),
                  std::runtime_error);
  std::atomic<int> count{0};
  pool.run(8, [&](size_t) { count++; });
  CHECK(count == 8);
}

TEST_CASE("inside a task of the pool, its work runs on the task's own thread", "[thread_pool]") {
  // A kernel in a block lane splits its work through the pool whose job the lane is: the
  // pool's threads are all busy with that job, so the work stays on the lane's thread.
  ThreadPool pool(2);
  CHECK_FALSE(pool.in_job());
  std::mutex mu;
  std::vector<std::pair<std::thread::id, std::thread::id>> inner;  // (task's thread, inner piece's thread)
  std::atomic<size_t> covered{0};
  pool.run(2, [&](size_t) {
    CHECK(pool.in_job());
    CHECK(worthwhile_piece(&pool, size_t{1} << 24, 4) == size_t{1} << 24);
    parallel_for(&pool, 100000, 1, 1, [&](size_t b, size_t e) {
      covered += e - b;
      std::lock_guard<std::mutex> lock(mu);
      inner.emplace_back(std::this_thread::get_id(), std::this_thread::get_id());
    });
    const std::thread::id task = std::this_thread::get_id();
    pool.run(3, [&](size_t) {
      std::lock_guard<std::mutex> lock(mu);
      inner.emplace_back(task, std::this_thread::get_id());
    });
  });
  CHECK_FALSE(pool.in_job());
  CHECK(covered == 200000);
  CHECK(inner.size() == 2 + 6);  // one piece per parallel_for: nothing split
  for (const auto& [task, piece] : inner) CHECK(task == piece);
  ThreadPool other(2);
  pool.run(2, [&](size_t) { CHECK_FALSE(other.in_job()); });  // only the pool's own job
}

TEST_CASE("a pool of 0 threads has one per core", "[thread_pool]") {
  ThreadPool pool(0);
  CHECK(pool.size() >= 1);
}

TEST_CASE("pieces worth a thread: measured once, within bounds, and small work never splits", "[thread_pool]") {
  ThreadPool one(1);
  CHECK(one.min_piece_bytes() == (size_t{8} << 20));  // nothing to hand off to
  ThreadPool two(2);
  const size_t piece = two.min_piece_bytes();
  CHECK(piece >= (size_t{64} << 10));
  CHECK(piece <= (size_t{8} << 20));
  CHECK(two.min_piece_bytes() == piece);  // measured once, then fixed
  // No pool, a pool of one, or under 128 KiB: the whole range is one piece.
  CHECK(worthwhile_piece(nullptr, 1000000, 4) == 1000000);
  CHECK(worthwhile_piece(&one, 1000000, 4) == 1000000);
  CHECK(worthwhile_piece(&two, 1000, 4) == 1000);
  CHECK(worthwhile_piece(&two, 0, 4) == 1);
  // Otherwise the measured piece, in items.
  CHECK(worthwhile_piece(&two, 1000000, 4) == piece / 4);
  CHECK(worthwhile_piece(&two, 1000000, 2) == piece / 2);
}
