//===- SearchDriver.cpp - Ansor's task-scheduler driver -------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Tuner/SearchDriver.h"

#include "tessel/Tuning/Tuner/TaskScheduler.h"

#include <chrono>
#include <limits>

using namespace mlir;
using namespace mlir::tessel;

TuningSession::~TuningSession() = default;
SearchDriver::~SearchDriver() = default;

/// The best latency of `state`, +inf when none is valid.
static double getBestLatency(const TaskSearchState &state) {
  const Trial *best = state.getBest();
  return best ? best->result.timing.medianUs
              : std::numeric_limits<double>::infinity();
}

/// Proposes up to `count` candidates of `state`, timing the search.
static std::vector<Candidate> propose(TuningSession &session,
                                      SearchStrategy &strategy,
                                      TaskSearchState &state, int count) {
  auto start = std::chrono::steady_clock::now();
  std::vector<Candidate> batch = strategy.propose(state, count);
  session.addSearchSeconds(std::chrono::duration<double>(
                               std::chrono::steady_clock::now() - start)
                               .count());
  return batch;
}

/// Lets `strategy` observe `trials`; its errors do not stop the run.
static void observe(SearchStrategy &strategy, TaskSearchState &state,
                    ArrayRef<Trial> trials) {
  if (llvm::Error error = strategy.observe(state, trials))
    llvm::consumeError(std::move(error));
}

namespace {
class SchedulerDriver : public SearchDriver {
public:
  SchedulerDriver(std::unique_ptr<SearchStrategy> strategy,
                  TaskSchedulerOptions::Kind kind, uint64_t seed,
                  int64_t roundsPerPick)
      : strategy(std::move(strategy)), kind(kind), seed(seed),
        roundsPerPick(roundsPerPick) {}

  void observe(TuningSession &session, size_t task,
               ArrayRef<Trial> trials) override {
    ::observe(*strategy, session.getState(task), trials);
  }

  llvm::Error run(TuningSession &session) override {
    size_t numTasks = session.getNumTasks();
    std::vector<SchedulerTask> schedulerTasks;
    for (size_t i = 0; i < numTasks; ++i) {
      const TuningTask &task = *session.getState(i).task;
      schedulerTasks.push_back(
          {static_cast<double>(task.weight), task.flops, task.opKind});
    }
    TaskSchedulerOptions options;
    options.kind = kind;
    options.seed = seed;
    TaskScheduler scheduler(schedulerTasks, options);
    // Default configs and resumed records are known before the first
    // round; every task still gets its warm-up round.
    for (size_t i = 0; i < numTasks; ++i)
      if (!session.getState(i).trials.empty())
        scheduler.seed(i, getBestLatency(session.getState(i)));

    std::vector<bool> exhausted(numTasks, false);
    while (int64_t remaining = session.getRemainingTrials()) {
      size_t index = scheduler.next();
      // An exhausted task gets no more rounds: the next live one takes it.
      for (size_t i = 0; i < numTasks && exhausted[index]; ++i)
        index = (index + 1) % numTasks;
      if (exhausted[index])
        break;
      TaskSearchState &state = session.getState(index);
      for (int64_t round = 0; round < roundsPerPick && remaining > 0;
           ++round, remaining = session.getRemainingTrials()) {
        int count = static_cast<int>(
            std::min<int64_t>(session.getMeasuresPerRound(), remaining));
        std::vector<Candidate> batch =
            propose(session, *strategy, state, count);
        if (batch.empty()) {
          // The task is exhausted (its space, or the strategy's own
          // budget). A strategy may return fewer candidates than asked for
          // (dgd proposes one window at a time); that is not an end.
          exhausted[index] = true;
          break;
        }
        std::vector<Trial> trials = session.measure(index, batch);
        ::observe(*strategy, state, trials);
      }
      scheduler.update(index, getBestLatency(state));
    }
    return llvm::Error::success();
  }

private:
  std::unique_ptr<SearchStrategy> strategy;
  TaskSchedulerOptions::Kind kind;
  uint64_t seed;
  int64_t roundsPerPick;
};
} // namespace

std::unique_ptr<SearchDriver>
tessel::createSchedulerDriver(std::unique_ptr<SearchStrategy> strategy,
                              llvm::StringRef scheduler, uint64_t seed,
                              int64_t roundsPerPick) {
  std::optional<TaskSchedulerOptions::Kind> kind =
      parseTaskSchedulerKind(scheduler);
  return std::make_unique<SchedulerDriver>(
      std::move(strategy), kind ? *kind : TaskSchedulerOptions::Kind::Gradient,
      seed, std::max<int64_t>(roundsPerPick, 1));
}

int64_t tessel::tuneTask(TuningSession &session, size_t task,
                         SearchStrategy &strategy, int64_t budget) {
  int64_t made = 0;
  while (made < budget) {
    int64_t remaining = std::min(session.getRemainingTrials(), budget - made);
    if (remaining <= 0)
      break;
    TaskSearchState &state = session.getState(task);
    int count = static_cast<int>(
        std::min<int64_t>(session.getMeasuresPerRound(), remaining));
    std::vector<Candidate> batch = propose(session, strategy, state, count);
    if (batch.empty())
      break;
    std::vector<Trial> trials = session.measure(task, batch);
    made += static_cast<int64_t>(trials.size());
    ::observe(strategy, state, trials);
  }
  return made;
}
