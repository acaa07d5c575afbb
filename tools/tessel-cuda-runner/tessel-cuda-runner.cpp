//===- tessel-cuda-runner.cpp - Checks and times kernels on a GPU ---------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// tessel-cuda-runner REQUEST.json [--start=N] [--device=D]
//
// The measurement process of docs/MeasureProtocol.md: reads a request,
// answers with one JSON line per event on stdout (a "device" line, then
// "start" and "result" per candidate). Exit codes: 0 all candidates
// answered; 2 malformed request or arguments; 3 no CUDA driver or device; 4 a
// candidate left the CUDA context unusable (its result line was written).
//
//===----------------------------------------------------------------------===//

#include "CandidateRunner.h"

#include "tessel/Runtime/CudaDriver.h"
#include "tessel/Runtime/Json.h"
#include "tessel/Runtime/Request.h"
#include "tessel/Runtime/Timing.h"

#include <cstdio>
#include <cstdlib>
#include <string>

using namespace tessel::runtime;

namespace {

constexpr int kExitMalformed = 2;
constexpr int kExitNoDevice = 3;
constexpr int kExitSticky = 4;

const char *const kUsage =
    "usage: tessel-cuda-runner REQUEST.json [--start=N] [--device=D]\n";

/// Writes one line on stdout and flushes it, so that the parent sees each
/// event as it happens (and keeps it if the process dies next).
void emit(const std::string &line) {
  std::fputs(line.c_str(), stdout);
  std::fputc('\n', stdout);
  std::fflush(stdout);
}

/// Reports a malformed request or command line (with the usage when
/// `showUsage`).
int failMalformed(const std::string &message, bool showUsage = false) {
  std::fprintf(stderr, "tessel-cuda-runner: %s\n%s", message.c_str(),
               showUsage ? kUsage : "");
  return kExitMalformed;
}

/// Parses the value of "--name=VALUE" as a non-negative int.
bool parseCount(const std::string &text, int &value) {
  if (text.empty() || text.size() > 9)
    return false;
  value = 0;
  for (char c : text) {
    if (c < '0' || c > '9')
      return false;
    value = value * 10 + (c - '0');
  }
  return true;
}

std::string deviceLine(const DeviceInfo &info, const CudaDriver &driver,
                       size_t flushBytes) {
  json::ObjectWriter writer;
  writer.addString("event", "device")
      .addInt("protocol_version", kRequestVersion)
      .addInt("ordinal", info.ordinal)
      .addString("name", info.name)
      .addString("pci_bus_id", info.pciBusId)
      .addInt("driver_version", info.driverVersion)
      .addString("driver_library", driver.getLibraryPath())
      .addString("compute_capability", info.getComputeCapability())
      .addInt("sm_count", info.smCount)
      .addInt("clock_khz", info.clockKHz)
      .addInt("memory_clock_khz", info.memoryClockKHz)
      .addInt("memory_bus_width_bits", info.memoryBusWidthBits)
      .addInt("memory_bytes", static_cast<int64_t>(info.memoryBytes))
      .addInt("l2_bytes", info.l2Bytes)
      .addInt("shared_bytes_per_block", info.sharedBytesPerBlock)
      .addInt("shared_bytes_per_block_optin", info.sharedBytesPerBlockOptin)
      .addInt("shared_bytes_per_sm", info.sharedBytesPerSm)
      .addInt("max_threads_per_block", info.maxThreadsPerBlock)
      .addInt("registers_per_sm", info.registersPerSm);
  if (info.currentSmClockKHz >= 0)
    writer.addInt("sm_clock_khz_current", info.currentSmClockKHz);
  writer.addInt("l2_flush_bytes", static_cast<int64_t>(flushBytes));
  return writer.str();
}

} // namespace

int main(int argc, char **argv) {
  std::string requestPath;
  int start = 0, ordinal = 0;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    if (arg.rfind("--start=", 0) == 0) {
      if (!parseCount(arg.substr(8), start))
        return failMalformed("invalid " + arg, /*showUsage=*/true);
    } else if (arg.rfind("--device=", 0) == 0) {
      if (!parseCount(arg.substr(9), ordinal))
        return failMalformed("invalid " + arg, /*showUsage=*/true);
    } else if (arg.rfind("-", 0) == 0) {
      return failMalformed("unknown option '" + arg + "'", /*showUsage=*/true);
    } else if (!requestPath.empty()) {
      return failMalformed("more than one request file", /*showUsage=*/true);
    } else {
      requestPath = arg;
    }
  }
  if (requestPath.empty())
    return failMalformed("no request file", /*showUsage=*/true);

  MeasureRequest request;
  std::string error;
  if (!loadRequest(requestPath, request, error))
    return failMalformed(error);
  if (static_cast<size_t>(start) > request.candidates.size())
    return failMalformed("--start=" + std::to_string(start) +
                         " is past the end of the request's " +
                         std::to_string(request.candidates.size()) +
                         " candidates");

  std::unique_ptr<CudaDriver> driver = CudaDriver::open(ordinal, error);
  if (!driver) {
    std::fprintf(stderr, "%s: %s\n", kNoDeviceMessage, error.c_str());
    return kExitNoDevice;
  }
  DeviceInfo device = driver->queryDevice();

  Stream stream(*driver);
  L2Flusher flusher(*driver);
  Status status = stream.create();
  if (status.ok() && request.options.flushL2)
    status = flusher.allocate(static_cast<size_t>(device.l2Bytes));
  if (!status.ok()) {
    std::fprintf(stderr, "%s: cannot set up device %d: %s\n", kNoDeviceMessage,
                 ordinal, status.message.c_str());
    return kExitNoDevice;
  }
  emit(deviceLine(device, *driver, flusher.size()));

  CandidateRunner runner(*driver, device, stream.get(),
                         request.options.flushL2 ? &flusher : nullptr,
                         request.options);
  for (size_t i = start; i < request.candidates.size(); ++i) {
    const Candidate &candidate = request.candidates[i];
    emit(json::ObjectWriter()
             .addString("event", "start")
             .addInt("index", static_cast<int64_t>(i))
             .addString("key", candidate.key)
             .str());
    CandidateResult result = runner.run(candidate);
    emit(
        result.toJSON(static_cast<int64_t>(i), candidate.key, candidate.flops));
    if (result.sticky) {
      // Nothing more can run in this context, and tearing it down may hang
      // or fail: leave at once (stdout is flushed).
      std::_Exit(kExitSticky);
    }
  }
  return 0;
}
