//===- SimulatedMeasurer.h - A model of a GPU as a measurer -----*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// `sim:<device>`: times candidates with an analytical model of the GPU of a
// device file instead of running them, so the tuner can be developed and
// tested without a GPU. The model is documented, with its formulas, in
// docs/SimulatedGpu.md. It is meant to respond in the right direction to
// schedule changes (spills, waves, register tiles, coalescing, bank
// conflicts), not to predict absolute times.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_MEASURE_SIMULATEDMEASURER_H
#define TESSEL_TUNING_MEASURE_SIMULATEDMEASURER_H

#include "tessel/Tuning/Device.h"
#include "tessel/Tuning/Measure/Measurer.h"
#include "tessel/Tuning/Occupancy.h"

#include <cstdint>
#include <string>

namespace mlir {
namespace tessel {

/// The noise-free prediction of the model for one candidate, with the terms
/// it is made of (see docs/SimulatedGpu.md).
struct SimulatedEstimate {
  MeasureStatus status = MeasureStatus::Ok;
  /// Why the status is not Ok.
  std::string message;
  Occupancy occupancy;
  WaveQuantization waves;
  /// Latency hiding of the FP32 pipes and of the memory system, in (0, 1].
  double computeEfficiency = 0;
  double memoryEfficiency = 0;
  /// Time of one wave spent in each unit, in microseconds.
  double computeUs = 0;
  double dramUs = 0;
  double l2Us = 0;
  double sharedUs = 0;
  /// The floor one block's barriers set (compiled kernels: 0 without
  /// barrier counts in their facts).
  double latencyUs = 0;
  /// max(computeUs, dramUs, l2Us, sharedUs, latencyUs).
  double waveUs = 0;
  /// Launch overhead + waves * waveUs.
  double totalUs = 0;
  /// "compute", "dram", "l2", "shared" or "latency": what sets waveUs.
  std::string bound;
};

struct PlanLaunch;

/// The candidate the simulated GPU times for one launch of a plan: its
/// geometry, ptxas resources and recorded kernel facts.
MeasureCandidate getLaunchCandidate(const PlanLaunch &launch);

/// A measurer that predicts the time of each candidate on the device of a
/// device file, with seeded lognormal noise. Results are always marked
/// `simulated` and their device is "sim:<id>".
class SimulatedMeasurer : public Measurer {
public:
  /// `noiseStddev` is the sigma of the lognormal noise of each repeat; 0
  /// makes every repeat the noise-free estimate.
  SimulatedMeasurer(DeviceDescription device, uint64_t seed,
                    double noiseStddev = 0.02);

  /// "sim:<device id>".
  std::string name() const override;
  bool isSimulated() const override { return true; }
  std::vector<MeasureResult>
  measure(llvm::ArrayRef<MeasureCandidate> candidates) override;

  /// The noise-free prediction for `candidate` (its fields; not its plan).
  SimulatedEstimate estimate(const MeasureCandidate &candidate) const;
  /// The noise-free prediction for the launches of `plan`, run in order:
  /// the sum of their times; occupancy, waves and bound are those of the
  /// slowest launch, whose resources are stored in `heaviest` if given.
  SimulatedEstimate estimatePlan(const LaunchPlan &plan,
                                 KernelResources *heaviest = nullptr) const;

  /// Restarts the noise from `seed`: a measurement queue's worker does so
  /// per item, so that a result does not depend on the worker or the order.
  void reseed(uint64_t seed) { state = seed; }

  /// Timed repeats per candidate (default 10, at least 1).
  void setRepeats(int repeats);
  int getRepeats() const { return repeats; }
  const DeviceDescription &getDevice() const { return device; }

private:
  /// A standard normal sample from the seeded generator.
  double nextGaussian();
  uint64_t nextRandom();

  DeviceDescription device;
  uint64_t state;
  double noiseStddev;
  int repeats = 10;
};

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_MEASURE_SIMULATEDMEASURER_H
