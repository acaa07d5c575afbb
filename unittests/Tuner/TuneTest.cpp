//===- TuneTest.cpp - tune() as a library, with a fake measurer -----------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Tunes a small module through tune() into a temporary SQLite file, without
// any tool: a fake measurer times each candidate by a function of its key,
// and the records and the result must agree with it. Also registers a
// test-only strategy, to show what a new strategy needs: a StrategyInfo
// (name, options, factory) and one registration.
//
//===----------------------------------------------------------------------===//

#include "FakeMeasurer.h"
#include "TemporaryRecords.h"

#include "tessel/InitAllDialects.h"
#include "tessel/Tuning/Measure/Measurer.h"
#include "tessel/Tuning/Records/RecordsDatabase.h"
#include "tessel/Tuning/Tuner/StrategyRegistry.h"
#include "tessel/Tuning/Tuner/Tuner.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/xxhash.h"

#include "gtest/gtest.h"

#include <map>

using namespace mlir;
using namespace mlir::tessel;

namespace {

constexpr const char *kMatmul = R"mlir(
func.func @main(%a: tensor<128x256xf32>, %b: tensor<256x64xf32>) -> tensor<128x64xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<128x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<128x64xf32>) -> tensor<128x64xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<128x256xf32>, tensor<256x64xf32>)
                     outs(%init : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %0 : tensor<128x64xf32>
}
)mlir";

