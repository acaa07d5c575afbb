//===- Reward.h - Fasor's roofline-inspired DQN reward ----------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Eq. 3 of seed 004: r_t = phi1 (T_{t-1} - T_t) + phi2 CS/MS + phi3 #Iter,
// with T, CS and MS predicted by the cost model. Tessel's reading of the
// parts the paper leaves open is in docs/Fasor.md ("Reward").
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_STRATEGIES_FASOR_REWARD_H
#define TESSEL_TUNING_STRATEGIES_FASOR_REWARD_H

#include <cstdint>

namespace mlir {
namespace tessel {
namespace fasor {

/// The weights phi1-phi3 of Eq. 3.
struct RewardWeights {
  double latency = 0.35;
  double roofline = 0.25;
  double iterations = 0.40;

  /// High-efficiency mode (the default): 0.35 / 0.25 / 0.40.
  static RewardWeights highEfficiency() { return {0.35, 0.25, 0.40}; }
  /// High-quality mode: 0.45 / 0.35 / 0.20.
  static RewardWeights highQuality() { return {0.45, 0.35, 0.20}; }
  /// The ablation without the roofline term (Fasor_wo_R): phi2 = 0.
  RewardWeights withoutRoofline() const { return {latency, 0, iterations}; }
};

/// MS below this counts as this much in CS / MS, so that a schedule the
/// model calls purely compute-bound gets a bounded reward (at most 20).
constexpr double kMinMemoryBound = 0.05;

/// The reward of moving from a schedule of predicted latency
/// `previousLatencyUs` to one of `latencyUs`, `computeBound` (CS) and
/// `memoryBound` (MS), at step `iteration` (1-based) of at most
/// `maxIterations`:
///   phi1 (T_{t-1} - T_t) / T_{t-1}       the relative latency gain,
/// + phi2 CS / max(MS, kMinMemoryBound)  further right on the roofline,
/// - phi3 iteration / maxIterations      the iteration term as a cost.
double computeReward(double previousLatencyUs, double latencyUs,
                     double computeBound, double memoryBound,
                     int64_t iteration, int64_t maxIterations,
                     const RewardWeights &weights);

} // namespace fasor
} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_STRATEGIES_FASOR_REWARD_H
