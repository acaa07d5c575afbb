//===- CudaMeasurer.cpp - Timing candidates on a real GPU -----------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Measure/CudaMeasurer.h"
#include "tessel/Tuning/ChildProcess.h"
#include "tessel/Tuning/Measure/LaunchPlan.h"
#include "tessel/Tuning/Measure/Reference.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace mlir;
using namespace mlir::tessel;

/// Exit codes of the runner (docs/MeasureProtocol.md).
static constexpr int kExitNoDevice = 3;
static constexpr int kExitContextLost = 4;

using Clock = std::chrono::steady_clock;

/// The time `seconds` from now.
static Clock::time_point after(double seconds) {
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(
                            std::chrono::duration<double>(seconds));
}

std::string mlir::tessel::getDefaultRunnerPath() {
  if (const char *env = std::getenv("TESSEL_CUDA_RUNNER"))
    return env;
  std::string self = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
  llvm::SmallString<256> path(llvm::sys::path::parent_path(self));
  llvm::sys::path::append(path, "tessel-cuda-runner");
  return std::string(path);
}

namespace {

/// One run of the runner: a child process whose stdout is read line by
/// line with a deadline.
class RunnerProcess {
public:
  ~RunnerProcess() { kill(); }

  llvm::Error start(const std::string &path,
                    const std::vector<std::string> &args,
                    const std::string &stderrPath) {
    int fds[2];
    if (pipe(fds) != 0)
      return llvm::createStringError("cannot create a pipe: " +
                                     std::string(strerror(errno)));
    std::vector<char *> argv;
    argv.push_back(const_cast<char *>(path.c_str()));
    for (const std::string &arg : args)
      argv.push_back(const_cast<char *>(arg.c_str()));
    argv.push_back(nullptr);
    pid_t parent = getpid();
    pid = fork();
    if (pid < 0)
      return llvm::createStringError("cannot fork: " +
                                     std::string(strerror(errno)));
    if (pid == 0) {
      // The child. The runner lives and dies with its measurer: the
      // measurer ends it with SIGKILL, and so does the kernel when the
      // thread that started it is gone (a killed tuner or worker), so that
      // a hung kernel cannot hold the GPU after them. Stop requests are the
      // tuner's or worker's (a worker finishes its item, docs/Queue.md).
      prepareChildProcess(parent, stderrPath);
      dup2(fds[1], STDOUT_FILENO);
      close(fds[0]);
      close(fds[1]);
      execv(path.c_str(), argv.data());
      dprintf(STDERR_FILENO, "cannot run %s: %s\n", path.c_str(),
              strerror(errno));
      _exit(127);
    }
    close(fds[1]);
    readFd = fds[0];
    return llvm::Error::success();
  }

  /// The next complete line; std::nullopt on end of output or when
  /// `deadline` passes first (then `timedOut` is set).
  std::optional<std::string>
  readLine(std::chrono::steady_clock::time_point deadline, bool &timedOut) {
    timedOut = false;
    while (true) {
      size_t newline = buffer.find('\n');
      if (newline != std::string::npos) {
        std::string line = buffer.substr(0, newline);
        buffer.erase(0, newline + 1);
        return line;
      }
      if (readFd < 0)
        return std::nullopt;
      auto now = std::chrono::steady_clock::now();
      if (now >= deadline) {
        timedOut = true;
        return std::nullopt;
      }
      int waitMs = static_cast<int>(
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now)
              .count()) + 1;
      pollfd p{readFd, POLLIN, 0};
      int ready = poll(&p, 1, waitMs);
      if (ready < 0 && errno == EINTR)
        continue;
      if (ready <= 0)
        continue;
      char chunk[4096];
      ssize_t n = read(readFd, chunk, sizeof(chunk));
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0) {
        close(readFd);
        readFd = -1;
        continue;
      }
      buffer.append(chunk, n);
    }
  }

  /// Waits for the child; returns its wait status.
  int wait() {
    int status = 0;
    if (pid > 0) {
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      pid = -1;
    }
    if (readFd >= 0) {
      close(readFd);
      readFd = -1;
    }
    return status;
  }

  /// Kills the child's process group and reaps it.
  void kill() {
    if (pid > 0) {
      ::kill(-pid, SIGKILL);
      ::kill(pid, SIGKILL);
    }
    wait();
  }

private:
  pid_t pid = -1;
  int readFd = -1;
  std::string buffer;
};

/// The last line of a file (the runner's stderr), or "".
std::string readLastLine(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return "";
  StringRef text = (*buffer)->getBuffer().rtrim();
  size_t newline = text.rfind('\n');
  return (newline == StringRef::npos ? text : text.drop_front(newline + 1))
      .str();
}

