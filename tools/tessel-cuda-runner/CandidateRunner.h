//===- CandidateRunner.h - Checking and timing one candidate ----*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Runs one candidate of a request (docs/MeasureProtocol.md): loads its
// modules, allocates and fills its buffers, checks the launches against the
// kernels' limits, runs the steps once, compares the outputs and times the
// steps. Every failure becomes a status of the protocol.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TOOLS_TESSEL_CUDA_RUNNER_CANDIDATERUNNER_H
#define TESSEL_TOOLS_TESSEL_CUDA_RUNNER_CANDIDATERUNNER_H

#include "tessel/Runtime/CudaDriver.h"
#include "tessel/Runtime/Request.h"
#include "tessel/Runtime/Statistics.h"
#include "tessel/Runtime/Timing.h"

#include <string>

namespace tessel {
namespace runtime {

/// What the runner reports for one candidate.
struct CandidateResult {
  /// A MeasureStatus string: "ok", "launch_error", "wrong_result",
  /// "out_of_resources".
  std::string status = "ok";
  std::string message;
  /// The CUDA context is unusable: the runner must exit (code 4).
  bool sticky = false;
  /// Valid when status is "ok".
  TimingStats timing;
  /// Whether outputs were compared; then the largest errors of all checks.
  bool compared = false;
  double maxAbsError = 0;
  double maxRelError = 0;

  /// The "result" line of the protocol (without a newline).
  std::string toJSON(int64_t index, const std::string &key, double flops) const;
};

/// Runs candidates on one device and stream.
class CandidateRunner {
public:
  CandidateRunner(const CudaDriver &driver, const DeviceInfo &device,
                  CUstream stream, L2Flusher *flusher,
                  const RequestOptions &options)
      : driver(driver), device(device), stream(stream), flusher(flusher),
        options(options) {}

  /// Checks and times `candidate`.
  CandidateResult run(const Candidate &candidate);

private:
  const CudaDriver &driver;
  const DeviceInfo &device;
  CUstream stream;
  L2Flusher *flusher;
  const RequestOptions &options;
};

} // namespace runtime
} // namespace tessel

#endif // TESSEL_TOOLS_TESSEL_CUDA_RUNNER_CANDIDATERUNNER_H
