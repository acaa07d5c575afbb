//===- DgdSearchTest.cpp - DGD's rules on scripted models and measurements ===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// DgdSearch over integer points: neighbours, scores and measurements come
// from tables, so every window, move and early stop is known in advance.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Dgd/DgdSearch.h"

#include "gtest/gtest.h"

#include <deque>
#include <map>

using namespace mlir;
using namespace mlir::tessel;

namespace {

using Points = std::vector<unsigned>;

/// A scripted world: neighbour lists per (point, hops), model scores and
/// measured performance per point, a queue of random points.
struct World {
  std::map<std::pair<unsigned, int>, Points> neighbours;
  std::map<unsigned, double> scores;
  std::map<unsigned, double> performance;
  std::deque<unsigned> random;
  int retrains = 0;
  Points predicted;

  DgdHooks hooks() {
    DgdHooks h;
    h.neighbours = [this](unsigned p, int hops) {
      auto it = neighbours.find({p, hops});
      return it == neighbours.end() ? Points() : it->second;
    };
    h.predict = [this](llvm::ArrayRef<unsigned> points) {
      std::vector<double> s;
      for (unsigned p : points) {
        predicted.push_back(p);
        s.push_back(scores.count(p) ? scores[p] : 0.0);
      }
      return s;
    };
    h.randomPoint = [this]() -> std::optional<unsigned> {
      if (random.empty())
        return std::nullopt;
      unsigned p = random.front();
      random.pop_front();
      return p;
    };
    h.retrain = [this] { ++retrains; };
    return h;
  }