std::string describeExit(int status) {
  if (WIFSIGNALED(status))
    return llvm::formatv("killed by signal {0} ({1})", WTERMSIG(status),
                         strsignal(WTERMSIG(status)));
  if (WIFEXITED(status))
    return llvm::formatv("exited with status {0}", WEXITSTATUS(status));
  return "ended";
}

} // namespace

CudaMeasurer::CudaMeasurer(CudaMeasurerOptions options)
    : options(std::move(options)) {}

CudaMeasurer::~CudaMeasurer() {
  if (ownsWorkDir)
    llvm::sys::fs::remove_directories(workDir);
}

llvm::Expected<std::unique_ptr<CudaMeasurer>>
CudaMeasurer::create(CudaMeasurerOptions options) {
  if (options.runnerPath.empty())
    options.runnerPath = getDefaultRunnerPath();
  if (!llvm::sys::fs::can_execute(options.runnerPath))
    return llvm::createStringError("cannot run the CUDA runner '" +
                                   options.runnerPath + "'");
  std::unique_ptr<CudaMeasurer> measurer(new CudaMeasurer(options));
  if (!measurer->options.workDir.empty()) {
    measurer->workDir = measurer->options.workDir;
    if (std::error_code ec =
            llvm::sys::fs::create_directories(measurer->workDir))
      return llvm::createStringError("cannot create '" + measurer->workDir +
                                     "': " + ec.message());
  } else {
    llvm::SmallString<128> dir;
    if (std::error_code ec =
            llvm::sys::fs::createUniqueDirectory("tessel-cuda", dir))
      return llvm::createStringError("cannot create a work directory: " +
                                     ec.message());
    measurer->workDir = std::string(dir);
    measurer->ownsWorkDir = true;
  }

  // Probe: an empty request makes the runner print its device and exit.
  auto request = measurer->writeRequest({});
  if (!request)
    return request.takeError();
  std::string stderrPath = measurer->workDir + "/probe.stderr";
  RunnerProcess runner;
  std::vector<std::string> args = options.runnerArgs;
  args.push_back(*request);
  if (llvm::Error error = runner.start(options.runnerPath, args, stderrPath))
    return std::move(error);
  auto deadline = after(options.timeoutSeconds);
  bool timedOut = false;
  while (std::optional<std::string> line = runner.readLine(deadline, timedOut)) {
    llvm::Expected<llvm::json::Value> value = llvm::json::parse(*line);
    if (!value) {
      llvm::consumeError(value.takeError());
      continue;
    }
    if (auto *object = value->getAsObject())
      if (object->getString("event") == "device")
        measurer->deviceInfo = *object;
  }
  if (timedOut) {
    runner.kill();
    return llvm::createStringError(
        "the CUDA runner did not report its device within " +
        llvm::formatv("{0}", llvm::format("%g", options.timeoutSeconds))
            .str() +
        " s");
  }
  int status = runner.wait();
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
      measurer->deviceInfo.empty()) {
    std::string why = readLastLine(stderrPath);
    if (WIFEXITED(status) && WEXITSTATUS(status) == kExitNoDevice &&
        !why.empty())
      return llvm::createStringError(why);
    return llvm::createStringError(
        "the CUDA runner " + describeExit(status) +
        (why.empty() ? std::string() : ": " + why));
  }
  return measurer;
}

/// Whether any kernel of `candidate` multiplies in TF32.
static bool computesInTf32(const MeasureCandidate &candidate) {
  if (candidate.facts.tf32)
    return true;
  if (!candidate.plan)
    return false;
  return llvm::any_of(candidate.plan->getLaunches(),
                      [](const PlanLaunch *launch) {
                        return launch->facts && launch->facts->tf32;
                      });
}

std::string CudaMeasurer::name() const {
  std::optional<StringRef> device = deviceInfo.getString("name");
  return "cuda:" + (device ? device->str() : std::string("unknown"));
}

std::string CudaMeasurer::writeData(llvm::ArrayRef<uint8_t> bytes) {
  llvm::XXH128_hash_t hash = llvm::xxh3_128bits(bytes);
  std::tuple<uint64_t, uint64_t, size_t> key{hash.low64, hash.high64,
                                             bytes.size()};
  auto it = dataFiles.find(key);
  if (it != dataFiles.end())
    return it->second;
  std::string path =
      llvm::formatv("{0}/data{1}.bin", workDir, dataFiles.size()).str();
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (!ec)
    os.write(reinterpret_cast<const char *>(bytes.data()), bytes.size());
  dataFiles[key] = path;
  return path;
}

