#include "core/thread_pool.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>

#include "core/spin_wait.h"
#include "core/thread_placement.h"

namespace onnxrun {
namespace {

// The pool whose task this thread is running, if any (see ThreadPool::in_job).
thread_local const ThreadPool* t_job_of = nullptr;

}  // namespace

bool ThreadPool::in_job() const { return t_job_of == this; }

ThreadPool::ThreadPool(unsigned threads) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  size_ = threads;
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();  // a spinning worker sees stop_ itself
  for (std::thread& t : workers_) t.join();
}

void ThreadPool::start_workers() {
  const int here = current_cpu();
  for (unsigned k = 1; k < size_; ++k)
    workers_.emplace_back([this, here, k] {
      start_away_from(here, k);
      worker_loop();
    });
}

// Takes tasks of the current job until none is left. Called with mu_ unlocked.
void ThreadPool::work_on_current_job() {
  std::unique_lock<std::mutex> lock(mu_);
  while (fn_ && next_ < tasks_) {
    const size_t k = next_++;
    const std::function<void(size_t)>* fn = fn_;
    lock.unlock();
    std::exception_ptr err;
    const ThreadPool* outer = t_job_of;
    t_job_of = this;
    try {
      (*fn)(k);
    } catch (...) {
      err = std::current_exception();
    }
    t_job_of = outer;
    lock.lock();
    if (err && !error_) error_ = err;
    if (unfinished_.fetch_sub(1, std::memory_order_acq_rel) == 1 && caller_sleeping_) done_.notify_all();
  }
}

void ThreadPool::worker_loop() {
  size_t seen = 0;
  auto ready = [&] {
    return stop_.load(std::memory_order_acquire) || generation_.load(std::memory_order_acquire) != seen;
  };
  for (;;) {
    if (!spin_until(ready)) {
      std::unique_lock<std::mutex> lock(mu_);
      ++sleeping_workers_;
      wake_.wait(lock, ready);
      --sleeping_workers_;
    }
    if (stop_) return;
    seen = generation_;
    work_on_current_job();
  }
}

void ThreadPool::run(size_t tasks, const std::function<void(size_t)>& fn) {
  if (tasks == 0) return;
  if (tasks == 1 || size_ == 1 || in_job()) {
    for (size_t k = 0; k < tasks; ++k) fn(k);
    return;
  }
  if (workers_.empty()) start_workers();
  bool wake = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    fn_ = &fn;
    tasks_ = tasks;
    next_ = 0;
    unfinished_ = tasks;
    error_ = nullptr;
    ++generation_;
    wake = sleeping_workers_ > 0;  // the others are spinning and see generation_ move
  }
  if (wake) wake_.notify_all();
  work_on_current_job();
  auto done = [&] { return unfinished_.load(std::memory_order_acquire) == 0; };
  spin_until(done);
  std::exception_ptr err;
  {
    std::unique_lock<std::mutex> lock(mu_);
    caller_sleeping_ = true;
    done_.wait(lock, done);
    caller_sleeping_ = false;
    fn_ = nullptr;
    err = error_;
    error_ = nullptr;
  }
  if (err) std::rethrow_exception(err);
}

size_t ThreadPool::min_piece_bytes() {
  std::call_once(calibrated_, [this] {
    using Clock = std::chrono::steady_clock;
    constexpr int64_t kFloor = int64_t{64} << 10, kCeiling = int64_t{8} << 20;
    if (size_ <= 1) {
      min_piece_bytes_ = kCeiling;
      return;
    }
    // The least of a few tries: a try the OS interrupts measures the OS, not the pool.
    auto least = [](int tries, const std::function<void()>& f) {
      auto best = Clock::duration::max();
      for (int k = 0; k < tries; ++k) {
        const auto t0 = Clock::now();
        f();
        best = std::min(best, Clock::now() - t0);
      }
      return std::chrono::duration_cast<std::chrono::nanoseconds>(best).count();
    };
    // A job whose every task waits for all the others: it ends only once every worker has
    // joined (an empty one the caller would finish alone, measuring nothing).
    const int64_t handoff_ns = least(5, [this] {
      std::atomic<unsigned> joined{0};
      run(size_, [&](size_t) {
        joined.fetch_add(1);
        while (joined.load() < size_) std::this_thread::yield();
      });
    });
    constexpr size_t kProbe = size_t{256} << 10;
    std::vector<char> from(kProbe, 1), to(kProbe);
    const int64_t copy_ns = least(3, [&] {
      std::memcpy(to.data(), from.data(), kProbe);
      asm volatile("" : : "r"(to.data()) : "memory");  // the copy is the point: keep it
    });
    const double bytes_per_ns = static_cast<double>(kProbe) / static_cast<double>(std::max<int64_t>(copy_ns, 1));
    const auto bytes = static_cast<int64_t>(2.0 * static_cast<double>(handoff_ns) * bytes_per_ns);
    min_piece_bytes_ = static_cast<size_t>(std::clamp(bytes, kFloor, kCeiling));
  });
  return min_piece_bytes_;
}

size_t worthwhile_piece(ThreadPool* pool, size_t n, size_t item_bytes) {
  constexpr size_t kNeverSplit = size_t{128} << 10;  // two of the smallest pieces
  item_bytes = std::max<size_t>(item_bytes, 1);
  if (!pool || pool->size() <= 1 || pool->in_job() || n * item_bytes < kNeverSplit) return std::max<size_t>(n, 1);
  return std::max<size_t>(pool->min_piece_bytes() / item_bytes, 1);
}

void parallel_for(ThreadPool* pool, size_t n, size_t min_piece, size_t align,
                  const std::function<void(size_t, size_t)>& fn) {
  min_piece = std::max<size_t>(min_piece, 1);
  align = std::max<size_t>(align, 1);
  const size_t pieces = pool && pool->size() > 1 && !pool->in_job()
                            ? std::min<size_t>(pool->size() * kPiecesPerThread, n / min_piece)
                            : 1;
  if (pieces <= 1) {
    if (n) fn(0, n);
    return;
  }
  // Equal pieces, each boundary rounded down to a multiple of `align`.
  auto bound = [&](size_t k) { return k == pieces ? n : (n / pieces * k) / align * align; };
  pool->run(pieces, [&](size_t k) {
    const size_t b = bound(k), e = bound(k + 1);
    if (e > b) fn(b, e);
  });
}

}  // namespace onnxrun
