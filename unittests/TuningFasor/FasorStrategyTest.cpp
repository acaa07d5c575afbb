//===- FasorStrategyTest.cpp - Fasor through tune() -----------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "../Tuner/FakeMeasurer.h"
#include "FasorTestUtils.h"

#include "tessel/Tuning/Records/RecordsDatabase.h"
#include "tessel/Tuning/Strategies/Fasor/Actions.h"
#include "tessel/Tuning/Tuner/Strategy.h"
#include "tessel/Tuning/Tuner/Tuner.h"

#include "mlir/AsmParser/AsmParser.h"
#include "llvm/Support/FileSystem.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tessel;
using namespace mlir::tessel::fasor;

namespace {

class FasorStrategyTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(source.module);
    auto found = findDevice("h100");
    ASSERT_TRUE(static_cast<bool>(found)) << llvm::toString(found.takeError());
    environment.measurer = &measurer;
    environment.device = *found;
    llvm::SmallString<128> path;
    ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("fasor-test", "db", path));
    dbPath = path.str().str();
    llvm::sys::fs::remove(dbPath);
    auto opened =
        RecordsDatabase::open(dbPath, RecordsDatabase::OpenMode::CreateOrOpen);
    ASSERT_TRUE(static_cast<bool>(opened))
        << llvm::toString(opened.takeError());
    db = std::move(*opened);
    options.simFidelity = "analytic";
    options.trials = 6;
    options.seed = 9;
  }
  void TearDown() override {
    db.reset();
    llvm::sys::fs::remove(dbPath);
  }

  /// The run's records, oldest first, as "sketch config" keys.
  std::vector<MeasurementRecord> getRecords(int64_t runId) {
    auto records = db->getRunMeasurements(runId);
    EXPECT_TRUE(static_cast<bool>(records))
        << llvm::toString(records.takeError());
    return records ? *records : std::vector<MeasurementRecord>();
  }

  TaskModule source{kMatmulModule};
  MLIRContext &context = source.context;
  ModuleOp module = *source.module;
  FakeMeasurer measurer;
  TuneEnvironment environment;
  TuneOptions options;
  std::string dbPath;
  std::unique_ptr<RecordsDatabase> db;
};

/// A tiny run with a fresh model (trained online): one measurement per
/// round, each a single knob move from the best schedule measured before
/// it, so the run walks from the default schedule; the same seed gives the
/// same records.
TEST_F(FasorStrategyTest, WalksFromTheBestScheduleThroughTune) {
  options.strategy = "fasor";
  int rounds = 0;
  TuneCallbacks callbacks;
  callbacks.onRound = [&](const TuneProgress &) { ++rounds; };
  auto result = tune(module, options, *db, callbacks, environment);
  ASSERT_TRUE(static_cast<bool>(result)) << llvm::toString(result.takeError());
  EXPECT_EQ(result->trials, 6);
  EXPECT_EQ(rounds, 6);
  std::vector<MeasurementRecord> records = getRecords(result->runId);
  ASSERT_EQ(records.size(), 7u);

  // Every move is one action of the space of the best schedule so far.
  std::vector<TuningTask> tasks = source.extract();
  ASSERT_EQ(tasks.size(), 1u);
  TaskSearchState state =
      TaskSearchState::create(tasks.front(), *environment.device, 1);
  auto parse = [&](const MeasurementRecord &record) {
    auto sketch = cast<SketchAttr>(parseAttribute(record.sketch, &context));
    auto config = cast<ConfigAttr>(parseAttribute(record.config, &context));
    return std::make_pair(sketch, config);
  };
  const Primitive knobs[] = {Primitive::Split, Primitive::Vectorization,
                             Primitive::Unrolling, Primitive::Parallel,
                             Primitive::ComputeAt};
  auto best = parse(records.front());
  std::string bestText = records.front().config;
  double bestUs = records.front().timing.medianUs;
  for (size_t i = 1; i < records.size(); ++i) {
    auto [sketch, config] = parse(records[i]);
    EXPECT_EQ(sketch, best.first) << "trial " << i;
    const SearchSpace *space = nullptr;
    for (const SearchSpace &s : state.spaces)
      if (s.getSketch() == sketch)
        space = &s;
    ASSERT_NE(space, nullptr);
    bool oneMove = false;
    for (const Action &action : enumerateActions(*space, knobs))
      if (applyAction(*space, best.second, action) == config)
        oneMove = true;
    EXPECT_TRUE(oneMove) << "trial " << i << ": " << records[i].config
                         << " from " << bestText;
    if (records[i].timing.medianUs < bestUs) {
      bestUs = records[i].timing.medianUs;
      best = {sketch, config};
      bestText = records[i].config;
    }
  }

  // The same seed: the same walk.
  auto again = tune(module, options, *db, {}, environment);
  ASSERT_TRUE(static_cast<bool>(again)) << llvm::toString(again.takeError());
  std::vector<MeasurementRecord> second = getRecords(again->runId);
  ASSERT_EQ(second.size(), records.size());
  for (size_t i = 0; i < records.size(); ++i)
    EXPECT_EQ(second[i].config, records[i].config) << "trial " << i;
}

TEST_F(FasorStrategyTest, BadFilesAreErrors) {
  options.strategy = "fasor model=/nonexistent/model.pt";
  auto result = tune(module, options, *db, {}, environment);
  ASSERT_FALSE(static_cast<bool>(result));
  EXPECT_NE(llvm::toString(result.takeError())
                .find("fasor: loading the model from /nonexistent/model.pt"),
            std::string::npos);
  options.strategy = "fasor sensitivity=/nonexistent/table.json";
  result = tune(module, options, *db, {}, environment);
  ASSERT_FALSE(static_cast<bool>(result));
  EXPECT_EQ(llvm::toString(result.takeError()),
            "fasor: cannot read /nonexistent/table.json: No such file or "
            "directory");
}

} // namespace