class TuneTest : public ::testing::Test {
protected:
  void SetUp() override {
    DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    module = parseSourceString<ModuleOp>(kMatmul, &context);
    ASSERT_TRUE(module);
    auto found = findDevice("h100");
    ASSERT_TRUE(static_cast<bool>(found)) << llvm::toString(found.takeError());
    environment.measurer = &measurer;
    environment.device = *found;
    auto records = TemporaryRecords::create("tune-test");
    ASSERT_TRUE(static_cast<bool>(records))
        << llvm::toString(records.takeError());
    temporary = std::move(*records);
    db = &temporary->get();
    options.simFidelity = "analytic";
    options.trials = 24;
    options.measuresPerRound = 8;
    options.seed = 5;
    // The counts below are the default's and the search's; the analytic
    // start has its own test (SameSeedSameRecords, and
    // test/tools/tessel-tune-analytic-start.mlir).
    options.startSamples = 0;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  FakeMeasurer measurer;
  TuneEnvironment environment;
  TuneOptions options;
  std::unique_ptr<TemporaryRecords> temporary;
  RecordsDatabase *db = nullptr;
};

TEST_F(TuneTest, RecordsEveryMeasurementAndTheBest) {
  options.strategy = "random";
  std::vector<int64_t> numbers;
  int rounds = 0;
  TuneCallbacks callbacks;
  callbacks.onTrial = [&](const TrialEvent &event) {
    numbers.push_back(event.number);
  };
  callbacks.onRound = [&](const TuneProgress &progress) {
    ++rounds;
    EXPECT_EQ(progress.taskCount, 1u);
    EXPECT_EQ(progress.budget, 24);
  };
  auto result = tune(*module, options, *db, callbacks, environment);
  ASSERT_TRUE(static_cast<bool>(result)) << llvm::toString(result.takeError());

  // 24 trials in 3 rounds of 8, after the default schedule (number 0).
  EXPECT_EQ(result->trials, 24);
  EXPECT_EQ(rounds, 3);
  ASSERT_EQ(numbers.size(), 25u);
  EXPECT_EQ(numbers.front(), 0);
  for (int64_t i = 1; i <= 24; ++i)
    EXPECT_EQ(numbers[i], i);
  EXPECT_EQ(measurer.measured, 25);
  EXPECT_EQ(result->target, "sim:fake-gpu:analytic");
  EXPECT_FALSE(result->compiled);

  // The database holds every measurement with the fake time of its key.
  auto tasks = db->getTasks();
  ASSERT_TRUE(static_cast<bool>(tasks));
  ASSERT_EQ(tasks->size(), 1u);
  auto records = db->getMeasurements(tasks->front().id, result->target);
  ASSERT_TRUE(static_cast<bool>(records));
  ASSERT_EQ(records->size(), 25u);
  double fastest = std::numeric_limits<double>::infinity();
  for (const MeasurementRecord &record : *records) {
    ASSERT_TRUE(record.isOk()) << record.message;
    EXPECT_EQ(record.runId, result->runId);
    EXPECT_DOUBLE_EQ(record.timing.medianUs,
                     fakeMicroseconds(record.sketch + " " + record.config));
    fastest = std::min(fastest, record.timing.medianUs);
  }

  // The result's best is the fastest record; its speedup baseline is the
  // default schedule's (trial 0) time.
  ASSERT_EQ(result->results.size(), 1u);
  const TaskResult &task = result->results.front();
  ASSERT_TRUE(task.best.has_value());
  EXPECT_DOUBLE_EQ(task.best->result.timing.medianUs, fastest);
  EXPECT_EQ(task.trials, 25);
  auto baseline = llvm::find_if(
      *records, [](const MeasurementRecord &r) { return r.trial == 0; });
  ASSERT_NE(baseline, records->end());
  EXPECT_DOUBLE_EQ(task.defaultLatencyUs, baseline->timing.medianUs);
  auto best =
      db->getBestRecord(result->tasks.front().workloadKey, result->target);
  ASSERT_TRUE(static_cast<bool>(best));

  // The run stores its resolved options and the model.
  auto run = db->getRun(result->runId);
  ASSERT_TRUE(static_cast<bool>(run)) << llvm::toString(run.takeError());
  EXPECT_EQ(run->strategy, "random");
  auto json = llvm::json::parse(run->optionsJson);
  ASSERT_TRUE(static_cast<bool>(json));
  auto stored = TuneOptions::fromJSON(*json);
  ASSERT_TRUE(static_cast<bool>(stored)) << llvm::toString(stored.takeError());
  EXPECT_EQ(stored->trials, 24);
  EXPECT_EQ(stored->seed, 5u);
  EXPECT_EQ(stored->strategy, "random");
  EXPECT_NE(run->modelSource.find("linalg.matmul"), std::string::npos);
}

TEST_F(TuneTest, SameSeedSameRecords) {
  options.strategy = "evolutionary population=64 generations=1";
  options.trials = 16;
  // With the analytic start (the fake GPU's default is predicted at least
  // 4x slower than a sampled schedule): it is drawn from its own stream.
  options.startSamples = 256;
  auto first = tune(*module, options, *db, {}, environment);
  ASSERT_TRUE(static_cast<bool>(first)) << llvm::toString(first.takeError());
  auto second = tune(*module, options, *db, {}, environment);
  ASSERT_TRUE(static_cast<bool>(second)) << llvm::toString(second.takeError());
  auto tasks = db->getTasks();
  ASSERT_TRUE(static_cast<bool>(tasks));
  auto records = db->getMeasurements(tasks->front().id, first->target);
  ASSERT_TRUE(static_cast<bool>(records));
  std::map<int64_t, std::vector<std::string>> byRun;
  for (const MeasurementRecord &record : *records)
    byRun[record.runId].push_back(record.sketch + " " + record.config);
  ASSERT_EQ(byRun.size(), 2u);
  // The default, the analytic start, 16 trials.
  EXPECT_EQ(byRun[first->runId].size(), 18u);
  EXPECT_EQ(byRun[first->runId], byRun[second->runId]);
}

TEST_F(TuneTest, BadOptionsFailWithOneLine) {
  options.strategy = "evolutionary populaton=64";
  auto result = tune(*module, options, *db, {}, environment);
  ASSERT_FALSE(static_cast<bool>(result));
  std::string message = llvm::toString(result.takeError());
  EXPECT_EQ(message.find('\n'), std::string::npos);
  EXPECT_EQ(message.rfind("strategy 'evolutionary': unknown option "
                          "'populaton' (options: diversity-filter, ",
                          0),
            0u)
      << message;
  auto runs = db->getRuns();
  ASSERT_TRUE(static_cast<bool>(runs));
  EXPECT_TRUE(runs->empty()) << "a refused run must not leave a record";
}

/// A test-only strategy: proposes the first `count` samples of a fixed
/// seed, `repeat` times over. Everything a new strategy needs is here: the
/// class, its options, and its StrategyInfo, registered once.
class FixedSampleStrategy : public SearchStrategy {
public:
  explicit FixedSampleStrategy(int maxRounds) : maxRounds(maxRounds) {}
  std::string name() const override { return "fixed-sample"; }
  std::vector<Candidate> propose(TaskSearchState &state, int count) override {
    if (rounds++ >= maxRounds)
      return {};
    return sampleUnseen(state, count);
  }
  int maxRounds, rounds = 0;
};

struct FixedSampleOptions : ComponentOptions {
  Option<int> rounds{
      *this, "rounds", 1, "Rounds before the task is done", {1, 100}};
};

StrategyInfo getFixedSampleStrategyInfo() {
  StrategyInfo info;
  info.name = "fixed-sample";
  info.summary = "test only: random samples for a fixed number of rounds";
  info.usesCostModel = false;
  info.defaultMeasuresPerRound = 4;
  info.createOptions = [] { return std::make_unique<FixedSampleOptions>(); };
  info.create = [](const ComponentOptions &options, StrategyEnvironment)
      -> llvm::Expected<std::unique_ptr<SearchStrategy>> {
    return std::make_unique<FixedSampleStrategy>(
        static_cast<const FixedSampleOptions &>(options).rounds);
  };
  return info;
}

TEST_F(TuneTest, ARegisteredTestStrategyRuns) {
  if (!getStrategyRegistry().lookup("fixed-sample"))
    getStrategyRegistry().add(getFixedSampleStrategyInfo());
  options.strategy = "fixed-sample rounds=2";
  options.measuresPerRound = 0;
  auto result = tune(*module, options, *db, {}, environment);
  ASSERT_TRUE(static_cast<bool>(result)) << llvm::toString(result.takeError());
  // Two rounds of the strategy's default 4, then the task is exhausted.
  EXPECT_EQ(result->trials, 8);
  EXPECT_EQ(result->options.measuresPerRound, 4);
  EXPECT_EQ(result->options.strategy, "fixed-sample rounds=2");

  options.strategy = "fixed-sample rounds=0";
  auto bad = tune(*module, options, *db, {}, environment);
  ASSERT_FALSE(static_cast<bool>(bad));
  EXPECT_EQ(llvm::toString(bad.takeError()),
            "strategy 'fixed-sample': rounds=0 is out of range: 1 to 100");
}

/// A test-only driver, as an operator-set strategy (ETO) plugs in: it adds
/// a task that is not part of the model (a copy of task 0 with another
/// key), then tunes each task in turn with `perTask` random samples.
/// What the last SequentialDriver did (the run owns and destroys it).
struct SequentialLog {
  std::vector<size_t> order;
  std::vector<int64_t> made;
};
SequentialLog sequentialLog;

class SequentialDriver : public SearchDriver {
public:
  explicit SequentialDriver(int perTask) : perTask(perTask) {
    sequentialLog = {};
  }
  llvm::Error run(TuningSession &session) override {
    TuningTask extra;
    TuningTask &first = *session.getState(0).task;
    extra.workloadKey = first.workloadKey + " | test copy";
    extra.opKind = first.opKind;
    extra.flops = first.flops;
    extra.weight = 0;
    extra.description = "copy of " + first.description;
    extra.module = first.module->clone();
    extra.sketches = first.sketches;
    auto added = session.addTask(std::move(extra));
    if (!added)
      return added.takeError();
    for (size_t task = 0; task < session.getNumTasks(); ++task) {
      FixedSampleStrategy strategy(/*maxRounds=*/1000);
      sequentialLog.order.push_back(task);
      sequentialLog.made.push_back(tuneTask(session, task, strategy, perTask));
    }
    return llvm::Error::success();
  }
  int perTask;
};

TEST_F(TuneTest, ARegisteredDriverTunesTasksItsWay) {
  if (!getStrategyRegistry().lookup("sequential")) {
    StrategyInfo info;
    info.name = "sequential";
    info.summary = "test only: each task in turn";
    info.usesCostModel = false;
    info.defaultMeasuresPerRound = 3;
    info.createDriver = [](const ComponentOptions &, StrategyEnvironment)
        -> llvm::Expected<std::unique_ptr<SearchDriver>> {
      return std::make_unique<SequentialDriver>(7);
    };
    getStrategyRegistry().add(std::move(info));
  }
  options.strategy = "sequential";
  options.measuresPerRound = 0;
  options.trials = 100;
  auto result = tune(*module, options, *db, {}, environment);
  ASSERT_TRUE(static_cast<bool>(result)) << llvm::toString(result.takeError());
  EXPECT_EQ(sequentialLog.order, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(sequentialLog.made, (std::vector<int64_t>{7, 7}));
  EXPECT_EQ(result->trials, 14);
  ASSERT_EQ(result->tasks.size(), 2u);
  EXPECT_EQ(result->modelTaskCount, 1u);
  // The added task: its 7 trials (no default schedule), recorded.
  EXPECT_EQ(result->results[1].trials, 7);
  auto taskId = db->getOrAddTask(result->tasks[1].workloadKey,
                                 result->tasks[1].opKind,
                                 result->tasks[1].flops, 0, "");
  ASSERT_TRUE(static_cast<bool>(taskId));
  auto records = db->getMeasurements(*taskId, result->target);
  ASSERT_TRUE(static_cast<bool>(records));
  EXPECT_EQ(records->size(), 7u);
  std::string summary;
  llvm::raw_string_ostream os(summary);
  result->printSummary(os);
  EXPECT_NE(summary.find("(not in the model) copy of matmul"),
            std::string::npos)
      << summary;

  // A driver's strategy has no per-task strategy.
  auto direct = createStrategy("sequential", *environment.device, 1);
  ASSERT_FALSE(static_cast<bool>(direct));
  EXPECT_EQ(llvm::toString(direct.takeError()),
            "strategy 'sequential' drives a whole run; it has no per-task "
            "strategy");
}

} // namespace
