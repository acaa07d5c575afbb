//===- TaskScheduler.h - Which task gets the next round --------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Ansor's task scheduler (section 6 of the paper; TVM's
// auto_scheduler/task_scheduler.py): the objective is the weighted sum of the
// tasks' best latencies, f = sum_i w_i g_i, and each round goes to the task
// whose next round promises the largest decrease of f:
//
//   df/dt_i ~ w_i * ( alpha * (g_i(t_i) - g_i(t_i - dt)) / dt
//                   + (1 - alpha) * min(-g_i(t_i) / t_i,
//                                       beta * C_i / max_{k in N(i)} V_k
//                                         - g_i(t_i)) )
//
// with t_i the rounds task i had, dt the backward window, C_i its FLOPs,
// N(i) the tasks of its group (same op kind) and V_k their best throughput.
// Every task first gets one round (warm-up); with probability epsilon a
// random task is picked. Ansor warms the tasks up in model order, so under a
// budget below tasks x round size the tasks late in the order, often the
// heaviest, are never tuned; `gradient-share` warms them up in order of
// their share of the model's time instead (weight x best latency known
// before any round: the default schedule's). Round robin is the
// alternative.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_TUNER_TASKSCHEDULER_H
#define TESSEL_TUNING_TUNER_TASKSCHEDULER_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace tessel {

/// What the scheduler knows of a task.
struct SchedulerTask {
  /// Occurrences of the task in the model.
  double weight = 1;
  /// FLOPs of one occurrence.
  double flops = 0;
  /// Tasks of one group are similar (Ansor: same op kind).
  std::string group;
};

/// Options of the scheduler; the defaults are Ansor's.
struct TaskSchedulerOptions {
  enum class Kind {
    /// Ansor's: warm-up in task order, then the gradient rule.
    Gradient,
    /// Warm-up by share of the model's time (largest weight x best latency
    /// first; a task with no working schedule counts as infinite), then the
    /// gradient rule.
    GradientShare,
    RoundRobin
  };
  Kind kind = Kind::Gradient;
  double alpha = 0.2;
  double beta = 2;
  /// Backward window dt, in rounds.
  int backwardWindow = 3;
  /// Probability of picking a random task.
  double epsilon = 0.05;
  uint64_t seed = 0;
};

/// Parses "gradient", "gradient-share" or "round-robin".
std::optional<TaskSchedulerOptions::Kind>
parseTaskSchedulerKind(llvm::StringRef name);

/// Decides which task tunes next.
class TaskScheduler {
public:
  TaskScheduler(std::vector<SchedulerTask> tasks, TaskSchedulerOptions options);

  /// The task of the next round.
  size_t next();
  /// Records the end of a round of `task`: its best latency so far (+inf if
  /// nothing succeeded yet).
  void update(size_t task, double bestLatencyUs);
  /// Records what is known of `task` before any round (its default config,
  /// records of an earlier run): its best latency, without counting a round,
  /// so the task still gets its warm-up round.
  void seed(size_t task, double bestLatencyUs);
  /// Rounds each task has had.
  const std::vector<int> &getRounds() const { return rounds; }
  /// The objective: sum of weight * best latency (+inf if a task has none).
  double getObjective() const;
  /// The gradient estimate of `task` (negative: a round helps); exposed for
  /// tests.
  double getGradient(size_t task) const;

private:
  double best(size_t task) const;
  uint64_t nextRandom();

  std::vector<SchedulerTask> tasks;
  TaskSchedulerOptions options;
  std::vector<int> rounds;
  /// Best latency after each round, per task.
  std::vector<std::vector<double>> history;
  size_t roundRobin = 0;
  uint64_t state;
};

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_TUNER_TASKSCHEDULER_H