llvm::Expected<std::string>
CudaMeasurer::writeRequest(llvm::ArrayRef<MeasureCandidate> candidates) {
  namespace rt = ::tessel::runtime;
  unsigned id = requestCount++;
  rt::MeasureRequest request;
  request.options.warmupMs = options.warmupMs;
  request.options.minTimeMs = options.minTimeMs;
  request.options.minRepeats = options.minRepeats;
  request.options.maxRepeats = options.maxRepeats;
  request.options.flushL2 = options.flushL2;
  request.options.verify = true;
  for (auto [index, candidate] : llvm::enumerate(candidates)) {
    if (!candidate.plan)
      return llvm::createStringError("candidate '" + candidate.key +
                                     "' has no compiled plan");
    const LaunchPlan &plan = *candidate.plan;
    const ReferenceData *reference = candidate.reference.get();
    rt::Candidate &out = request.candidates.emplace_back();
    out.key = candidate.key;
    out.flops = candidate.planFlops;
    for (const auto &[name, binary] : plan.binaries) {
      std::string path =
          llvm::formatv("{0}/r{1}c{2}-{3}.cubin", workDir, id, index, name)
              .str();
      std::error_code ec;
      llvm::raw_fd_ostream os(path, ec);
      if (ec)
        return llvm::createStringError("cannot write '" + path +
                                       "': " + ec.message());
      os << binary;
      out.modules.emplace_back(name, path);
    }
    for (const PlanBuffer &buffer : plan.buffers) {
      rt::BufferSpec &spec = out.buffers.emplace_back();
      spec.bytes = buffer.bytes;
      if (buffer.kind == PlanBuffer::Kind::Constant) {
        spec.init = rt::BufferInit::File;
        spec.file = writeData(buffer.data);
      } else if (buffer.kind == PlanBuffer::Kind::Argument && reference) {
        if (buffer.argIndex >= static_cast<int64_t>(reference->inputs.size()))
          return llvm::createStringError("the reference has no input " +
                                         std::to_string(buffer.argIndex));
        const HostTensor &input = reference->inputs[buffer.argIndex];
        if (static_cast<int64_t>(input.data.size()) != buffer.bytes)
          return llvm::createStringError(
              llvm::formatv("input {0} holds {1} bytes; the plan needs {2}",
                            buffer.argIndex, input.data.size(), buffer.bytes)
                  .str());
        spec.init = rt::BufferInit::File;
        spec.file = writeData(input.data);
      } else {
        spec.init = rt::BufferInit::Poison;
      }
    }
    for (const PlanStep &step : plan.steps) {
      rt::Step &outStep = out.steps.emplace_back();
      if (step.copy) {
        outStep.kind = rt::Step::Kind::Copy;
        outStep.copy = *step.copy;
      } else {
        outStep.kind = rt::Step::Kind::Launch;
        outStep.launch = *step.launch;
      }
    }
    if (!reference)
      continue;
    if (reference->outputs.size() != plan.outputs.size())
      return llvm::createStringError(
          "the reference has " + std::to_string(reference->outputs.size()) +
          " outputs; the plan has " + std::to_string(plan.outputs.size()));
    for (auto [output, expected] : llvm::zip(plan.outputs, reference->outputs)) {
      std::optional<rt::DType> dtype = rt::symbolizeDType(output.dtype);
      if (!dtype)
        return llvm::createStringError("output of unknown dtype '" +
                                       output.dtype + "'");
      Tolerance tolerance = getTolerance(expected, computesInTf32(candidate));
      rt::CheckSpec &check = out.checks.emplace_back();
      check.buffer = output.buffer;
      check.offset = output.offset;
      check.dtype = *dtype;
      check.count = output.getNumElements();
      check.expected = writeData(expected.data);
      check.rtol = tolerance.rtol;
      check.atol = tolerance.atol;
    }
  }
  std::string path = llvm::formatv("{0}/request{1}.json", workDir, id).str();
  std::string error;
  if (!rt::saveRequest(request, path, error))
    return llvm::createStringError(error);
  return path;
}

