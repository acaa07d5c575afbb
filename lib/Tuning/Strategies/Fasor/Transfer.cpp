//===- Transfer.cpp - Moving Fasor's cost model to a new device -----------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Fasor/Transfer.h"

#include "tessel/Tuning/Strategies/Fasor/ScheduleTokens.h"
#include "tessel/Tuning/Strategies/Fasor/StartPoints.h"

#include "llvm/ADT/StringSet.h"

#include <algorithm>
#include <limits>
#include <numeric>

using namespace mlir::tessel::fasor;

std::vector<size_t>
mlir::tessel::fasor::selectDiverseTasks(llvm::ArrayRef<std::vector<double>> features,
                                        size_t k) {
  size_t n = features.size();
  std::vector<size_t> all(n);
  std::iota(all.begin(), all.end(), 0);
  if (n <= k)
    return all;
  std::vector<std::vector<double>> distance(n, std::vector<double>(n, 0));
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + 1; j < n; ++j)
      distance[i][j] = distance[j][i] =
          1.0 - getSpearmanSimilarity(features[i], features[j]);
  auto total = [&](size_t item, llvm::ArrayRef<size_t> others) {
    double sum = 0;
    for (size_t other : others)
      sum += distance[item][other];
    return sum;
  };
  // Farthest-first traversal from the most central item.
  std::vector<size_t> medoids = {*std::min_element(
      all.begin(), all.end(),
      [&](size_t a, size_t b) { return total(a, all) < total(b, all); })};
  while (medoids.size() < k) {
    size_t farthest = 0;
    double best = -1;
    for (size_t item = 0; item < n; ++item) {
      double nearest = std::numeric_limits<double>::infinity();
      for (size_t medoid : medoids)
        nearest = std::min(nearest, distance[item][medoid]);
      if (nearest > best) {
        best = nearest;
        farthest = item;
      }
    }
    medoids.push_back(farthest);
  }
  // k-medoids: assign, move each medoid to its cluster's centre, repeat.
  for (int iteration = 0; iteration < 100; ++iteration) {
    std::vector<std::vector<size_t>> clusters(k);
    for (size_t item = 0; item < n; ++item) {
      size_t nearest = 0;
      for (size_t c = 1; c < k; ++c)
        if (distance[item][medoids[c]] < distance[item][medoids[nearest]])
          nearest = c;
      clusters[nearest].push_back(item);
    }
    bool moved = false;
    for (size_t c = 0; c < k; ++c) {
      if (clusters[c].empty())
        continue;
      size_t centre = *std::min_element(
          clusters[c].begin(), clusters[c].end(), [&](size_t a, size_t b) {
            return total(a, clusters[c]) < total(b, clusters[c]);
          });
      if (total(centre, clusters[c]) < total(medoids[c], clusters[c])) {
        medoids[c] = centre;
        moved = true;
      }
    }
    if (!moved)
      break;
  }
  std::sort(medoids.begin(), medoids.end());
  medoids.erase(std::unique(medoids.begin(), medoids.end()), medoids.end());
  return medoids;
}

std::vector<double>
mlir::tessel::fasor::getTaskFeatures(const LabeledSchedule &schedule) {
  const std::vector<float> &task = schedule.sample.tokens.front();
  return std::vector<double>(task.begin(), task.begin() + kTaskValues);
}

llvm::Expected<TransferResult>
mlir::tessel::fasor::transfer(TransformerCostModel &model,
                              llvm::ArrayRef<LabeledSchedule> dataset,
                              const TransferOptions &options) {
  // One feature vector per task, in order of appearance.
  std::vector<std::string> keys;
  std::vector<std::vector<double>> features;
  llvm::StringSet<> seen;
  for (const LabeledSchedule &labeled : dataset)
    if (seen.insert(labeled.workloadKey).second) {
      keys.push_back(labeled.workloadKey);
      features.push_back(getTaskFeatures(labeled));
    }
  if (keys.size() <= options.tasks)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "fasor: transfer needs more tasks than it measures, to evaluate on");
  TransferResult result;
  llvm::StringSet<> measured;
  for (size_t index : selectDiverseTasks(features, options.tasks)) {
    result.measuredTasks.push_back(keys[index]);
    measured.insert(keys[index]);
  }
  std::vector<Sample> samples;
  std::vector<LabeledSchedule> evaluation;
  for (const LabeledSchedule &labeled : dataset) {
    if (measured.contains(labeled.workloadKey))
      samples.push_back(labeled.sample);
    else
      evaluation.push_back(labeled);
  }
  result.measuredSchedules = samples.size();
  result.evaluatedSchedules = evaluation.size();
  llvm::Expected<RSquared> before = evaluate(model, evaluation);
  if (!before)
    return before.takeError();
  result.before = *before;
  llvm::Expected<std::vector<double>> losses =
      model.train(samples, options.fineTune);
  if (!losses)
    return losses.takeError();
  llvm::Expected<RSquared> after = evaluate(model, evaluation);
  if (!after)
    return after.takeError();
  result.after = *after;
  return result;
}
