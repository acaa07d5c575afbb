//===- IsolatedJobs.cpp - Jobs in child processes with limits -------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Tuner/IsolatedJobs.h"
#include "tessel/Tuning/ChildProcess.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <optional>
#include <poll.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace mlir;
using namespace mlir::tessel;

namespace {
using Clock = std::chrono::steady_clock;

/// A child that runs jobs one after another: it reads a job's index from
/// `commandFd` and answers on `resultFd` with the index, the output's size
/// and the output.
struct Worker {
  pid_t pid = -1;
  int commandFd = -1, resultFd = -1;
  std::string errorPath;
  /// The job it runs, if any, since when, and how much of its stderr came
  /// before it.
  std::optional<size_t> job;
  Clock::time_point start;
  uint64_t errorOffset = 0;
  bool killedForTime = false;
  /// What it has answered of its job so far.
  std::string received;
};
} // namespace

/// The address space this process has mapped, in bytes (0 if unknown).
static uint64_t getMappedBytes() {
  std::ifstream statm("/proc/self/statm");
  uint64_t pages = 0;
  if (!(statm >> pages))
    return 0;
  return pages * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

/// Writes all of `data` to `fd`.
static bool writeAll(int fd, llvm::StringRef data) {
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    data = data.drop_front(n);
  }
  return true;
}

/// Reads exactly `size` bytes; false at the end of the input or on error.
static bool readAll(int fd, char *data, size_t size) {
  while (size > 0) {
    ssize_t n = ::read(fd, data, size);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    data += n;
    size -= n;
  }
  return true;
}

/// The worker's side: limits, then jobs until the parent closes the
/// command pipe.
[[noreturn]] static void runWorker(int commandFd, int resultFd,
                                   const std::string &errorPath, pid_t parent,
                                   llvm::function_ref<std::string(size_t)> job,
                                   const JobLimits &limits) {
  prepareChildProcess(parent, errorPath);
  signal(SIGPIPE, SIG_DFL);
  if (limits.memoryMiB > 0) {
    // The limit is on what the jobs add: the worker starts with the
    // tuner's whole address space.
    rlim_t bytes = getMappedBytes() +
                   static_cast<rlim_t>(limits.memoryMiB) * 1024 * 1024;
    struct rlimit limit = {bytes, bytes};
    setrlimit(RLIMIT_AS, &limit);
  }
  uint64_t index;
  while (readAll(commandFd, reinterpret_cast<char *>(&index), sizeof(index))) {
    std::string output = job(index);
    uint64_t header[2] = {index, output.size()};
    if (!writeAll(resultFd,
                  llvm::StringRef(reinterpret_cast<const char *>(header),
                                  sizeof(header))) ||
        !writeAll(resultFd, output))
      _exit(3);
  }
  _exit(0);
}

/// The message of a failed worker's stderr: its first LLVM or MLIR error
/// line, or else its last line.
static std::string getErrorLine(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n', -1, /*KeepEmpty=*/false);
  llvm::StringRef chosen;
  for (llvm::StringRef line : lines) {
    if (line.contains("LLVM ERROR:") || line.contains("error:")) {
      chosen = line;
      break;
    }
  }
  if (chosen.empty() && !lines.empty())
    chosen = lines.back();
  chosen = chosen.trim();
  if (chosen.size() > 300)
    chosen = chosen.take_front(300);
  return chosen.str();
}

/// What `path` holds from byte `offset` on.
static std::string readFileFrom(const std::string &path, uint64_t offset) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer || offset >= (*buffer)->getBufferSize())
    return std::string();
  return (*buffer)->getBuffer().drop_front(offset).str();
}

static uint64_t getFileSize(const std::string &path) {
  uint64_t size = 0;
  if (llvm::sys::fs::file_size(path, size))
    return 0;
  return size;
}

