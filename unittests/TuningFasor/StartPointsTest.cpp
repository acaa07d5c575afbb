//===- StartPointsTest.cpp - Fasor's start-point database -----------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Fasor/StartPoints.h"

#include "tessel/InitAllDialects.h"
#include "tessel/Tuning/Records/RecordsDatabase.h"
#include "tessel/Tuning/Search/Task.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tessel;
using namespace mlir::tessel::fasor;

namespace {

TEST(StartPointsTest, Spearman) {
  EXPECT_DOUBLE_EQ(getSpearmanSimilarity({1, 2, 3, 4}, {10, 20, 30, 40}), 1);
  EXPECT_DOUBLE_EQ(getSpearmanSimilarity({1, 2, 3, 4}, {4, 3, 2, 1}), -1);
  // Monotone, not linear: still 1.
  EXPECT_DOUBLE_EQ(getSpearmanSimilarity({1, 2, 3, 4}, {1, 8, 27, 1000}), 1);
  // Ranks 1 2 3 4 against 2 1 4 3: 1 - 6 x 4 / (4 x 15) = 0.6.
  EXPECT_NEAR(getSpearmanSimilarity({1, 2, 3, 4}, {2, 1, 4, 3}), 0.6, 1e-12);
  // Ties share their mean rank: {1, 2.5, 2.5, 4} against 1 2 3 4.
  EXPECT_NEAR(getSpearmanSimilarity({5, 7, 7, 9}, {1, 2, 3, 4}),
              4.5 / std::sqrt(4.5 * 5), 1e-12);
  // Different lengths or a constant vector: not comparable.
  EXPECT_EQ(getSpearmanSimilarity({1, 2, 3}, {1, 2}), 0);
  EXPECT_EQ(getSpearmanSimilarity({3, 3, 3}, {1, 2, 3}), 0);
}

StartPoint makePoint(std::string target, std::string task, std::string kind,
                     std::vector<double> arguments, std::string config,
                     double latency) {
  return {{std::move(target), std::move(task), std::move(kind),
           std::move(arguments)},
          "sketch",
          std::move(config),
          latency};
}

/// An exact hit wins; otherwise the most similar entry of the target's
/// same kernel class if the similarity reaches tau; else the default.
/// Matmul arguments are (M, N, K).
TEST(StartPointsTest, Lookup) {
  StartPointDatabase database;
  database.insert(
      makePoint("h100", "matmul 1024x1024x1024", "matmul", {1024, 1024, 1024},
                "A", 10));
  database.insert(
      makePoint("h100", "matmul 64x4096x256", "matmul", {64, 4096, 256}, "B",
                5));
  database.insert(makePoint("h100", "conv 1x64x56x56", "conv2d",
                            {1, 64, 56, 56, 3, 3}, "C", 7));
  database.insert(
      makePoint("a100", "matmul 128x8192x512", "matmul", {128, 8192, 512},
                "D", 3));
  // A faster program of a stored key replaces it; a slower one does not.
  database.insert(
      makePoint("h100", "matmul 1024x1024x1024", "matmul", {1024, 1024, 1024},
                "A2", 8));
  database.insert(
      makePoint("h100", "matmul 1024x1024x1024", "matmul", {1024, 1024, 1024},
                "A3", 9));
  EXPECT_EQ(database.size(), 4u);

  StartPointDatabase::Lookup exact = database.lookup(
      {"h100", "matmul 1024x1024x1024", "matmul", {1024, 1024, 1024}});
  EXPECT_EQ(exact.match, StartPointDatabase::Match::Exact);
  ASSERT_TRUE(exact.point);
  EXPECT_EQ(exact.point->config, "A2");
  EXPECT_EQ(exact.similarity, 1.0);

  // 128x8192x512 ranks its arguments as B does (1 3 2): similarity 1 (A's
  // equal extents have no ranking: 0). The A100's D is that very task, on
  // another target.
  StartPointDatabase::Lookup similar = database.lookup(
      {"h100", "matmul 128x8192x512", "matmul", {128, 8192, 512}});
  EXPECT_EQ(similar.match, StartPointDatabase::Match::Similar);
  ASSERT_TRUE(similar.point);
  EXPECT_EQ(similar.point->config, "B");
  EXPECT_DOUBLE_EQ(similar.similarity, 1.0);

  // 200x300x100 (ranks 2 3 1) against B: 0.5, below tau = 0.6: the
  // default; with tau = 0.5, B.
  StartPointKey half{"h100", "matmul 200x300x100", "matmul", {200, 300, 100}};
  StartPointDatabase::Lookup below = database.lookup(half);
  EXPECT_EQ(below.match, StartPointDatabase::Match::Default);
  EXPECT_FALSE(below.point);
  StartPointDatabase::Lookup at = database.lookup(half, 0.5);
  EXPECT_EQ(at.match, StartPointDatabase::Match::Similar);
  ASSERT_TRUE(at.point);
  EXPECT_EQ(at.point->config, "B");
  EXPECT_NEAR(at.similarity, 0.5, 1e-12);

  // 4096x64x256 (ranks 3 1 2) against B: -1. The default.
  StartPointDatabase::Lookup opposite = database.lookup(
      {"h100", "matmul 4096x64x256", "matmul", {4096, 64, 256}});
  EXPECT_EQ(opposite.match, StartPointDatabase::Match::Default);

  // Another kernel class is never a start point; another target neither.
  StartPointDatabase::Lookup otherClass = database.lookup(
      {"h100", "batch_matmul 8x64x4096x256", "batch_matmul", {64, 4096, 256}});
  EXPECT_EQ(otherClass.match, StartPointDatabase::Match::Default);
  StartPointDatabase::Lookup otherTarget = database.lookup(
      {"t4", "matmul 64x4096x256", "matmul", {64, 4096, 256}});
  EXPECT_EQ(otherTarget.match, StartPointDatabase::Match::Default);

  // lookupSimilar never answers with the key's own entry: B's own key
  // finds no other task ranked like it.
  StartPointKey b{"h100", "matmul 64x4096x256", "matmul", {64, 4096, 256}};
  EXPECT_EQ(database.lookup(b).match, StartPointDatabase::Match::Exact);
  EXPECT_EQ(database.lookupSimilar(b).match,
            StartPointDatabase::Match::Default);
  database.insert(makePoint("h100", "matmul 32x2048x128", "matmul",
                            {32, 2048, 128}, "E", 2));
  StartPointDatabase::Lookup other = database.lookupSimilar(b);
  EXPECT_EQ(other.match, StartPointDatabase::Match::Similar);
  ASSERT_TRUE(other.point);
  EXPECT_EQ(other.point->config, "E");
}

/// Start points filled from a records database: the fastest ok schedule of
/// each task on the target; a task never measured there gets none. Its
/// key's arguments are the loop extents, so a third matmul finds the
/// closest recorded one.
TEST(StartPointsTest, FilledFromRecords) {
  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"mlir(
func.func @f(%a: tensor<64x256xf32>, %b: tensor<256x4096xf32>, %c: tensor<64x4096xf32>,
             %x: tensor<512x512xf32>, %y: tensor<512x128xf32>, %z: tensor<512x128xf32>)
    -> (tensor<64x4096xf32>, tensor<512x128xf32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<64x256xf32>, tensor<256x4096xf32>) outs(%c : tensor<64x4096xf32>) -> tensor<64x4096xf32>
  %1 = linalg.matmul ins(%x, %y : tensor<512x512xf32>, tensor<512x128xf32>) outs(%z : tensor<512x128xf32>) -> tensor<512x128xf32>
  return %0, %1 : tensor<64x4096xf32>, tensor<512x128xf32>
})mlir",
                                                             &context);
  ASSERT_TRUE(module);
  auto tasks = extractTasks(*module, &context);
  ASSERT_TRUE(static_cast<bool>(tasks));
  ASSERT_EQ(tasks->size(), 2u);

  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("fasor-records", "db", path));
  llvm::sys::fs::remove(path);
  {
    auto records = RecordsDatabase::open(path, RecordsDatabase::OpenMode::CreateOrOpen);
    ASSERT_TRUE(static_cast<bool>(records))
        << llvm::toString(records.takeError());
    RunInfo run;
    run.strategy = "evolutionary";
    run.measurer = "sim:h100-sxm";
    run.simulated = true;
    int64_t runId = cantFail((*records)->beginRun(run));
    const TuningTask &first = (*tasks)[0];
    int64_t task = cantFail((*records)->getOrAddTask(
        first.workloadKey, first.opKind, 0, 1, first.describe()));
    int64_t sketch = cantFail((*records)->getOrAddSketch(task, "S"));
    for (auto [config, medianUs] :
         {std::pair{"slow", 30.0}, std::pair{"fast", 20.0}}) {
      int64_t id = cantFail((*records)->getOrAddConfig(sketch, config));
      MeasureResult result;
      result.status = MeasureStatus::Ok;
      result.timing.medianUs = medianUs;
      result.timing.repeats = 1;
      result.device = "sim:h100-sxm";
      result.simulated = true;
      cantFail((*records)->addMeasurement(runId, id, result, 1, 0));
    }
    StartPointDatabase database;
    std::vector<const TuningTask *> all = {&(*tasks)[0], &(*tasks)[1]};
    EXPECT_EQ(cantFail(fillStartPoints(database, **records, "sim:h100-sxm",
                                       all)),
              1);
    EXPECT_EQ(cantFail(fillStartPoints(database, **records, "sim:a100", all)),
              0);
    ASSERT_EQ(database.size(), 1u);
    StartPointDatabase::Lookup exact =
        database.lookup(getStartPointKey(first, "sim:h100-sxm"));
    EXPECT_EQ(exact.match, StartPointDatabase::Match::Exact);
    ASSERT_TRUE(exact.point);
    EXPECT_EQ(exact.point->config, "fast");
    EXPECT_EQ(exact.point->sketch, "S");
    EXPECT_EQ(exact.point->latencyUs, 20);
    EXPECT_EQ(exact.point->key.arguments, (std::vector<double>{64, 4096, 256}));
    // 128x8192x512 ranks like 64x4096x256.
    StartPointDatabase::Lookup similar = database.lookup(
        {"sim:h100-sxm", "other", first.opKind, {128, 8192, 512}});
    EXPECT_EQ(similar.match, StartPointDatabase::Match::Similar);
  }
  llvm::sys::fs::remove(path);
}

} // namespace