  /// Measures what `search` proposes (up to `max`) and returns it.
  Points step(DgdSearch &search, int max = 64) {
    Points batch = search.next(max);
    std::vector<std::pair<unsigned, double>> results;
    for (unsigned p : batch)
      results.push_back({p, performance.count(p) ? performance[p] : 0.0});
    if (!batch.empty())
      search.report(results);
    return batch;
  }
};

std::vector<DgdEvent::Kind> kinds(const DgdSearch &search) {
  std::vector<DgdEvent::Kind> result;
  for (const DgdEvent &e : search.getEvents())
    result.push_back(e.kind);
  return result;
}

DgdOptions small(int initial = 2, int window = 3) {
  DgdOptions o;
  o.initialSamples = initial;
  o.window = window;
  return o;
}

// The walk of the paper's Fig. 10 (window 2, 1-hop; times turned into
// performance = 1 / time): the first window measures 1.2 and 1.1, worse
// than 0.9; the second finds 0.8 and moves; then 0.3, a local optimum.
TEST(DgdSearchTest, PaperFigure10Walk) {
  World w;
  w.random = {100, 101, 1, 2};
  w.performance = {{100, 0.1}, {101, 0.2}};
  // Start point 1 (time 0.9); neighbours A=10 .. E=14.
  w.performance[1] = 1 / 0.9;
  w.neighbours[{1, 1}] = {10, 11, 12, 13};
  w.scores = {{10, 0.78}, {11, 0.75}, {12, 0.65}, {13, 0.64}, {14, 0.92}};
  w.performance[10] = 1 / 1.2;
  w.performance[11] = 1 / 1.1;
  w.performance[12] = 1 / 0.8;
  w.performance[13] = 1 / 1.0;
  // From 12: back to 1 (measured, worse) and 14.
  w.neighbours[{12, 1}] = {1, 14};
  w.performance[14] = 1 / 0.3;
  w.neighbours[{14, 1}] = {12};

  DgdSearch search(small(2, 2), w.hooks());
  EXPECT_EQ(w.step(search), (Points{100, 101})); // initial samples
  EXPECT_EQ(w.retrains, 0);
  EXPECT_EQ(w.step(search), (Points{1}));        // random start
  EXPECT_EQ(w.retrains, 1);                      // seeded
  EXPECT_EQ(w.step(search), (Points{10, 11}));   // window 1: worse
  EXPECT_EQ(search.getCurrent(), 1u);
  EXPECT_EQ(w.step(search), (Points{12, 13}));   // window 2: 12 is better
  EXPECT_EQ(search.getCurrent(), 12u);
  EXPECT_EQ(search.getHops(), 1);
  EXPECT_EQ(w.retrains, 2);                      // retrained after the move
  EXPECT_EQ(w.step(search), (Points{14}));       // only 14 is unmeasured
  EXPECT_EQ(search.getCurrent(), 14u);
  // From 14 nothing is new at 1, 2 or 3 hops: a local optimum, then a new
  // random start (2).
  EXPECT_EQ(w.step(search), (Points{2}));
  using K = DgdEvent;
  EXPECT_EQ(kinds(search),
            (std::vector<DgdEvent::Kind>{
                K::Seeded, K::Start, K::Move, K::Move, K::Exhausted, K::Widen,
                K::Exhausted, K::Widen, K::Exhausted, K::LocalOptimum,
                K::Start}));
  // 12 and 13 were ranked once, at the start point; 1 was never predicted
  // (it is measured).
  EXPECT_EQ(std::count(w.predicted.begin(), w.predicted.end(), 1u), 0);
}

// Early stop (i), "prefix": only the candidates at or above 0.6 x the top
// score are measured; the next window starts under it and widens the radius.
TEST(DgdSearchTest, ScoreThresholdPrefix) {
  World w;
  w.random = {100, 1};
  w.performance = {{100, 1.0}, {1, 5.0}};
  w.neighbours[{1, 1}] = {10, 11, 12, 13};
  w.scores = {{10, 1.0}, {11, 0.9}, {12, 0.59}, {13, 0.5}};
  w.performance[10] = 4;
  w.performance[11] = 4.5;
  w.neighbours[{1, 2}] = {20};
  w.performance[20] = 4.0;
  DgdSearch search(small(1, 3), w.hooks());
  w.step(search);
  w.step(search);
  EXPECT_EQ(w.step(search), (Points{10, 11}));
  EXPECT_EQ(w.step(search), (Points{20}));
  EXPECT_EQ(search.getHops(), 2);
  std::vector<DgdEvent::Kind> k = kinds(search);
  EXPECT_NE(std::find(k.begin(), k.end(), DgdEvent::ScoreStop), k.end());
}

// "all" (the pseudocode's literal reading): a window with any candidate
// under the threshold is not measured at all.
TEST(DgdSearchTest, ScoreThresholdAll) {
  World w;
  w.random = {100, 1};
  w.performance = {{100, 1.0}, {1, 5.0}};
  w.neighbours[{1, 1}] = {10, 11, 12, 13};
  w.scores = {{10, 1.0}, {11, 0.9}, {12, 0.59}, {13, 0.5}};
  w.neighbours[{1, 2}] = {20};
  DgdOptions o = small(1, 3);
  o.scoreStop = "all";
  DgdSearch search(o, w.hooks());
  w.step(search);
  w.step(search);
  EXPECT_EQ(w.step(search), (Points{20}));
  EXPECT_EQ(search.getEvents()[2].kind, DgdEvent::ScoreStop);
  EXPECT_EQ(search.getEvents()[2].hops, 1);
}

// Early stop (ii): a window whose best is under 0.6 x the best measurement
// so far ends the move; one at or above it lets the next window run.
TEST(DgdSearchTest, MeasureThreshold) {
  World w;
  // The initial sample 100 measures 10: the threshold is 6.
  w.random = {100, 1};
  w.performance = {{100, 10.0}, {1, 6.5}};
  w.neighbours[{1, 1}] = {10, 11, 12, 13, 14, 15};
  w.scores = {{10, 1}, {11, 1}, {12, 1}, {13, 1}, {14, 1}, {15, 1}};
  w.performance[10] = 6.2; // >= 6: go on
  w.performance[11] = 5.0;
  w.performance[12] = 5.5; // < 6: stop
  w.performance[13] = 1.0;
  w.neighbours[{1, 2}] = {20};
  DgdOptions o = small(1, 2);
  DgdSearch search(o, w.hooks());
  w.step(search);
  w.step(search);
  EXPECT_EQ(w.step(search), (Points{10, 11}));
  EXPECT_EQ(w.step(search), (Points{12, 13}));
  EXPECT_EQ(w.step(search), (Points{20}));
  std::vector<DgdEvent::Kind> k = kinds(search);
  k.resize(4);
  EXPECT_EQ(k, (std::vector<DgdEvent::Kind>{DgdEvent::Seeded, DgdEvent::Start,
                                            DgdEvent::MeasureStop,
                                            DgdEvent::Widen}));
}

// "window": best_measured is the previous window's best, as the
// pseudocode overwrites it.
TEST(DgdSearchTest, MeasureThresholdFromLastWindow) {
  World w;
  w.random = {100, 1};
  w.performance = {{100, 10.0}, {1, 6.5}};
  w.neighbours[{1, 1}] = {10, 11};
  w.scores = {{10, 1}, {11, 1}};
  w.performance[10] = 5.5;
  w.performance[11] = 1.0;
  w.neighbours[{1, 2}] = {20, 21};
  w.scores[20] = 1;
  w.scores[21] = 1;
  w.performance[20] = 3.0;
  w.performance[21] = 4.0;
  DgdOptions o = small(1, 1);
  o.bestMeasured = "window";
  DgdSearch search(o, w.hooks());
  w.step(search);
  w.step(search);
  // best_measured is 0 when the first move starts: no early stop (ii).
  EXPECT_EQ(w.step(search), (Points{10}));
  EXPECT_EQ(w.step(search), (Points{11}));
  // At 2 hops the threshold is 0.6 x 1.0 (the last window), not 0.6 x 10.
  EXPECT_EQ(w.step(search), (Points{20}));
  EXPECT_EQ(w.step(search), (Points{21}));
  for (const DgdEvent &e : search.getEvents())
    EXPECT_NE(e.kind, DgdEvent::MeasureStop);
}

// A measured neighbour that beats the current point is moved to without
// measuring.
TEST(DgdSearchTest, MovesToMeasuredBetterNeighbour) {
  World w;
  w.random = {100, 1};
  w.performance = {{100, 9.0}, {1, 2.0}};
  w.neighbours[{1, 1}] = {100, 10};
  w.neighbours[{100, 1}] = {11};
  w.scores = {{10, 1}, {11, 1}};
  DgdSearch search(small(1, 3), w.hooks());
  w.step(search);
  w.step(search);
  EXPECT_EQ(w.step(search), (Points{11}));
  EXPECT_EQ(search.getEvents()[2].kind, DgdEvent::Move);
  EXPECT_EQ(search.getEvents()[2].point, 100u);
}

// The budget counts every measurement asked for; with initialCount off, the
// initial samples are free.
TEST(DgdSearchTest, Budget) {
  for (bool initialCount : {true, false}) {
    World w;
    for (unsigned p = 100; p < 200; ++p)
      w.random.push_back(p);
    DgdOptions o = small(4, 3);
    o.budget = 7;
    o.initialCount = initialCount;
    DgdSearch search(o, w.hooks());
    int total = 0;
    for (int i = 0; i < 100 && !search.isDone(); ++i)
      total += w.step(search, 3).size();
    EXPECT_TRUE(search.isDone());
    EXPECT_EQ(total, initialCount ? 7 : 11);
    EXPECT_TRUE(search.next(64).empty());
  }
}

// Starts: the pseudocode's `i < search_budget` counts descents.
TEST(DgdSearchTest, MaxStarts) {
  World w;
  for (unsigned p = 100; p < 200; ++p)
    w.random.push_back(p);
  DgdOptions o = small(2, 3);
  o.maxStarts = 3;
  DgdSearch search(o, w.hooks());
  int total = 0;
  for (int i = 0; i < 100 && !search.isDone(); ++i)
    total += w.step(search).size();
  // No neighbours: each start is measured and is a local optimum at once.
  EXPECT_EQ(total, 2 + 3);
  std::vector<DgdEvent::Kind> k = kinds(search);
  EXPECT_EQ(std::count(k.begin(), k.end(), DgdEvent::LocalOptimum), 3);
}

// start = "best": descents start from the best measured points, in order,
// without measuring them again.
TEST(DgdSearchTest, StartFromBest) {
  World w;
  w.random = {100, 101, 102};
  w.performance = {{100, 1.0}, {101, 3.0}, {102, 2.0}};
  w.neighbours[{101, 1}] = {10};
  w.scores[10] = 1;
  w.performance[10] = 0.5;
  DgdOptions o = small(3, 3);
  o.start = "best";
  o.maxHops = 1;
  DgdSearch search(o, w.hooks());
  EXPECT_EQ(w.step(search), (Points{100, 101, 102}));
  EXPECT_EQ(w.step(search), (Points{10}));
  EXPECT_EQ(search.getEvents()[1].kind, DgdEvent::Start);
  EXPECT_EQ(search.getEvents()[1].point, 101u);
  // Then 102, 100 and 10 (no neighbours), then random points run out.
  EXPECT_TRUE(w.step(search).empty());
  EXPECT_TRUE(search.isDone());
}

// Known measurements (the default schedule, resumed records) count as
// initial samples before the first proposal.
TEST(DgdSearchTest, KnownMeasurementsSeed) {
  World w;
  for (unsigned p = 100; p < 200; ++p)
    w.random.push_back(p);
  DgdSearch search(small(4, 3), w.hooks());
  search.addKnown(7, 1.0);
  EXPECT_EQ(w.step(search).size(), 3u);
}

TEST(DgdSearchTest, ValidatesOptions) {
  DgdOptions o;
  EXPECT_EQ(o.validate(), "");
  o.scoreStop = "some";
  EXPECT_NE(o.validate(), "");
  o = DgdOptions();
  o.window = 0;
  EXPECT_NE(o.validate(), "");
  o = DgdOptions();
  o.maxHops = 0;
  EXPECT_NE(o.validate(), "");
}

} // namespace