/// Why `worker` ended during its job, given its wait status.
static std::string getFailure(const Worker &worker, int status,
                              const JobLimits &limits) {
  if (worker.killedForTime) {
    char seconds[32];
    snprintf(seconds, sizeof(seconds), "%g", limits.timeoutSeconds);
    return std::string("took longer than ") + seconds + " s (killed)";
  }
  std::string message =
      getErrorLine(readFileFrom(worker.errorPath, worker.errorOffset));
  if (llvm::StringRef(message).contains("out of memory") ||
      llvm::StringRef(message).contains("bad_alloc"))
    return llvm::formatv("ran out of memory (limit {0} MiB)", limits.memoryMiB);
  std::string failure =
      WIFSIGNALED(status)
          ? llvm::formatv("crashed (signal {0}, {1})", WTERMSIG(status),
                          strsignal(WTERMSIG(status)))
                .str()
          : llvm::formatv("exited with status {0}", WEXITSTATUS(status)).str();
  if (!message.empty())
    failure += ": " + message;
  return failure;
}

namespace {
/// The parent's side: starts workers, hands out jobs, collects answers,
/// and replaces a worker that dies or runs out of time.
class JobRunner {
public:
  JobRunner(size_t count, llvm::function_ref<std::string(size_t)> job,
            unsigned parallel, const JobLimits &limits)
      : count(count), job(job), limits(limits), outcomes(count),
        parent(getpid()) {
    workers.resize(std::min<size_t>(std::max(parallel, 1u), count));
  }

  std::vector<JobOutcome> run() {
    // Buffered output would be written again by each child that flushes
    // it.
    llvm::outs().flush();
    llvm::errs().flush();
    fflush(nullptr);
    // A worker that died leaves its command pipe without a reader.
    struct sigaction ignore = {}, previous = {};
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ignore, &previous);
    while (done < count) {
      for (Worker &worker : workers)
        if (!worker.job && next < count)
          dispatch(worker);
      wait();
    }
    for (Worker &worker : workers)
      if (worker.pid >= 0) {
        end(worker);
        forget(worker);
      }
    sigaction(SIGPIPE, &previous, nullptr);
    return std::move(outcomes);
  }

private:
  /// Gives `worker` the next job, starting the worker if needed.
  void dispatch(Worker &worker) {
    size_t index = next++;
    if (worker.pid < 0) {
      if (std::string error = start(worker); !error.empty()) {
        outcomes[index].failure = error;
        ++done;
        return;
      }
    }
    uint64_t message = index;
    worker.job = index;
    worker.start = Clock::now();
    worker.errorOffset = getFileSize(worker.errorPath);
    // A worker that died since its last job is found by wait().
    (void)writeAll(worker.commandFd,
                   llvm::StringRef(reinterpret_cast<const char *>(&message),
                                   sizeof(message)));
  }

  /// Forks a worker; returns why it could not.
  std::string start(Worker &worker) {
    llvm::SmallString<128> path;
    int fd;
    if (llvm::sys::fs::createTemporaryFile("tessel-job", "err", fd, path))
      return "cannot create a temporary file";
    close(fd);
    worker.errorPath = path.str().str();
    int command[2], result[2];
    if (pipe(command) != 0)
      return std::string("cannot create a pipe: ") + strerror(errno);
    if (pipe(result) != 0) {
      close(command[0]);
      close(command[1]);
      return std::string("cannot create a pipe: ") + strerror(errno);
    }
    pid_t pid = fork();
    if (pid < 0) {
      for (int end : {command[0], command[1], result[0], result[1]})
        close(end);
      return std::string("cannot fork: ") + strerror(errno);
    }
    if (pid == 0) {
      close(command[1]);
      close(result[0]);
      // Other workers' pipes stay the parent's.
      for (const Worker &other : workers) {
        if (other.commandFd >= 0)
          close(other.commandFd);
        if (other.resultFd >= 0)
          close(other.resultFd);
      }
      runWorker(command[0], result[1], worker.errorPath, parent, job, limits);
    }
    close(command[0]);
    close(result[1]);
    fcntl(command[1], F_SETFD, FD_CLOEXEC);
    fcntl(result[0], F_SETFD, FD_CLOEXEC);
    worker.pid = pid;
    worker.commandFd = command[1];
    worker.resultFd = result[0];
    return "";
  }

