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
#include <thread>

#include <fmt/format.h>

#include "core/error.h"
#include "suite/result_json.h"

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

struct Child {
  pid_t pid = -1;
  int fd = -1;
  size_t index = 0;
  std::string data;
  Clock::time_point start;
};

void write_all(int fd, const std::string& s) {
  size_t done = 0;
  while (done < s.size()) {
    const ssize_t n = ::write(fd, s.data() + done, s.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

Child spawn(const std::vector<TestCase>& tests, size_t index, const RunnerOptions& o) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) fail(ErrorKind::kIo, "cannot create a pipe: {}", std::strerror(errno));
  // Whatever is buffered would otherwise be written again by the child.
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    fail(ErrorKind::kIo, "cannot start a child process: {}", std::strerror(errno));
  }
  if (pid == 0) {
    ::close(fds[0]);
    // A deliberate or real crash should not leave core files behind.
    const rlimit no_core{0, 0};
    ::setrlimit(RLIMIT_CORE, &no_core);
    // The parent may handle fatal signals (a test framework does); the child must die of
    // them so that the parent sees the signal.
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) std::signal(sig, SIG_DFL);
    const TestResult r = run_case(tests[index], o.case_options);
    write_all(fds[1], result_to_json(r).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    ::_exit(0);  // no atexit handlers or static destructors: they belong to the parent
  }
  ::close(fds[1]);
  Child c;
  c.pid = pid;
  c.fd = fds[0];
  c.index = index;
  c.start = Clock::now();
  return c;
}

std::string signal_text(int sig) {
  const char* d = ::strsignal(sig);
  const char* abbrev = ::sigabbrev_np(sig);
  return fmt::format("{}{}{} ({})", abbrev ? "SIG" : "", abbrev ? abbrev : "signal ", abbrev ? "" : std::to_string(sig),
                     d ? d : "unknown");
}

// The child has closed its pipe: reap it and make its result.
TestResult finish(Child& c, const TestCase& t) {
  ::close(c.fd);
  int status = 0;
  while (::waitpid(c.pid, &status, 0) < 0 && errno == EINTR) {
  }
  TestResult r;
  r.name = t.name;
  r.model = t.kind == CaseKind::kMissingModel ? t.dir : t.model;
  r.seconds = seconds_since(c.start);
  if (WIFSIGNALED(status)) {
    r.outcome = Outcome::kCrashed;
    r.signal = WTERMSIG(status);
    r.message = fmt::format("the test process was killed by {}", signal_text(r.signal));
    return r;
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    try {
      return result_from_json(nlohmann::json::parse(c.data));
    } catch (const std::exception& e) {
      r.outcome = Outcome::kError;
      r.message = fmt::format("the test process sent no readable result ({})", e.what());
      return r;
    }
  }
  r.outcome = Outcome::kCrashed;
  r.message = fmt::format("the test process exited with status {} before reporting a result",
                          WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  return r;
}

TestResult kill_for_timeout(Child& c, const TestCase& t, double timeout) {
  ::kill(c.pid, SIGKILL);
  ::close(c.fd);
  while (::waitpid(c.pid, nullptr, 0) < 0 && errno == EINTR) {
  }
  TestResult r;
  r.name = t.name;
  r.model = t.kind == CaseKind::kMissingModel ? t.dir : t.model;
  r.outcome = Outcome::kTimeout;
  r.seconds = seconds_since(c.start);
  r.message = fmt::format("still running after {:g} s; killed", timeout);
  return r;
}

std::vector<TestResult> run_isolated(const std::vector<TestCase>& tests, const RunnerOptions& o,
                                     const ResultCallback& on_done) {
  std::vector<TestResult> results(tests.size());
  std::vector<Child> active;
  size_t next = 0;
  const size_t jobs = static_cast<size_t>(std::max(o.jobs, 1));
  auto done = [&](size_t i, TestResult r) {
    results[i] = std::move(r);
    if (on_done) on_done(i, results[i]);
  };
  while (next < tests.size() || !active.empty()) {
    while (active.size() < jobs && next < tests.size()) {
      active.push_back(spawn(tests, next, o));
      ++next;
    }
    int wait_ms = -1;
    if (o.timeout > 0) {
      double soonest = o.timeout;
      for (const Child& c : active) soonest = std::min(soonest, o.timeout - seconds_since(c.start));
      wait_ms = static_cast<int>(std::max(0.0, soonest) * 1000) + 1;
    }
    std::vector<pollfd> pfds;
    for (const Child& c : active) pfds.push_back({c.fd, POLLIN, 0});
    if (::poll(pfds.data(), pfds.size(), wait_ms) < 0 && errno != EINTR)
      fail(ErrorKind::kIo, "poll failed: {}", std::strerror(errno));
    for (size_t k = active.size(); k-- > 0;) {
      Child& c = active[k];
      bool finished = false;
      if (pfds[k].revents & (POLLIN | POLLHUP | POLLERR)) {
        char buf[65536];
        const ssize_t n = ::read(c.fd, buf, sizeof buf);
        if (n > 0) {
          c.data.append(buf, static_cast<size_t>(n));
        } else if (n == 0 || errno != EINTR) {
          done(c.index, finish(c, tests[c.index]));
          finished = true;
        }
      }
      if (!finished && o.timeout > 0 && seconds_since(c.start) >= o.timeout) {
        done(c.index, kill_for_timeout(c, tests[c.index], o.timeout));
        finished = true;
      }
      if (finished) active.erase(active.begin() + static_cast<std::ptrdiff_t>(k));
    }
  }
  return results;
}

}  // namespace

std::vector<TestResult> run_tests(const std::vector<TestCase>& tests, const RunnerOptions& o,
                                  const ResultCallback& on_done) {
  if (o.isolate || o.timeout > 0) return run_isolated(tests, o, on_done);
  return run_in_threads(tests, o, on_done);
}

}  // namespace onnxrun
