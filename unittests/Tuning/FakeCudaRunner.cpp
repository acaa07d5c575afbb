//===- FakeCudaRunner.cpp - A runner that misbehaves on purpose -----------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Speaks the protocol of tessel-cuda-runner (docs/MeasureProtocol.md)
// without a GPU, so the child-process isolation of CudaMeasurer can be tested
// anywhere. What happens to a candidate depends on its key:
//   "fault..."  the process dies of SIGSEGV, as a faulting kernel can make it
//   "hang..."   the process sleeps forever, as a hung kernel makes it
//               (it writes its pid to $FAKE_RUNNER_PID_FILE when set)
//   "stop..."   SIGTERM and SIGINT to itself (as Slurm's scancel or a
//               Ctrl-C sends), then ok like any other
//   "sticky..." a launch_error result, then exit 4 (context lost)
//   "wrong..."  a wrong_result result
//   "oor..."    an out_of_resources result
//   "sum..."    ok, with a median of the sum of the bytes of its data files
//   otherwise   ok, with a median of 10 + index microseconds
// Like the real runner, a data file whose size differs from its buffer's is
// a launch_error.
// With FAKE_RUNNER_NO_DEVICE set, it exits 3 like a machine without a GPU;
// FAKE_RUNNER_NAME replaces the GPU's name ("Fake GPU").
//
//===----------------------------------------------------------------------===//

#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <csignal>
#include <cstdlib>
#include <unistd.h>

static void emit(llvm::json::Object object) {
  llvm::outs() << llvm::json::Value(std::move(object)) << "\n";
  llvm::outs().flush();
}

int main(int argc, char **argv) {
  if (std::getenv("FAKE_RUNNER_NO_DEVICE")) {
    llvm::errs() << "no CUDA driver/device found: fake runner without a GPU\n";
    return 3;
  }
  if (argc < 2)
    return 2;
  size_t start = 0;
  for (int i = 2; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    if (arg.consume_front("--start="))
      arg.getAsInteger(10, start);
  }
  auto buffer = llvm::MemoryBuffer::getFile(argv[1]);
  if (!buffer)
    return 2;
  auto request = llvm::json::parse((*buffer)->getBuffer());
  if (!request) {
    llvm::consumeError(request.takeError());
    return 2;
  }
  const llvm::json::Array *candidates =
      request->getAsObject()->getArray("candidates");
  const char *name = std::getenv("FAKE_RUNNER_NAME");
  emit(llvm::json::Object{{"event", "device"},
                          {"name", name ? name : "Fake GPU"},
                          {"compute_capability", "9.0"}});
  for (size_t i = start; candidates && i < candidates->size(); ++i) {
    llvm::StringRef key =
        (*candidates)[i].getAsObject()->getString("key").value_or("");
    emit(llvm::json::Object{{"event", "start"}, {"index", static_cast<int64_t>(i)}});
    if (key.starts_with("fault"))
      raise(SIGSEGV);
    if (key.starts_with("hang")) {
      if (const char *pidFile = std::getenv("FAKE_RUNNER_PID_FILE")) {
        std::error_code ec;
        llvm::raw_fd_ostream out(pidFile, ec);
        out << getpid() << "\n";
      }
      while (true)
        pause();
    }
    if (key.starts_with("stop")) {
      raise(SIGTERM);
      raise(SIGINT);
    }
    llvm::json::Object result{{"event", "result"},
                              {"index", static_cast<int64_t>(i)},
                              {"key", key}};
    std::string fileError;
    double byteSum = 0;
    if (const llvm::json::Array *buffers =
            (*candidates)[i].getAsObject()->getArray("buffers")) {
      for (const llvm::json::Value &buffer : *buffers) {
        std::optional<llvm::StringRef> file =
            buffer.getAsObject()->getString("file");
        if (!file)
          continue;
        int64_t bytes = buffer.getAsObject()->getInteger("bytes").value_or(-1);
        auto data = llvm::MemoryBuffer::getFile(*file);
        if (!data || static_cast<int64_t>((*data)->getBufferSize()) != bytes) {
          fileError = ("'" + *file + "' does not hold " +
                       std::to_string(bytes) + " bytes")
                          .str();
          break;
        }
        for (unsigned char byte : (*data)->getBuffer())
          byteSum += byte;
      }
    }
    if (!fileError.empty()) {
      result["status"] = "launch_error";
      result["message"] = fileError;
      emit(std::move(result));
      continue;
    }
    if (key.starts_with("sticky")) {
      result["status"] = "launch_error";
      result["message"] = "CUDA_ERROR_ILLEGAL_ADDRESS";
      emit(std::move(result));
      return 4;
    }
    if (key.starts_with("wrong")) {
      result["status"] = "wrong_result";
      result["message"] = "element 3: got 1, expected 2";
    } else if (key.starts_with("oor")) {
      result["status"] = "out_of_resources";
      result["message"] = "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES";
    } else {
      double median =
          key.starts_with("sum") ? byteSum : 10.0 + static_cast<double>(i);
      result["status"] = "ok";
      result["timing"] = llvm::json::Object{{"median_us", median},
                                            {"min_us", median - 1},
                                            {"max_us", median + 1},
                                            {"stddev_us", 0.5},
                                            {"repeats", 100}};
    }
    emit(std::move(result));
  }
  return 0;
}
