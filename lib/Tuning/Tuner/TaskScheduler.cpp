//===- TaskScheduler.cpp - Which task gets the next round -----------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Tuner/TaskScheduler.h"

#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::tessel;

static constexpr double kInfinity = std::numeric_limits<double>::infinity();

std::optional<TaskSchedulerOptions::Kind>
tessel::parseTaskSchedulerKind(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<TaskSchedulerOptions::Kind>>(name)
      .Case("gradient", TaskSchedulerOptions::Kind::Gradient)
      .Case("gradient-share", TaskSchedulerOptions::Kind::GradientShare)
      .Case("round-robin", TaskSchedulerOptions::Kind::RoundRobin)
      .Default(std::nullopt);
}

TaskScheduler::TaskScheduler(std::vector<SchedulerTask> tasks,
                             TaskSchedulerOptions options)
    : tasks(std::move(tasks)), options(options),
      rounds(this->tasks.size(), 0), history(this->tasks.size()),
      state(options.seed) {}

uint64_t TaskScheduler::nextRandom() {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

double TaskScheduler::best(size_t task) const {
  return history[task].empty() ? kInfinity : history[task].back();
}

double TaskScheduler::getObjective() const {
  double total = 0;
  for (size_t i = 0; i < tasks.size(); ++i)
    total += tasks[i].weight * best(i);
  return total;
}

double TaskScheduler::getGradient(size_t task) const {
  const std::vector<double> &h = history[task];
  double g = best(task);
  int t = rounds[task];
  if (h.empty() || !std::isfinite(g) || t == 0)
    return -kInfinity; // Nothing works yet: any round helps most.
  // Backward: the recent improvement per round.
  int window = std::min<int>(options.backwardWindow, h.size() - 1);
  double backward = 0;
  if (window > 0) {
    double earlier = h[h.size() - 1 - window];
    if (std::isfinite(earlier))
      backward = (g - earlier) / window;
  }
  // Forward: the optimistic guess that t more rounds remove g entirely
  // (-g/t), capped by how far the task is from beta times the throughput of
  // the best similar task.
  double forward = -g / t;
  double bestThroughput = 0; // FLOPs per microsecond
  for (size_t k = 0; k < tasks.size(); ++k) {
    if (tasks[k].group != tasks[task].group || !std::isfinite(best(k)) ||
        best(k) <= 0)
      continue;
    bestThroughput = std::max(bestThroughput, tasks[k].flops / best(k));
  }
  if (bestThroughput > 0)
    forward = std::min(forward, options.beta * tasks[task].flops /
                                        bestThroughput -
                                    g);
  return tasks[task].weight *
         (options.alpha * backward + (1 - options.alpha) * forward);
}

size_t TaskScheduler::next() {
  size_t n = tasks.size();
  if (options.kind == TaskSchedulerOptions::Kind::RoundRobin)
    return roundRobin++ % n;
  // Warm-up: every task once, in order (Ansor) or largest share first.
  std::optional<size_t> warmUp;
  for (size_t i = 0; i < n; ++i) {
    if (rounds[i] != 0)
      continue;
    if (options.kind == TaskSchedulerOptions::Kind::Gradient)
      return i;
    if (!warmUp || tasks[i].weight * best(i) > tasks[*warmUp].weight *
                                                   best(*warmUp))
      warmUp = i;
  }
  if (warmUp)
    return *warmUp;
  double draw = static_cast<double>(nextRandom() >> 11) * 0x1.0p-53;
  if (draw < options.epsilon)
    return nextRandom() % n;
  size_t chosen = 0;
  double steepest = kInfinity;
  for (size_t i = 0; i < n; ++i) {
    double gradient = getGradient(i);
    if (gradient < steepest) {
      steepest = gradient;
      chosen = i;
    }
  }
  return chosen;
}

void TaskScheduler::update(size_t task, double bestLatencyUs) {
  ++rounds[task];
  history[task].push_back(bestLatencyUs);
}

void TaskScheduler::seed(size_t task, double bestLatencyUs) {
  history[task].push_back(bestLatencyUs);
}
