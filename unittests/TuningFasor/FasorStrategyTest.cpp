//===- FasorStrategyTest.cpp - Fasor through tune() -----------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "../Tuner/FakeMeasurer.h"
#include "../Tuner/TemporaryRecords.h"
#include "FasorTestUtils.h"

#include "tessel/Tuning/Records/RecordsDatabase.h"
#include "tessel/Tuning/Strategies/Eto/TopKStrategy.h"
#include "tessel/Tuning/Strategies/Fasor/Actions.h"
#include "tessel/Tuning/Strategies/Fasor/Dataset.h"
#include "tessel/Tuning/Strategies/Fasor/ScheduleTokens.h"
#include "tessel/Tuning/Tuner/Strategy.h"
#include "tessel/Tuning/Tuner/Tuner.h"

#include "mlir/AsmParser/AsmParser.h"
#include "llvm/Support/FileSystem.h"

#include "gtest/gtest.h"

#include <set>

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
    auto records = TemporaryRecords::create("fasor-test");
    ASSERT_TRUE(static_cast<bool>(records))
        << llvm::toString(records.takeError());
    temporary = std::move(*records);
    db = &temporary->get();
    options.simFidelity = "analytic";
    options.trials = 6;
    options.seed = 9;
    // Fasor's own start points are under test, not the tuner's analytic
    // start.
    options.startSamples = 0;
  }
  /// Another empty records database, removed after the test.
  RecordsDatabase *openOtherDatabase() {
    auto records = TemporaryRecords::create("fasor-test");
    if (!records) {
      ADD_FAILURE() << llvm::toString(records.takeError());
      return nullptr;
    }
    others.push_back(std::move(*records));
    return &others.back()->get();
  }

  /// The run's records, oldest first, as "sketch config" keys.
  std::vector<MeasurementRecord> getRecords(int64_t runId) {
    auto records = db->getRunMeasurements(runId);
    EXPECT_TRUE(static_cast<bool>(records))
        << llvm::toString(records.takeError());
    return records ? *records : std::vector<MeasurementRecord>();
  }

  TaskModule source{getMatmulModule()};
  MLIRContext &context = source.context;
  ModuleOp module = *source.module;
  FakeMeasurer measurer;
  TuneEnvironment environment;
  TuneOptions options;
  std::unique_ptr<TemporaryRecords> temporary;
  std::vector<std::unique_ptr<TemporaryRecords>> others;
  RecordsDatabase *db = nullptr;
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
      TaskSearchState::create(tasks.front(), *environment.device, 1,
                              options.maxStages);
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

  // The same seed: the same walk (in a database without the first run,
  // whose best schedule would be this run's start point).
  RecordsDatabase *otherDb = openOtherDatabase();
  ASSERT_TRUE(otherDb);
  auto again = tune(module, options, *otherDb, {}, environment);
  ASSERT_TRUE(static_cast<bool>(again)) << llvm::toString(again.takeError());
  auto second = otherDb->getRunMeasurements(again->runId);
  ASSERT_TRUE(static_cast<bool>(second)) << llvm::toString(second.takeError());
  ASSERT_EQ(second->size(), records.size());
  for (size_t i = 0; i < records.size(); ++i)
    EXPECT_EQ((*second)[i].config, records[i].config) << "trial " << i;
}

/// Without a start point, the first round measures the cost model's pick
/// of `sampled-starts` uniform samples (the run's note counts it); with
/// sampled-starts=0 none.
TEST_F(FasorStrategyTest, SampledStart) {
  std::vector<std::string> notes;
  TuneCallbacks callbacks;
  callbacks.onNote = [&](llvm::StringRef note) { notes.push_back(note.str()); };
  options.strategy = "fasor sampled-starts=8";
  auto result = tune(module, options, *db, callbacks, environment);
  ASSERT_TRUE(static_cast<bool>(result)) << llvm::toString(result.takeError());
  auto said = [&](llvm::StringRef text) {
    return llvm::any_of(notes, [&](const std::string &note) {
      return llvm::StringRef(note).contains(text);
    });
  };
  EXPECT_TRUE(said("1 start points measured (0 of the same task, 0 of "
                   "similar tasks, 1 the model's pick of samples)"));
  notes.clear();
  options.strategy = "fasor sampled-starts=0 start-points=false";
  RecordsDatabase *otherDb = openOtherDatabase();
  ASSERT_TRUE(otherDb);
  result = tune(module, options, *otherDb, callbacks, environment);
  ASSERT_TRUE(static_cast<bool>(result)) << llvm::toString(result.takeError());
  EXPECT_TRUE(said("0 start points measured"));
}

