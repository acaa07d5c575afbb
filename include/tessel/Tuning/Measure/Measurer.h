//===- Measurer.h - Timing candidate kernels --------------------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// A Measurer times candidate kernels: on a real GPU, or on a model of one
// (`sim:<device>`, SimulatedMeasurer.h). A candidate carries the facts a
// measurer needs beyond the kernel itself: its launch shape, what ptxas
// reported, and the schedule facts a model of the GPU reads. Every result
// says whether it was simulated, so simulated timings are never mistaken for
// measured ones.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_MEASURE_MEASURER_H
#define TESSEL_TUNING_MEASURE_MEASURER_H

#include "tessel/Dialect/Tessel/Transforms/KernelFacts.h"
#include "tessel/Dialect/Tessel/Transforms/KernelResources.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace tessel {

struct LaunchPlan;
struct ReferenceData;

/// The outcome of measuring one candidate.
enum class MeasureStatus {
  Ok,
  CompileError,
  LaunchError,
  WrongResult,
  Timeout,
  OutOfResources,
};

/// "ok", "compile_error", "launch_error", "wrong_result", "timeout",
/// "out_of_resources".
llvm::StringRef stringifyMeasureStatus(MeasureStatus status);
/// The inverse of stringifyMeasureStatus; std::nullopt for other strings.
std::optional<MeasureStatus> symbolizeMeasureStatus(llvm::StringRef text);

/// Statistics of the repeated timings of one candidate, in microseconds.
struct TimingStats {
  double medianUs = 0;
  double minUs = 0;
  double maxUs = 0;
  /// Sample standard deviation (0 for fewer than two repeats).
  double stddevUs = 0;
  int repeats = 0;

  /// Statistics of `samplesUs` (all zero when empty).
  static TimingStats fromSamples(llvm::ArrayRef<double> samplesUs);
};

/// One kernel to time: its launch shape, its ptxas resources and the facts of
/// its schedule that a model of the GPU needs.
struct MeasureCandidate {
  /// Identifies the candidate in results and logs (e.g. a schedule hash).
  std::string key;

  /// Thread blocks in the grid.
  int64_t gridBlocks = 1;
  /// Threads per block.
  int64_t blockThreads = 1;
  /// Registers, spills and static shared memory, as reported by ptxas.
  KernelResources resources;

  /// The facts of the kernel's schedule (flops, bytes, register tile,
  /// access widths; KernelFacts.h), for a model of the GPU.
  KernelFacts facts;

  /// A compiled candidate: the launches to run, with their cubins. When
  /// set, a GPU measurer runs the plan, and the simulated GPU times each of
  /// its launches from the launch's facts (the fields above are unused).
  std::shared_ptr<const LaunchPlan> plan;
  /// Inputs and expected outputs for the plan's arguments and results; the
  /// plan is timed without verification when null.
  std::shared_ptr<const ReferenceData> reference;
  /// FLOPs of the whole plan (for GFLOP/s).
  double planFlops = 0;

  /// Unique bytes read and written: the global-memory footprint.
  int64_t getFootprintBytes() const {
    return facts.globalBytesRead + facts.globalBytesWritten;
  }
};

/// The measurement of one candidate.
struct MeasureResult {
  /// The candidate's key.
  std::string key;
  MeasureStatus status = MeasureStatus::Ok;
  /// Valid when status is Ok.
  TimingStats timing;
  KernelResources resources;
  /// True when the timing comes from a model rather than a GPU.
  bool simulated = false;
  /// The measurer's device, e.g. "sim:h100-sxm" or "cuda:0".
  std::string device;
  /// Why the status is not Ok, or notes about the measurement.
  std::string message;
  /// True when the candidate was never measured: the run stopped (its time
  /// limit, a stop request) while the candidate waited for a queue's
  /// workers. The tuner neither records nor counts such a result, so a
  /// resumed run may propose the candidate again.
  bool withdrawn = false;

  bool isOk() const { return status == MeasureStatus::Ok; }
  /// The result as a JSON object (status as a string, timings in "*_us").
  llvm::json::Object toJSON() const;
};

/// Times candidate kernels on one device.
class Measurer {
public:
  virtual ~Measurer();

  /// The device this measurer times on, e.g. "sim:h100-sxm".
  virtual std::string name() const = 0;
  /// True when timings come from a model, not from a GPU.
  virtual bool isSimulated() const = 0;
  /// Measures every candidate; one result per candidate, in order.
  virtual std::vector<MeasureResult>
  measure(llvm::ArrayRef<MeasureCandidate> candidates) = 0;
};

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_MEASURE_MEASURER_H
