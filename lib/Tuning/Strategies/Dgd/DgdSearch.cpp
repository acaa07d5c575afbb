//===- DgdSearch.cpp - Dynamic gradient descent over abstract points ------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The rules are listed in docs/Dgd.md; keep the two in sync.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Dgd/DgdSearch.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::tessel;

std::string DgdOptions::validate() const {
  if (initialSamples < 0)
    return "dgd initial samples must be at least 0";
  if (window < 1)
    return "dgd window must be at least 1";
  if (!(scoreRatio >= 0) || !(measureRatio >= 0))
    return "dgd score and measure ratios must be at least 0";
  if (maxHops < 1)
    return "dgd max hops must be at least 1";
  if (scoreStop != "prefix" && scoreStop != "all")
    return "dgd score stop must be 'prefix' or 'all', not '" + scoreStop + "'";
  if (bestMeasured != "running" && bestMeasured != "window")
    return "dgd best measured must be 'running' or 'window', not '" +
           bestMeasured + "'";
  if (start != "random" && start != "best")
    return "dgd start must be 'random' or 'best', not '" + start + "'";
  if (retrain != "move" && retrain != "window")
    return "dgd retrain must be 'move' or 'window', not '" + retrain + "'";
  if (vectorWidths != "keep" && vectorWidths != "widest")
    return "dgd vector widths must be 'keep' or 'widest', not '" +
           vectorWidths + "'";
  if (budget < 0 || maxStarts < 0 || timeLimit < 0)
    return "dgd budget, max starts and time limit must be at least 0";
  return "";
}

DgdSearch::DgdSearch(DgdOptions options, DgdHooks hooks)
    : options(std::move(options)), hooks(std::move(hooks)) {}

void DgdSearch::addKnown(PointId point, double performance) {
  measured[point] = performance;
  untrainedData = true;
  if (options.bestMeasured == "running")
    bestMeasured = std::max(bestMeasured, performance);
}

int64_t DgdSearch::budgetLeft() const {
  if (options.budget <= 0)
    return std::numeric_limits<int64_t>::max();
  return std::max<int64_t>(0, options.budget - budgetUsed);
}

void DgdSearch::finish() {
  if (phase == Phase::Done)
    return;
  phase = Phase::Done;
  events.push_back({DgdEvent::Done, current.value_or(0), hops, 0});
}

void DgdSearch::maybeRetrain() {
  if (!untrainedData)
    return;
  untrainedData = false;
  if (hooks.retrain)
    hooks.retrain();
}

void DgdSearch::moveTo(PointId point, double performance) {
  current = point;
  currentPerformance = performance;
  hops = 1;
  ranked = false;
  phase = Phase::Search;
  events.push_back({DgdEvent::Move, point, hops, performance});
  if (options.retrain == "move")
    maybeRetrain();
}

void DgdSearch::noImprovement() {
  ranked = false;
  ++hops;
  if (hops > options.maxHops) {
    events.push_back({DgdEvent::LocalOptimum, current.value_or(0), hops - 1,
                      currentPerformance});
    maybeRetrain();
    current.reset();
    hops = 1;
    phase = Phase::NeedStart;
    return;
  }
  events.push_back({DgdEvent::Widen, current.value_or(0), hops, 0});
  phase = Phase::Search;
}

bool DgdSearch::buildRanking() {
  std::vector<PointId> neighbours = hooks.neighbours(*current, hops);
  // A neighbour measured before that beats the current point: move there
  // without measuring anything.
  std::optional<PointId> bestKnown;
  double bestKnownValue = currentPerformance;
  std::vector<PointId> unmeasured;
  for (PointId point : neighbours) {
    auto it = measured.find(point);
    if (it == measured.end()) {
      unmeasured.push_back(point);
      continue;
    }
    if (it->second > bestKnownValue) {
      bestKnown = point;
      bestKnownValue = it->second;
    }
  }
  if (bestKnown) {
    moveTo(*bestKnown, bestKnownValue);
    return false;
  }
  std::vector<double> scores;
  if (!unmeasured.empty())
    scores = hooks.predict(unmeasured);
  scores.resize(unmeasured.size(), 0.0);
  ranking.clear();
  for (auto [point, score] : llvm::zip(unmeasured, scores))
    ranking.push_back({std::isfinite(score) ? score : 0.0, point});
  std::stable_sort(
      ranking.begin(), ranking.end(),
      [](const auto &a, const auto &b) { return a.first > b.first; });
  position = 0;
  ranked = true;
  double top = ranking.empty() ? 0.0 : ranking.front().first;
  scoreThreshold = top > 0 ? options.scoreRatio * top
                           : -std::numeric_limits<double>::infinity();
  measureThreshold = options.measureRatio * bestMeasured;
  return true;
}