/// The best schedule of the run's best record of a task, and whether it is
/// faster than the run's first (default) record.
static std::pair<std::string, bool>
getBestConfig(llvm::ArrayRef<MeasurementRecord> records) {
  const MeasurementRecord *best = &records.front();
  for (const MeasurementRecord &record : records)
    if (record.timing.medianUs < best->timing.medianUs)
      best = &record;
  return {best->config, best != &records.front()};
}

/// Start points from the records database: a second run of the same task
/// measures the first run's best schedule right after its default one (an
/// exact hit); a similar matmul (its extents ranked alike) measures that
/// schedule moved to its extents (adaptConfig); start-points=false starts
/// from the default schedule.
TEST_F(FasorStrategyTest, StartsFromTheRecordsDatabase) {
  options.strategy = "fasor";
  auto first = tune(module, options, *db, {}, environment);
  ASSERT_TRUE(static_cast<bool>(first)) << llvm::toString(first.takeError());
  std::vector<MeasurementRecord> firstRecords = getRecords(first->runId);
  auto [bestConfig, tuned] = getBestConfig(firstRecords);
  ASSERT_TRUE(tuned) << "the fake timings should beat the default";

  options.seed = 10;
  auto exact = tune(module, options, *db, {}, environment);
  ASSERT_TRUE(static_cast<bool>(exact)) << llvm::toString(exact.takeError());
  std::vector<MeasurementRecord> exactRecords = getRecords(exact->runId);
  ASSERT_GE(exactRecords.size(), 2u);
  EXPECT_EQ(exactRecords[1].config, bestConfig);

  // The similar task starts from the best of both runs.
  firstRecords.insert(firstRecords.end(), exactRecords.begin(),
                      exactRecords.end());
  bestConfig = getBestConfig(firstRecords).first;

  // Extents ranked as the fixture's (256, 512, 128): Spearman similarity 1.
  TaskModule similar{getMatmulModule(512, 1024, 64)};
  ASSERT_TRUE(similar.module);
  auto adapted = tune(*similar.module, options, *db, {}, environment);
  ASSERT_TRUE(static_cast<bool>(adapted))
      << llvm::toString(adapted.takeError());
  std::vector<MeasurementRecord> adaptedRecords = getRecords(adapted->runId);
  ASSERT_GE(adaptedRecords.size(), 2u);
  std::vector<TuningTask> tasks = similar.extract();
  ASSERT_EQ(tasks.size(), 1u);
  TaskSearchState state =
      TaskSearchState::create(tasks.front(), *environment.device, 1,
                              options.maxStages);
  auto sketch = cast<SketchAttr>(
      parseAttribute(adaptedRecords[1].sketch, &similar.context));
  std::optional<unsigned> space = findMatchingSpace(state, sketch);
  ASSERT_TRUE(space);
  auto stored = cast<ConfigAttr>(parseAttribute(bestConfig, &similar.context));
  std::optional<ConfigAttr> expected =
      adaptConfig(state.spaces[*space], stored);
  ASSERT_TRUE(expected);
  std::string expectedText;
  llvm::raw_string_ostream os(expectedText);
  os << *expected;
  EXPECT_EQ(adaptedRecords[1].config, expectedText);

  options.strategy = "fasor start-points=false";
  auto fromDefault = tune(*similar.module, options, *db, {}, environment);
  ASSERT_TRUE(static_cast<bool>(fromDefault))
      << llvm::toString(fromDefault.takeError());
  std::vector<MeasurementRecord> defaultRecords =
      getRecords(fromDefault->runId);
  ASSERT_GE(defaultRecords.size(), 2u);
  EXPECT_NE(defaultRecords[1].config, expectedText);
}

