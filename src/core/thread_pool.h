// ThreadPool: a fixed set of worker threads that run the pieces of one job at a time,
// with the calling thread taking part. Workers start on the first job that needs them,
// so a process that never splits work never starts a thread.
//
// parallel_for splits a range only into pieces of at least `min_piece` items; below
// two pieces it runs on the calling thread alone, so a small run never pays for threads.
// run() and parallel_for() may be called from one thread at a time.
//
// Between jobs a worker spins for a while before it sleeps, and the caller spins for the
// last pieces before it sleeps (core/spin_wait.h): a job every block of a streamed run
// found the threads asleep and paid more to wake them than the job took.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace onnxrun {

class ThreadPool {
 public:
  // `threads` counts the caller: 1 means no workers. 0 means one per core.
  explicit ThreadPool(unsigned threads = 0);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  unsigned size() const { return size_; }

  // The smallest piece of memory-bound work, in bytes read and written once (as a copy
  // does), worth handing to another thread of this pool: what a hand-off costs (a job
  // that ends once every thread of the pool has joined it), in the bytes one thread
  // copies meanwhile, twice over. Measured on the first call (five such jobs and three
  // 256 KiB copies: the workers' start and some microseconds), then fixed; within
  // [64 KiB, 8 MiB]. docs/perf.md, "Threads".
  size_t min_piece_bytes();

  // Calls fn(k) for every k in [0, tasks) across the pool and returns when all are done.
  // The first exception a task throws is rethrown here (after every task has ended).
  // Called from a task of this pool's (in_job()), it runs them on the calling thread: a
  // task that splits its own work (a kernel in a block lane, exec/block_run.h) gets no
  // threads that are all busy with the job it belongs to.
  void run(size_t tasks, const std::function<void(size_t)>& fn);
  // Whether the calling thread is running a task of this pool's now. parallel_for and
  // worthwhile_piece then split nothing.
  bool in_job() const;

 private:
  void start_workers();
  void worker_loop();
  void work_on_current_job();

  unsigned size_;
  std::vector<std::thread> workers_;
  std::mutex mu_;
  std::condition_variable wake_;
  std::condition_variable done_;
  // Written under mu_; read without it too, by the spinning threads.
  std::atomic<bool> stop_{false};
  std::atomic<size_t> generation_{0};
  std::atomic<size_t> unfinished_{0};
  unsigned sleeping_workers_ = 0;  // in wake_.wait (guarded by mu_)
  bool caller_sleeping_ = false;   // in done_.wait (guarded by mu_)
  // The current job (guarded by mu_).
  const std::function<void(size_t)>* fn_ = nullptr;
  size_t tasks_ = 0;
  size_t next_ = 0;
  std::exception_ptr error_;
  std::once_flag calibrated_;
  size_t min_piece_bytes_ = 0;
};

// Runs fn(begin, end) over pieces covering [0, n), each of at least `min_piece` items,
// up to kPiecesPerThread per thread of `pool`; with fewer than two pieces (or no pool,
// or a pool of one) the whole range runs on the calling thread. Threads take pieces as
// they come free, so a thread the OS leaves waiting costs little: the others take its
// share. Piece boundaries are multiples of `align` items.
inline constexpr size_t kPiecesPerThread = 8;
void parallel_for(ThreadPool* pool, size_t n, size_t min_piece, size_t align,
                  const std::function<void(size_t, size_t)>& fn);

// The smallest piece, in items of `item_bytes`, worth a thread for a pass over `n` items
// that reads and writes each once: pool->min_piece_bytes(), measured only when the work
// could be split at all (no pool, a pool of one, or under 128 KiB: n, one piece).
size_t worthwhile_piece(ThreadPool* pool, size_t n, size_t item_bytes);

}  // namespace onnxrun
