//===- StartPoints.h - Fasor's start-point database -------------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Stage 1 of Fasor's exploration (seed 004, section 6): the search starts
// from the best schedule known for the task on its target, else from the
// best schedule of the most similar task of the same kernel class when the
// Spearman similarity of their arguments reaches tau (0.6), else from the
// default schedule.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_STRATEGIES_FASOR_STARTPOINTS_H
#define TESSEL_TUNING_STRATEGIES_FASOR_STARTPOINTS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir {
namespace tessel {
namespace fasor {

/// Spearman's rank correlation of `x` and `y` (Pearson's correlation of
/// their ranks, ties ranked by their mean position), in [-1, 1]. 0 when the
/// sizes differ, are below 2, or either vector is constant.
double getSpearmanSimilarity(llvm::ArrayRef<double> x,
                             llvm::ArrayRef<double> y);

/// The key of a start point (the paper's Tab. 3): the target (a device
/// name), the task's workload key, its kernel class (the op sequence,
/// e.g. "linalg.matmul+linalg.generic") and its arguments (loop extents and
/// attributes as numbers, in a fixed order per kernel class).
struct StartPointKey {
  std::string target;
  std::string taskKey;
  std::string kernelClass;
  std::vector<double> arguments;
};

/// A stored start point: the best schedule found for its key.
struct StartPoint {
  StartPointKey key;
  /// The schedule, as the records database stores it (sketch and config).
  std::string sketch;
  std::string config;
  double latencyUs = 0;
};

/// The best schedule per (target, task key).
class StartPointDatabase {
public:
  /// How a lookup was answered.
  enum class Match { Exact, Similar, Default };
  struct Lookup {
    Match match = Match::Default;
    /// The start point (null for Default).
    const StartPoint *point = nullptr;
    /// Its arguments' Spearman similarity to the query (1 when exact).
    double similarity = 0;
  };

  /// Keeps `point` unless a faster one of the same target and task key is
  /// stored.
  void insert(StartPoint point);
  /// The start point of `key`: the same target and task key (Exact), else
  /// the most similar arguments among the target's entries of the same
  /// kernel class if that similarity is at least `tau` (Similar; ties go to
  /// the faster entry), else Default.
  Lookup lookup(const StartPointKey &key, double tau = 0.6) const;
  /// The Similar part of lookup(): the most similar entry of another task
  /// key, or Default.
  Lookup lookupSimilar(const StartPointKey &key, double tau = 0.6) const;

  size_t size() const { return points.size(); }

private:
  std::vector<StartPoint> points;
};

} // namespace fasor

class RecordsDatabase;
struct TuningTask;

namespace fasor {

/// The start-point key of `task` on `target`: its workload key, its op kind
/// as the kernel class and its loop extents as the arguments.
StartPointKey getStartPointKey(const TuningTask &task, llvm::StringRef target);

/// Adds to `database` the fastest `ok` schedule recorded in `records` on
/// `target` for each of `tasks`; returns how many tasks had one.
llvm::Expected<int64_t> fillStartPoints(StartPointDatabase &database,
                                        RecordsDatabase &records,
                                        llvm::StringRef target,
                                        llvm::ArrayRef<const TuningTask *> tasks);

} // namespace fasor
} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_STRATEGIES_FASOR_STARTPOINTS_H