/// The ablations run through tune(): simulated annealing instead of the
/// DQN (in quality mode, where it walks), XGBoost instead of the
/// Transformer; each measures a move from the best schedule so far.
TEST_F(FasorStrategyTest, Ablations) {
  for (const char *strategy :
       {"fasor explorer=sa mode=quality steps=3", "fasor cost-model=xgboost",
        "fasor explorer=sa cost-model=xgboost start-points=false"}) {
    options.strategy = strategy;
    options.trials = 12;
    auto result = tune(module, options, *db, {}, environment);
    ASSERT_TRUE(static_cast<bool>(result))
        << strategy << ": " << llvm::toString(result.takeError());
    EXPECT_EQ(result->trials, 12) << strategy;
    std::vector<MeasurementRecord> records = getRecords(result->runId);
    std::set<std::string> configs;
    for (const MeasurementRecord &record : records)
      configs.insert(record.config);
    EXPECT_EQ(configs.size(), records.size()) << strategy;
  }
  options.strategy = "fasor cost-model=xgboost model=models/fasor-v100.pt";
  auto result = tune(module, options, *db, {}, environment);
  ASSERT_FALSE(static_cast<bool>(result));
  EXPECT_EQ(llvm::toString(result.takeError()),
            "fasor: model= is a Transformer; cost-model=xgboost trains its "
            "own");
}

/// save-dqn= writes the run's DQN; dqn= starts a run from it (the DQN's
/// offline pretraining); the same seed and the saved DQN give the same
/// records twice.
TEST_F(FasorStrategyTest, SavesAndLoadsTheDqn) {
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("fasor-dqn", "pt", path));
  std::string dqnPath = path.str().str();
  options.strategy = "fasor save-dqn=" + dqnPath;
  options.trials = 12;
  auto saved = tune(module, options, *db, {}, environment);
  ASSERT_TRUE(static_cast<bool>(saved)) << llvm::toString(saved.takeError());
  options.strategy = "fasor start-points=false dqn=" + dqnPath;
  std::vector<std::string> configs[2];
  for (std::vector<std::string> &run : configs) {
    auto loaded = tune(module, options, *db, {}, environment);
    ASSERT_TRUE(static_cast<bool>(loaded))
        << llvm::toString(loaded.takeError());
    for (const MeasurementRecord &record : getRecords(loaded->runId))
      run.push_back(record.config);
  }
  EXPECT_EQ(configs[0], configs[1]);
  EXPECT_EQ(configs[0].size(), 13u);
  llvm::sys::fs::remove(dqnPath);

  options.strategy = "fasor dqn=/nonexistent/dqn.pt";
  auto missing = tune(module, options, *db, {}, environment);
  ASSERT_FALSE(static_cast<bool>(missing));
  EXPECT_NE(llvm::toString(missing.takeError()).find("/nonexistent/dqn.pt"),
            std::string::npos);
}

/// The schedules a fasor run measured become labelled samples of the cost
/// model's dataset (buildRecordsDataset): one per ok measurement of the
/// target, its measured median as the latency; another target has none.
TEST_F(FasorStrategyTest, SearchRecordsBecomeADataset) {
  options.strategy = "fasor";
  auto result = tune(module, options, *db, {}, environment);
  ASSERT_TRUE(static_cast<bool>(result)) << llvm::toString(result.takeError());
  std::vector<MeasurementRecord> records = getRecords(result->runId);
  ASSERT_EQ(records.size(), 7u);
  std::vector<TuningTask> tasks = source.extract();
  auto dataset = buildRecordsDataset(tasks, *db, records.front().target,
                                     *environment.device);
  ASSERT_TRUE(static_cast<bool>(dataset))
      << llvm::toString(dataset.takeError());
  ASSERT_EQ(dataset->size(), records.size());
  for (auto [labeled, record] : llvm::zip(*dataset, records)) {
    EXPECT_EQ(labeled.sample.label.latencyUs, record.timing.medianUs);
    EXPECT_EQ(labeled.schedule, record.sketch + " " + record.config);
    EXPECT_EQ(labeled.sample.tokens.size(),
              static_cast<size_t>(kTokensPerSchedule));
    EXPECT_GE(labeled.sample.label.memoryBound, 0);
    EXPECT_LE(labeled.sample.label.computeBound, 1);
  }
  auto none = buildRecordsDataset(tasks, *db, "sim:other", *environment.device);
  ASSERT_TRUE(static_cast<bool>(none)) << llvm::toString(none.takeError());
  EXPECT_TRUE(none->empty());
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