/// Reads one result line of the runner into `result`.
static void readResult(const llvm::json::Object &line, MeasureResult &result) {
  std::optional<StringRef> status = line.getString("status");
  std::optional<MeasureStatus> parsed =
      status ? symbolizeMeasureStatus(*status) : std::nullopt;
  result.status = parsed ? *parsed : MeasureStatus::LaunchError;
  if (std::optional<StringRef> message = line.getString("message"))
    result.message = message->str();
  else if (!parsed)
    result.message = "runner reported an unknown status";
  if (const llvm::json::Object *timing = line.getObject("timing")) {
    result.timing.medianUs = timing->getNumber("median_us").value_or(0);
    result.timing.minUs = timing->getNumber("min_us").value_or(0);
    result.timing.maxUs = timing->getNumber("max_us").value_or(0);
    result.timing.stddevUs = timing->getNumber("stddev_us").value_or(0);
    result.timing.repeats = timing->getInteger("repeats").value_or(0);
  }
}

std::vector<MeasureResult>
CudaMeasurer::measure(llvm::ArrayRef<MeasureCandidate> candidates) {
  std::vector<MeasureResult> results(candidates.size());
  std::vector<bool> answered(candidates.size(), false);
  for (auto [result, candidate] : llvm::zip(results, candidates)) {
    result.key = candidate.key;
    result.device = name();
    result.simulated = false;
    if (candidate.plan) {
      // Report the resources of the kernel with the most registers.
      for (const PlanLaunch *launch : candidate.plan->getLaunches())
        if (launch->resources.registers >= result.resources.registers)
          result.resources = launch->resources;
    }
  }
  if (candidates.empty())
    return results;
  auto fail = [&](size_t index, MeasureStatus status, std::string message) {
    results[index].status = status;
    results[index].message = std::move(message);
    answered[index] = true;
  };

  llvm::Expected<std::string> request = writeRequest(candidates);
  if (!request) {
    std::string message = llvm::toString(request.takeError());
    for (size_t i = 0; i < candidates.size(); ++i)
      fail(i, MeasureStatus::LaunchError, message);
    return results;
  }
  size_t next = 0;
  while (next < candidates.size()) {
    std::string stderrPath =
        llvm::formatv("{0}/runner{1}.stderr", workDir, next).str();
    RunnerProcess runner;
    std::vector<std::string> args = options.runnerArgs;
    args.push_back(*request);
    args.push_back("--start=" + std::to_string(next));
    if (llvm::Error error =
            runner.start(options.runnerPath, args, stderrPath)) {
      std::string message = llvm::toString(std::move(error));
      for (size_t i = next; i < candidates.size(); ++i)
        fail(i, MeasureStatus::LaunchError, message);
      break;
    }
    std::optional<size_t> running;
    auto deadline = after(options.timeoutSeconds);
    bool timedOut = false;
    while (std::optional<std::string> line =
               runner.readLine(deadline, timedOut)) {
      llvm::Expected<llvm::json::Value> value = llvm::json::parse(*line);
      if (!value) {
        llvm::consumeError(value.takeError());
        continue;
      }
      const llvm::json::Object *object = value->getAsObject();
      if (!object)
        continue;
      std::optional<StringRef> event = object->getString("event");
      std::optional<int64_t> index = object->getInteger("index");
      if (!event || (*event != "device" && (!index || *index < 0 ||
                                            static_cast<size_t>(*index) >=
                                                candidates.size())))
        continue;
      if (*event == "start") {
        running = *index;
        deadline = after(options.timeoutSeconds);
      } else if (*event == "result") {
        readResult(*object, results[*index]);
        answered[*index] = true;
        running.reset();
        next = std::max<size_t>(next, *index + 1);
      }
    }
    if (timedOut) {
      runner.kill();
      size_t victim = running.value_or(next);
      fail(victim, MeasureStatus::Timeout,
           "no answer within " +
               llvm::formatv("{0}", llvm::format("%g", options.timeoutSeconds))
                   .str() +
               " s; the runner was killed");
      next = victim + 1;
      continue;
    }
    int status = runner.wait();
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
      break;
    if (WIFEXITED(status) && WEXITSTATUS(status) == kExitContextLost &&
        !running)
      continue; // The failing candidate wrote its result; go on after it.
    std::string why = readLastLine(stderrPath);
    if (WIFEXITED(status) && WEXITSTATUS(status) == kExitNoDevice) {
      for (size_t i = next; i < candidates.size(); ++i)
        fail(i, MeasureStatus::LaunchError, why);
      break;
    }
    // The runner died: blame the candidate it was running (or the first
    // unanswered one, if it died before starting any).
    size_t victim = running.value_or(next);
    fail(victim, MeasureStatus::LaunchError,
         "the runner " + describeExit(status) + " while running it" +
             (why.empty() ? std::string() : ": " + why));
    next = victim + 1;
  }
  for (size_t i = 0; i < candidates.size(); ++i)
    if (!answered[i])
      fail(i, MeasureStatus::LaunchError, "the runner gave no answer");
  return results;
}
