//===- TaskSchedulerTest.cpp - Ansor's gradient task scheduler ------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Tuner/TaskScheduler.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace mlir::tessel;

namespace {

/// Runs `rounds` rounds where each round of task i multiplies its latency
/// by `gain[i]` down to `floor[i]`.
std::vector<int> simulate(TaskScheduler &scheduler, std::vector<double> latency,
                          const std::vector<double> &gain,
                          const std::vector<double> &floor, int rounds) {
  for (int r = 0; r < rounds; ++r) {
    size_t task = scheduler.next();
    latency[task] = std::max(floor[task], latency[task] * gain[task]);
    scheduler.update(task, latency[task]);
  }
  return scheduler.getRounds();
}

TEST(TaskSchedulerTest, WarmUpVisitsEveryTaskOnceInOrder) {
  TaskScheduler scheduler({{1, 1e6, "a"}, {1, 1e6, "b"}, {1, 1e6, "c"}}, {});
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(scheduler.next(), i);
    scheduler.update(i, 100);
  }
}

TEST(TaskSchedulerTest, SeededTasksStillGetTheirWarmUpRound) {
  // Default configs measured before the first round: a task whose default
  // is already fast (task 0) and two slow ones. Every task still gets one
  // search round, in order, before the gradient decides.
  TaskScheduler scheduler({{1, 1e6, "a"}, {1, 1e6, "a"}, {1, 1e6, "a"}}, {});
  scheduler.seed(0, 10);
  scheduler.seed(1, 1000);
  scheduler.seed(2, 1000);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(scheduler.next(), i);
    scheduler.update(i, i == 1 ? 5 : 500);
  }
  EXPECT_EQ(scheduler.getRounds(), (std::vector<int>{1, 1, 1}));
  EXPECT_DOUBLE_EQ(scheduler.getObjective(), 500 + 5 + 500);
}

TEST(TaskSchedulerTest, ShareWarmUpStartsWhereTheModelsTimeIs) {
  // Defaults known before the first round: shares 10, 2 x 100 and 1000 us;
  // task 3 has no working default (infinite share). gradient-share warms
  // them up 3, 2, 1, 0; Ansor's order would be 0, 1, 2, 3.
  TaskSchedulerOptions options;
  options.kind = TaskSchedulerOptions::Kind::GradientShare;
  std::vector<SchedulerTask> tasks = {
      {1, 1e6, "a"}, {2, 1e6, "a"}, {1, 1e6, "a"}, {1, 1e6, "b"}};
  TaskScheduler scheduler(tasks, options);
  scheduler.seed(0, 10);
  scheduler.seed(1, 100);
  scheduler.seed(2, 1000);
  for (size_t expected : {3u, 2u, 1u, 0u}) {
    EXPECT_EQ(scheduler.next(), expected);
    scheduler.update(expected, 5);
  }
  EXPECT_EQ(scheduler.getRounds(), (std::vector<int>{1, 1, 1, 1}));
  // Equal shares keep the task order.
  TaskScheduler ties({{1, 1e6, "a"}, {1, 1e6, "a"}}, options);
  ties.seed(0, 50);
  ties.seed(1, 50);
  EXPECT_EQ(ties.next(), 0u);
}

TEST(TaskSchedulerTest, RoundRobinSplitsEvenly) {
  TaskSchedulerOptions options;
  options.kind = TaskSchedulerOptions::Kind::RoundRobin;
  TaskScheduler scheduler({{10, 1e6, "a"}, {1, 1e6, "b"}, {1, 1e6, "c"}},
                          options);
  std::vector<int> rounds =
      simulate(scheduler, {100, 100, 100}, {0.9, 0.9, 0.9}, {1, 1, 1}, 30);
  EXPECT_EQ(rounds, (std::vector<int>{10, 10, 10}));
}

