//===- DqnAgent.h - Fasor's deep Q-network explorer -------------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Seed 004, section 6: a deep Q-network chooses which knob to move next.
// The network scores a (state, action) pair: Q(s, a) is an MLP over the
// state's features concatenated with the action's encoding, so a task may
// offer any number of actions (its space's, Actions.h). Training is the
// usual DQN: epsilon-greedy exploration, a replay buffer, a target network
// synchronized every few steps, Huber loss on r + gamma max_a' Q'(s', a').
// Built on libtorch like the cost model; this header exposes no torch type.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_STRATEGIES_FASOR_DQNAGENT_H
#define TESSEL_TUNING_STRATEGIES_FASOR_DQNAGENT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace mlir {
namespace tessel {
namespace fasor {

/// Features of a state or an action, as the network reads them.
using Features = std::vector<float>;

/// One step of an episode.
struct Transition {
  Features state;
  Features action;
  double reward = 0;
  Features nextState;
  /// The actions available after the step; empty when the episode ended
  /// (the target is then the reward alone).
  std::vector<Features> nextActions;
};

struct DqnOptions {
  /// Units of the MLP's two hidden layers.
  int64_t hidden = 128;
  /// The paper's discount.
  double gamma = 0.95;
  double learningRate = 1e-3;
  int64_t batchSize = 32;
  /// Transitions kept; the oldest are dropped first.
  int64_t replayCapacity = 10000;
  /// Training steps between copies of the network into the target network.
  int64_t targetSyncSteps = 50;
  /// Probability of a uniformly random action in selectAction().
  double epsilon = 0.1;
  /// Seeds the weights, the replay sampling and the exploration.
  uint64_t seed = 0;
};

class DqnAgent {
public:
  /// A fresh agent for states of `stateWidth` and actions of `actionWidth`
  /// features.
  static llvm::Expected<DqnAgent> create(int64_t stateWidth,
                                         int64_t actionWidth,
                                         const DqnOptions &options = {});
  /// The agent saved at `path` by save() (network, widths, options; not
  /// the replay buffer).
  static llvm::Expected<DqnAgent> load(llvm::StringRef path);
  DqnAgent(DqnAgent &&);
  DqnAgent &operator=(DqnAgent &&);
  ~DqnAgent();

  /// Q(state, a) for each of `actions`, in order.
  llvm::Expected<std::vector<double>>
  getQValues(const Features &state, llvm::ArrayRef<Features> actions) const;
  /// The index of the action to take among `actions` (at least one): with
  /// probability epsilon when `explore`, a uniform one, else the one of
  /// largest Q (the first on ties).
  llvm::Expected<size_t> selectAction(const Features &state,
                                      llvm::ArrayRef<Features> actions,
                                      bool explore);
  /// Adds `transition` to the replay buffer (checked for widths).
  llvm::Error remember(Transition transition);
  /// One gradient step on a batch drawn uniformly from the replay buffer;
  /// the batch's loss, or std::nullopt while the buffer holds fewer than a
  /// batch.
  llvm::Expected<std::optional<double>> trainStep();

  llvm::Error save(llvm::StringRef path) const;
  size_t getReplaySize() const;
  int64_t getStateWidth() const;
  int64_t getActionWidth() const;
  const DqnOptions &getOptions() const;

private:
  struct Impl;
  explicit DqnAgent(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl;
};

} // namespace fasor
} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_STRATEGIES_FASOR_DQNAGENT_H