  /// Ends `worker`'s process, killing it if it is at work (the process
  /// group: the ptxas it started too); returns its wait status.
  int end(Worker &worker) {
    close(worker.commandFd);
    close(worker.resultFd);
    if (worker.job) {
      kill(-worker.pid, SIGKILL);
      kill(worker.pid, SIGKILL);
    }
    int status = 0;
    while (waitpid(worker.pid, &status, 0) < 0 && errno == EINTR) {
    }
    return status;
  }

  /// Removes what is left of an ended `worker`; its slot starts a new one.
  void forget(Worker &worker) {
    llvm::sys::fs::remove(worker.errorPath);
    worker = Worker();
  }

  /// The job of `worker` failed (its output ended early, or its time is
  /// up): the worker ends, and the job's outcome says why.
  void fail(Worker &worker) {
    int status = end(worker);
    outcomes[*worker.job].failure = getFailure(worker, status, limits);
    ++done;
    forget(worker);
  }

  /// Seconds `worker`'s job may still run.
  double getSecondsLeft(const Worker &worker) const {
    return limits.timeoutSeconds -
           std::chrono::duration<double>(Clock::now() - worker.start).count();
  }

  /// Reads what the busy workers answer, until one finishes or fails, or
  /// a time limit passes.
  void wait() {
    std::vector<pollfd> fds;
    std::vector<Worker *> polled;
    int timeoutMs = -1;
    for (Worker &worker : workers) {
      if (!worker.job)
        continue;
      fds.push_back({worker.resultFd, POLLIN, 0});
      polled.push_back(&worker);
      if (limits.timeoutSeconds > 0) {
        int ms =
            std::max(0, static_cast<int>(getSecondsLeft(worker) * 1000) + 1);
        timeoutMs = timeoutMs < 0 ? ms : std::min(timeoutMs, ms);
      }
    }
    if (fds.empty())
      return;
    int ready = poll(fds.data(), fds.size(), timeoutMs);
    if (ready < 0 && errno != EINTR)
      ready = 0;
    for (auto [pfd, worker] : llvm::zip(fds, polled)) {
      if (pfd.revents & (POLLIN | POLLHUP | POLLERR))
        receive(*worker);
      if (worker->job && limits.timeoutSeconds > 0 &&
          getSecondsLeft(*worker) < 0) {
        worker->killedForTime = true;
        fail(*worker);
      }
    }
  }

  /// Reads what `worker` has written; records its job's outcome when it
  /// is complete, or its failure at the end of its output.
  void receive(Worker &worker) {
    char buffer[1 << 16];
    ssize_t n = ::read(worker.resultFd, buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR)
      return;
    if (n <= 0) {
      fail(worker);
      return;
    }
    worker.received.append(buffer, n);
    constexpr size_t kHeader = 2 * sizeof(uint64_t);
    if (worker.received.size() < kHeader)
      return;
    uint64_t header[2];
    memcpy(header, worker.received.data(), kHeader);
    if (worker.received.size() < kHeader + header[1])
      return;
    JobOutcome &outcome = outcomes[*worker.job];
    outcome.finished = true;
    outcome.output = worker.received.substr(kHeader, header[1]);
    worker.received.clear();
    worker.job.reset();
    ++done;
  }

  size_t count;
  llvm::function_ref<std::string(size_t)> job;
  JobLimits limits;
  std::vector<JobOutcome> outcomes;
  std::vector<Worker> workers;
  pid_t parent;
  size_t next = 0, done = 0;
};
} // namespace

std::vector<JobOutcome>
mlir::tessel::runIsolatedJobs(size_t count,
                              llvm::function_ref<std::string(size_t)> job,
                              unsigned parallel, const JobLimits &limits) {
  if (count == 0)
    return {};
  return JobRunner(count, job, parallel, limits).run();
}