TEST(TaskSchedulerTest, HeavierTasksGetMoreRounds) {
  TaskSchedulerOptions options;
  options.epsilon = 0;
  // Same op, same latency and progress; task 0 occurs 10 times.
  TaskScheduler scheduler({{10, 1e6, "conv"}, {1, 1e6, "conv"}}, options);
  std::vector<int> rounds =
      simulate(scheduler, {100, 100}, {0.9, 0.9}, {1, 1}, 40);
  EXPECT_GE(rounds[0], rounds[1] + 5) << rounds[0] << " vs " << rounds[1];
  EXPECT_EQ(rounds[0] + rounds[1], 40);
}

TEST(TaskSchedulerTest, ConvergedTasksYieldToImprovingOnes) {
  TaskSchedulerOptions options;
  options.epsilon = 0;
  // Task 0 is stuck at 10 us from the start; task 1 starts at 100 us and
  // keeps improving: its latency dominates the objective.
  TaskScheduler scheduler({{1, 1e6, "a"}, {1, 1e6, "b"}}, options);
  std::vector<int> rounds =
      simulate(scheduler, {10, 100}, {1.0, 0.9}, {10, 1}, 30);
  EXPECT_GT(rounds[1], rounds[0]);
}

TEST(TaskSchedulerTest, SimilarTaskBoundCapsTheForwardGuess) {
  TaskSchedulerOptions options;
  options.epsilon = 0;
  // Tasks 0 and 1 are similar (same group, same FLOPs); task 2 is alone in
  // its group. After 4 flat rounds each, task 0 at 100 us guesses -100/4 =
  // -25 a round, but its similar task runs at 10 us, so beta * 10 - 100 =
  // -80 caps the guess: there is more to gain than the rounds alone say.
  // Task 2 at 120 us has no faster similar task: its bound (2 * 120 - 120)
  // does not bind, and it keeps -120/4 = -30.
  TaskScheduler scheduler({{1, 1e6, "g"}, {1, 1e6, "g"}, {1, 1e6, "h"}},
                          options);
  for (int round = 0; round < 4; ++round) {
    scheduler.update(0, 100);
    scheduler.update(2, 120);
  }
  scheduler.update(1, 10);
  // Flat histories: no backward term; (1 - alpha) = 0.8 of the forward one.
  EXPECT_NEAR(scheduler.getGradient(0), 0.8 * (2 * 10 - 100), 1e-9);
  EXPECT_NEAR(scheduler.getGradient(2), 0.8 * (-120.0 / 4), 1e-9);
  EXPECT_NEAR(scheduler.getGradient(1), 0.8 * (-10.0 / 1), 1e-9);
  // Without the bound task 0 (-20) would lose to task 2 (-24).
  EXPECT_EQ(scheduler.next(), 0u);
  EXPECT_DOUBLE_EQ(scheduler.getObjective(), 230);
}

TEST(TaskSchedulerTest, TasksWithoutAWorkingConfigComeFirst) {
  TaskSchedulerOptions options;
  options.epsilon = 0;
  TaskScheduler scheduler({{1, 1e6, "a"}, {1, 1e6, "b"}}, options);
  scheduler.update(0, 10);
  scheduler.update(1, std::numeric_limits<double>::infinity());
  EXPECT_EQ(scheduler.next(), 1u);
  EXPECT_TRUE(std::isinf(scheduler.getObjective()));
}

TEST(TaskSchedulerTest, ParsesKinds) {
  EXPECT_EQ(parseTaskSchedulerKind("gradient"),
            TaskSchedulerOptions::Kind::Gradient);
  EXPECT_EQ(parseTaskSchedulerKind("gradient-share"),
            TaskSchedulerOptions::Kind::GradientShare);
  EXPECT_EQ(parseTaskSchedulerKind("round-robin"),
            TaskSchedulerOptions::Kind::RoundRobin);
  EXPECT_FALSE(parseTaskSchedulerKind("fifo").has_value());
}

} // namespace
