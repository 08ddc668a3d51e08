#include "suite/runner.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "core/error.h"
#include "core/fail.h"
#include "suite/json_documents.h"
#include "suite/json_values.h"

namespace onnxrun {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::vector<TestResult> run_in_threads(const std::vector<TestCase>& tests, const RunnerOptions& o,
                                       const ResultCallback& on_done) {
  std::vector<TestResult> results(tests.size());
  std::atomic<size_t> next{0};
  std::mutex mu;
  auto work = [&] {
    for (size_t i; (i = next++) < tests.size();) {
      TestResult r = run_case(tests[i], o.case_options);
      std::lock_guard<std::mutex> lock(mu);
      results[i] = std::move(r);
      if (on_done) on_done(i, results[i]);
    }
  };
  const size_t n = std::min<size_t>(std::max(o.jobs, 1), tests.size());
  if (n <= 1) {
    work();
    return results;
  }
  std::vector<std::thread> threads;
  for (size_t k = 0; k < n; ++k) threads.emplace_back(work);
  for (std::thread& t : threads) t.join();
  return results;
}

// A worker child: it reads test indices (8 bytes each) from `cmd`, runs each test and
// answers with a frame (4-byte length, then the result as JSON) on `res`. Workers are
// reused from test to test because creating a process costs far more than most tests
// (tens of ms on a loaded machine); one that crashes or times out is replaced.
struct Worker {
  pid_t pid = -1;
  int cmd = -1;  // parent writes indices
  int res = -1;  // parent reads results
  bool busy = false;
  size_t index = 0;
  std::string data;
  Clock::time_point start;
};

void write_all(int fd, const void* p, size_t size) {
  const char* s = static_cast<const char*>(p);
  size_t done = 0;
  while (done < size) {
    const ssize_t n = ::write(fd, s + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

bool read_all(int fd, void* p, size_t size) {
  char* s = static_cast<char*>(p);
  size_t done = 0;
  while (done < size) {
    const ssize_t n = ::read(fd, s + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

// A worker's result as it crosses the pipe: the report's entry, and the model's output
// names and usage error, which reports leave out but the parent needs (result_of_frame
// reads them back).
nlohmann::ordered_json frame_of(const TestResult& r) {
  nlohmann::ordered_json j = result_to_json(r);
  if (!r.outputs.empty()) j["outputs"] = r.outputs;
  if (r.usage_error) j["usage_error"] = true;
  return j;
}

TestResult result_of_frame(const nlohmann::json& j) {
  TestResult r = result_from_json(j);
  if (j.contains("outputs")) r.outputs = j["outputs"].get<std::vector<std::string>>();
  r.usage_error = j.value("usage_error", false);
  return r;
}

[[noreturn]] void worker_main(int cmd, int res, const std::vector<TestCase>& tests, const RunnerOptions& o) {
  // A deliberate or real crash should not leave core files behind.
  const rlimit no_core{0, 0};
  ::setrlimit(RLIMIT_CORE, &no_core);
  // The parent may handle fatal signals (a test framework does); the child must die of
  // them so that the parent sees the signal.
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGPIPE}) std::signal(sig, SIG_DFL);
  // Ctrl-C reaches the whole process group: the parent alone cleans up and says so.
  for (int sig : {SIGINT, SIGTERM}) std::signal(sig, SIG_DFL);
  uint64_t index;
  while (read_all(cmd, &index, sizeof index) && index < tests.size()) {
    const std::string json = json_text(frame_of(run_case(tests[index], o.case_options)), -1);
    const uint32_t size = static_cast<uint32_t>(json.size());
    write_all(res, &size, sizeof size);
    write_all(res, json.data(), json.size());
  }
  ::_exit(0);  // no atexit handlers or static destructors: they belong to the parent
}

Worker start_worker(const std::vector<TestCase>& tests, const RunnerOptions& o, const std::vector<Worker>& others) {
  int cmd[2], res[2];
  if (::pipe2(cmd, O_CLOEXEC) != 0) fail(ErrorKind::kIo, "cannot create a pipe: {}", std::strerror(errno));
  if (::pipe2(res, O_CLOEXEC) != 0) {
    ::close(cmd[0]);
    ::close(cmd[1]);
    fail(ErrorKind::kIo, "cannot create a pipe: {}", std::strerror(errno));
  }
  // Whatever is buffered would otherwise be written again by the child.
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = ::fork();
  if (pid < 0) {
    for (int fd : {cmd[0], cmd[1], res[0], res[1]}) ::close(fd);
    fail(ErrorKind::kIo, "cannot start a child process: {}", std::strerror(errno));
  }
  if (pid == 0) {
    // Other workers' pipe ends would keep them from seeing their end of input.
    for (const Worker& w : others) {
      ::close(w.cmd);
      ::close(w.res);
    }
    ::close(cmd[1]);
    ::close(res[0]);
    worker_main(cmd[0], res[1], tests, o);
  }
  ::close(cmd[0]);
  ::close(res[1]);
  Worker w;
  w.pid = pid;
  w.cmd = cmd[1];
  w.res = res[0];
  return w;
}

std::string signal_text(int sig) {
  const char* abbrev = ::sigabbrev_np(sig);
  const char* d = ::strsignal(sig);
  return fmt::format("{} ({})", abbrev ? std::string("SIG") + abbrev : fmt::format("signal {}", sig),
                     d ? d : "unknown");
}

// Closes the worker's pipes and reaps it (after killing it when `kill_it`).
int stop_worker(Worker& w, bool kill_it) {
  if (kill_it) ::kill(w.pid, SIGKILL);
  ::close(w.cmd);
  ::close(w.res);
  int status = 0;
  while (::waitpid(w.pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

TestResult unfinished(const TestCase& t, const Worker& w, Outcome outcome, std::string message) {
  TestResult r;
  r.name = t.name;
  r.model = reported_model(t);
  r.outcome = outcome;
  r.seconds = seconds_since(w.start);
  r.message = std::move(message);
  return r;
}

// The worker's pipe closed while it ran a test: it died.
TestResult crashed(const TestCase& t, Worker& w) {
  const int status = stop_worker(w, false);
  if (WIFSIGNALED(status)) {
    TestResult r = unfinished(t, w, Outcome::kCrashed,
                              fmt::format("the test process was killed by {}", signal_text(WTERMSIG(status))));
    r.signal = WTERMSIG(status);
    return r;
  }
  return unfinished(t, w, Outcome::kCrashed,
                    fmt::format("the test process exited with status {} before reporting a result",
                                WIFEXITED(status) ? WEXITSTATUS(status) : -1));
}

// A whole frame in w.data: the result it holds (or an error result if unreadable).
std::optional<TestResult> take_frame(const TestCase& t, Worker& w) {
  uint32_t size;
  if (w.data.size() < sizeof size) return std::nullopt;
  std::memcpy(&size, w.data.data(), sizeof size);
  if (w.data.size() < sizeof size + size) return std::nullopt;
  const std::string json = w.data.substr(sizeof size, size);
  w.data.erase(0, sizeof size + size);
  try {
    return result_of_frame(nlohmann::json::parse(json));
  } catch (const std::exception& e) {
    return unfinished(t, w, Outcome::kError, fmt::format("the test process sent no readable result ({})", e.what()));
  }
}

std::vector<TestResult> run_isolated(const std::vector<TestCase>& tests, const RunnerOptions& o,
                                     const ResultCallback& on_done) {
  std::vector<TestResult> results(tests.size());
  std::vector<Worker> workers;
  const size_t jobs = std::min(static_cast<size_t>(std::max(o.jobs, 1)), tests.size());
  // A worker that died between tests must not take the parent with it.
  struct sigaction ignore {
  }, old_pipe{};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGPIPE, &ignore, &old_pipe);
  size_t next = 0, finished = 0;
  auto done = [&](size_t i, TestResult r) {
    results[i] = std::move(r);
    ++finished;
    if (on_done) on_done(i, results[i]);
  };
  try {
    while (finished < tests.size()) {
      while (workers.size() < jobs && next < tests.size()) workers.push_back(start_worker(tests, o, workers));
      for (Worker& w : workers)
        if (!w.busy && next < tests.size()) {
          const uint64_t index = next++;
          write_all(w.cmd, &index, sizeof index);
          w.busy = true;
          w.index = index;
          w.start = Clock::now();
        }
      int wait_ms = -1;
      if (o.timeout > 0) {
        double soonest = o.timeout;
        for (const Worker& w : workers)
          if (w.busy) soonest = std::min(soonest, o.timeout - seconds_since(w.start));
        // At most a day a poll (the loop polls again): a --timeout of 1e10 s in int
        // milliseconds was undefined behaviour, and in practice a wait without end.
        wait_ms = static_cast<int>(std::clamp(soonest, 0.0, 86400.0) * 1000) + 1;
      }
      std::vector<pollfd> pfds;
      for (const Worker& w : workers) pfds.push_back({w.res, POLLIN, 0});
      if (::poll(pfds.data(), pfds.size(), wait_ms) < 0 && errno != EINTR)
        fail(ErrorKind::kIo, "poll failed: {}", std::strerror(errno));
      for (size_t k = workers.size(); k-- > 0;) {
        Worker& w = workers[k];
        bool gone = false;
        if (pfds[k].revents & (POLLIN | POLLHUP | POLLERR)) {
          char buf[65536];
          const ssize_t n = ::read(w.res, buf, sizeof buf);
          if (n > 0) {
            w.data.append(buf, static_cast<size_t>(n));
            if (w.busy)
              if (auto r = take_frame(tests[w.index], w)) {
                w.busy = false;
                done(w.index, std::move(*r));
              }
          } else if (n == 0 || errno != EINTR) {
            if (w.busy) done(w.index, crashed(tests[w.index], w));
            else stop_worker(w, false);
            gone = true;
          }
        }
        if (!gone && w.busy && o.timeout > 0 && seconds_since(w.start) >= o.timeout) {
          stop_worker(w, true);
          done(w.index, unfinished(tests[w.index], w, Outcome::kTimeout,
                                   fmt::format("still running after {:g} s; killed", o.timeout)));
          gone = true;
        }
        if (gone) workers.erase(workers.begin() + static_cast<std::ptrdiff_t>(k));
      }
    }
  } catch (...) {
    for (Worker& w : workers) stop_worker(w, true);
    ::sigaction(SIGPIPE, &old_pipe, nullptr);
    throw;
  }
  for (Worker& w : workers) stop_worker(w, false);  // closing `cmd` ends each worker's loop
  ::sigaction(SIGPIPE, &old_pipe, nullptr);
  return results;
}

}  // namespace

std::vector<TestResult> run_tests(const std::vector<TestCase>& tests, const RunnerOptions& o,
                                  const ResultCallback& on_done) {
  if (o.isolate || o.timeout > 0) return run_isolated(tests, o, on_done);
  return run_in_threads(tests, o, on_done);
}

}  // namespace onnxrun
