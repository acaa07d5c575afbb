//===- Reward.cpp - Fasor's roofline-inspired DQN reward ------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Fasor/Reward.h"

#include <algorithm>

using namespace mlir::tessel::fasor;

double mlir::tessel::fasor::computeReward(double previousLatencyUs,
                                          double latencyUs,
                                          double computeBound,
                                          double memoryBound,
                                          int64_t iteration,
                                          int64_t maxIterations,
                                          const RewardWeights &weights) {
  double gain = previousLatencyUs > 0
                    ? (previousLatencyUs - latencyUs) / previousLatencyUs
                    : 0;
  double roofline = computeBound / std::max(memoryBound, kMinMemoryBound);
  double progress = maxIterations > 0
                        ? static_cast<double>(iteration) / maxIterations
                        : 0;
  return weights.latency * gain + weights.roofline * roofline -
         weights.iterations * progress;
}
