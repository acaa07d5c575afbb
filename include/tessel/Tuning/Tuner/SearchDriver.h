//===- SearchDriver.h - Who tunes which task next ---------------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// tune() sets a run up (measurer, builder, records, tasks, default schedules)
// and hands the rounds to a SearchDriver through a TuningSession. The default
// driver is Ansor's: a task scheduler picks the next task and one strategy
// proposes its candidates. A strategy that tunes an operator set its own way
// (ETO: roots by a backend strategy, the rest by reuse, in tree order)
// registers a driver factory (StrategyInfo::createDriver) instead.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_TUNER_SEARCHDRIVER_H
#define TESSEL_TUNING_TUNER_SEARCHDRIVER_H

#include "tessel/Tuning/Device.h"
#include "tessel/Tuning/Tuner/Strategy.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir {
namespace tessel {

class RecordsDatabase;

/// What a run offers its driver.
class TuningSession {
public:
  virtual ~TuningSession();

  /// The run's tasks: the model's, then those added by addTask().
  virtual size_t getNumTasks() const = 0;
  /// The search state of `task` (its trials include resumed ones and the
  /// default schedule). References stay valid when tasks are added.
  virtual TaskSearchState &getState(size_t task) = 0;
  /// Adds a task that is tuned (and recorded) but is not part of the model,
  /// as ETO's bridge operators; returns its index.
  virtual llvm::Expected<size_t> addTask(TuningTask task) = 0;

  /// Builds, measures, records (state and database) and counts
  /// `candidates` of `task`; reports progress. Returns the trials, in the
  /// order of `candidates`, less those the measurer withdrew unmeasured
  /// (the run stopped while they waited in a queue). Does not call any
  /// strategy's observe().
  virtual std::vector<Trial> measure(size_t task,
                                     llvm::ArrayRef<Candidate> candidates) = 0;
  /// Measurements the run may still make: the trial budget left, 0 once
  /// the budget or the time limit is spent.
  virtual int64_t getRemainingTrials() const = 0;
  /// Candidates per round (the run's option or the strategy's default).
  virtual int64_t getMeasuresPerRound() const = 0;
  /// Adds seconds of search time (proposing candidates) to the run's total.
  virtual void addSearchSeconds(double seconds) = 0;

  virtual uint64_t getSeed() const = 0;
  virtual const DeviceDescription &getDevice() const = 0;
  /// The records database and the run's target there ("sim:h100:analytic").
  virtual RecordsDatabase &getDatabase() = 0;
  virtual llvm::StringRef getTarget() const = 0;
  /// The run's id in the database (its records are this run's, not stored
  /// ones a driver may reuse).
  virtual int64_t getRunId() const = 0;
  /// A line for the user.
  virtual void note(const llvm::Twine &text) = 0;
};

/// Drives the rounds of a run.
class SearchDriver {
public:
  virtual ~SearchDriver();
  /// Trials of `task` measured before the driver's rounds: restored from
  /// the records (resume) and the default schedule.
  virtual void observe(TuningSession &session, size_t task,
                       llvm::ArrayRef<Trial> trials) {}
  /// Tunes until the session's budget is spent or the driver is done.
  virtual llvm::Error run(TuningSession &session) = 0;
};

/// Ansor's driver: each round the task scheduler (`scheduler`:
/// "gradient-share", "gradient" or "round-robin", with `seed`) picks a task
/// and `strategy` proposes up to the measures per round of it; a task
/// whose proposal comes back empty is exhausted. `roundsPerPick` rounds of
/// a picked task run before the scheduler picks again (a strategy that
/// measures one candidate a round, as fasor, would otherwise give the
/// scheduler too little to judge a task by).
std::unique_ptr<SearchDriver>
createSchedulerDriver(std::unique_ptr<SearchStrategy> strategy,
                      llvm::StringRef scheduler, uint64_t seed,
                      int64_t roundsPerPick = 1);

/// Proposes and measures rounds of `task` with `strategy` until it has made
/// `budget` measurements, the strategy proposes none, or the session's
/// budget is spent; the strategy observes each round. Returns the number of
/// measurements made. For drivers that tune tasks one after another.
int64_t tuneTask(TuningSession &session, size_t task, SearchStrategy &strategy,
                 int64_t budget);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_TUNER_SEARCHDRIVER_H