std::vector<DgdSearch::PointId> DgdSearch::next(int max) {
  if (!started) {
    started = true;
    initLeft = std::max<int>(0, options.initialSamples -
                                    static_cast<int>(measured.size()));
  }
  // A batch that was never reported: its points count as failed.
  if (phase == Phase::AwaitStart || phase == Phase::AwaitWindow ||
      (phase == Phase::Init && initPending > 0))
    report({});
  if (max <= 0)
    return {};
  // Each pass either returns, or changes the state towards a return; the
  // bound only guards against a neighbour function that keeps offering
  // free moves forever (it cannot: moves strictly improve).
  for (int guard = 0; guard < 1000000; ++guard) {
    switch (phase) {
    case Phase::Done:
      return {};
    case Phase::Init: {
      if (initLeft > 0) {
        int64_t k = std::min<int64_t>(max, initLeft);
        if (options.initialCount)
          k = std::min(k, budgetLeft());
        if (k == 0) {
          finish();
          return {};
        }
        std::vector<PointId> points;
        while (static_cast<int64_t>(points.size()) < k) {
          std::optional<PointId> point = hooks.randomPoint();
          if (!point)
            break;
          points.push_back(*point);
        }
        if (!points.empty()) {
          initLeft -= points.size();
          initPending = points.size();
          pending = points;
          if (options.initialCount)
            budgetUsed += points.size();
          return points;
        }
        initLeft = 0;
      }
      events.push_back({DgdEvent::Seeded, 0, 0, bestMeasured});
      maybeRetrain();
      phase = Phase::NeedStart;
      continue;
    }
    case Phase::NeedStart: {
      if (options.maxStarts > 0 && starts >= options.maxStarts) {
        finish();
        return {};
      }
      if (options.start == "best") {
        std::optional<PointId> best;
        double bestValue = -1;
        for (auto [point, value] : measured)
          if (!usedStarts.contains(point) &&
              (value > bestValue ||
               (value == bestValue && best && point < *best))) {
            best = point;
            bestValue = value;
          }
        if (best && bestValue > 0) {
          usedStarts.insert(*best);
          ++starts;
          current = *best;
          currentPerformance = bestValue;
          hops = 1;
          ranked = false;
          phase = Phase::Search;
          events.push_back({DgdEvent::Start, *best, hops, bestValue});
          continue;
        }
      }
      if (budgetLeft() == 0) {
        finish();
        return {};
      }
      std::optional<PointId> point = hooks.randomPoint();
      if (!point) {
        finish();
        return {};
      }
      ++starts;
      usedStarts.insert(*point);
      pending = {*point};
      ++budgetUsed;
      phase = Phase::AwaitStart;
      return pending;
    }
    case Phase::Search: {
      if (!ranked && !buildRanking())
        continue;
      if (position >= ranking.size()) {
        events.push_back({DgdEvent::Exhausted, *current, hops, 0});
        noImprovement();
        continue;
      }
      size_t end = std::min(ranking.size(),
                            position + static_cast<size_t>(options.window));
      size_t take = end - position;
      bool below = false;
      for (size_t i = position; i < end; ++i)
        if (ranking[i].first < scoreThreshold)
          below = true;
      if (below) {
        if (options.scoreStop == "all") {
          take = 0;
        } else {
          take = 0;
          while (position + take < end &&
                 ranking[position + take].first >= scoreThreshold)
            ++take;
        }
      }
      if (take == 0) {
        events.push_back(
            {DgdEvent::ScoreStop, *current, hops, ranking[position].first});
        noImprovement();
        continue;
      }
      take = std::min<int64_t>({static_cast<int64_t>(take),
                                static_cast<int64_t>(max), budgetLeft()});
      if (take == 0) {
        finish();
        return {};
      }
      pending.clear();
      for (size_t i = position; i < position + take; ++i)
        pending.push_back(ranking[i].second);
      // A window cut short by the threshold: the next one starts under it
      // and stops the move (ScoreStop) unless this one moves.
      position += take;
      budgetUsed += take;
      phase = Phase::AwaitWindow;
      return pending;
    }
    case Phase::AwaitStart:
    case Phase::AwaitWindow:
      return {};
    }
  }
  finish();
  return {};
}

void DgdSearch::report(llvm::ArrayRef<std::pair<PointId, double>> results) {
  llvm::DenseMap<PointId, double> values;
  for (auto [point, value] : results)
    values[point] = value;
  // Every pending point gets a value; unreported ones failed.
  std::optional<PointId> best;
  double bestValue = -1;
  for (PointId point : pending) {
    auto it = values.find(point);
    double value = it == values.end() ? 0.0 : it->second;
    measured[point] = value;
    untrainedData = true;
    if (value > bestValue) {
      best = point;
      bestValue = value;
    }
  }
  // Measurements DgdSearch did not ask for.
  for (auto [point, value] : results)
    if (!llvm::is_contained(pending, point))
      addKnown(point, value);
  pending.clear();

  switch (phase) {
  case Phase::Init:
    initPending = 0;
    if (options.bestMeasured == "running" && best)
      bestMeasured = std::max(bestMeasured, bestValue);
    if (options.retrain == "window")
      maybeRetrain();
    return;
  case Phase::AwaitStart:
    if (!best) {
      phase = Phase::NeedStart;
      return;
    }
    if (options.bestMeasured == "running")
      bestMeasured = std::max(bestMeasured, bestValue);
    current = *best;
    currentPerformance = bestValue;
    hops = 1;
    ranked = false;
    phase = Phase::Search;
    events.push_back({DgdEvent::Start, *best, hops, bestValue});
    if (options.retrain == "window")
      maybeRetrain();
    return;
  case Phase::AwaitWindow: {
    if (!best) {
      phase = Phase::Search;
      return;
    }
    if (options.bestMeasured == "running")
      bestMeasured = std::max(bestMeasured, bestValue);
    else
      bestMeasured = bestValue;
    if (bestValue > currentPerformance) {
      moveTo(*best, bestValue);
    } else if (bestValue < measureThreshold) {
      events.push_back({DgdEvent::MeasureStop, *current, hops, bestValue});
      noImprovement();
    } else {
      phase = Phase::Search;
    }
    if (options.retrain == "window")
      maybeRetrain();
    return;
  }
  default:
    return;
  }
}
