//===- StartPoints.cpp - Fasor's start-point database ---------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Fasor/StartPoints.h"

#include "tessel/Dialect/Tessel/IR/Schedule.h"
#include "tessel/Tuning/Records/RecordsDatabase.h"
#include "tessel/Tuning/Search/Task.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace mlir::tessel::fasor;

/// The ranks of `values` (1-based), ties sharing their mean rank.
static std::vector<double> getRanks(llvm::ArrayRef<double> values) {
  std::vector<size_t> order(values.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return values[a] < values[b]; });
  std::vector<double> ranks(values.size());
  for (size_t first = 0; first < order.size();) {
    size_t last = first;
    while (last + 1 < order.size() &&
           values[order[last + 1]] == values[order[first]])
      ++last;
    double rank = (first + last) / 2.0 + 1;
    for (size_t i = first; i <= last; ++i)
      ranks[order[i]] = rank;
    first = last + 1;
  }
  return ranks;
}

double mlir::tessel::fasor::getSpearmanSimilarity(llvm::ArrayRef<double> x,
                                                  llvm::ArrayRef<double> y) {
  if (x.size() != y.size() || x.size() < 2)
    return 0;
  std::vector<double> rx = getRanks(x), ry = getRanks(y);
  double n = x.size();
  double mean = (n + 1) / 2;
  double covariance = 0, varianceX = 0, varianceY = 0;
  for (auto [a, b] : llvm::zip_equal(rx, ry)) {
    covariance += (a - mean) * (b - mean);
    varianceX += (a - mean) * (a - mean);
    varianceY += (b - mean) * (b - mean);
  }
  if (varianceX == 0 || varianceY == 0)
    return 0;
  return covariance / std::sqrt(varianceX * varianceY);
}

void StartPointDatabase::insert(StartPoint point) {
  for (StartPoint &stored : points) {
    if (stored.key.target != point.key.target ||
        stored.key.taskKey != point.key.taskKey)
      continue;
    if (point.latencyUs < stored.latencyUs)
      stored = std::move(point);
    return;
  }
  points.push_back(std::move(point));
}

StartPointDatabase::Lookup
StartPointDatabase::lookup(const StartPointKey &key, double tau) const {
  for (const StartPoint &point : points)
    if (point.key.target == key.target && point.key.taskKey == key.taskKey)
      return {Match::Exact, &point, 1.0};
  return lookupSimilar(key, tau);
}

StartPointDatabase::Lookup
StartPointDatabase::lookupSimilar(const StartPointKey &key, double tau) const {
  Lookup best;
  for (const StartPoint &point : points) {
    if (point.key.target != key.target || point.key.taskKey == key.taskKey ||
        point.key.kernelClass != key.kernelClass)
      continue;
    double similarity =
        getSpearmanSimilarity(point.key.arguments, key.arguments);
    if (similarity < tau)
      continue;
    if (!best.point || similarity > best.similarity ||
        (similarity == best.similarity &&
         point.latencyUs < best.point->latencyUs))
      best = {Match::Similar, &point, similarity};
  }
  return best;
}

StartPointKey mlir::tessel::fasor::getStartPointKey(const TuningTask &task,
                                                    llvm::StringRef target) {
  StartPointKey key{target.str(), task.workloadKey, task.opKind, {}};
  FailureOr<LoopNest> nest = LoopNest::get(task.getTargetOp());
  if (succeeded(nest))
    for (int64_t extent : nest->extents)
      key.arguments.push_back(static_cast<double>(extent));
  return key;
}

llvm::Expected<int64_t> mlir::tessel::fasor::fillStartPoints(
    StartPointDatabase &database, RecordsDatabase &records,
    llvm::StringRef target, llvm::ArrayRef<const TuningTask *> tasks) {
  int64_t filled = 0;
  for (const TuningTask *task : tasks) {
    llvm::Expected<std::optional<BestRecord>> best =
        records.getBestRecord(task->workloadKey, target);
    if (!best)
      return best.takeError();
    if (!*best)
      continue;
    database.insert({getStartPointKey(*task, target), (*best)->sketch,
                     (*best)->config, (*best)->medianUs});
    ++filled;
  }
  return filled;
}
