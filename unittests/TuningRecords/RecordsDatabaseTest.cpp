//===- RecordsDatabaseTest.cpp - Tests of the records database ------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "RecordsTestUtils.h"

using namespace mlir;
using namespace mlir::tessel;
using namespace mlir::tessel::records_test;
using OpenMode = RecordsDatabase::OpenMode;

namespace {

/// The tests that hold on both engines.
using RecordsEngineTest = EngineTest;
TESSEL_INSTANTIATE_ENGINE_TEST(RecordsEngineTest);

TEST(RecordsDatabaseTest, CreatesVersionedWalSchema) {
  TempDir dir;
  std::string path = dir.path("records.db");
  {
    auto db = openOrFail(path);
    ASSERT_TRUE(db);
    EXPECT_EQ(db->getPath(), path);
    EXPECT_FALSE(db->isReadOnly());
  }
  EXPECT_EQ(queryRawInt(path, "PRAGMA application_id"), 0x54534C52);
  EXPECT_EQ(queryRawInt(path, "PRAGMA user_version"),
            RecordsDatabase::kSchemaVersion);
  EXPECT_EQ(queryRawInt(path, "SELECT CAST(value AS INTEGER) FROM meta "
                              "WHERE key = 'schema_version'"),
            RecordsDatabase::kSchemaVersion);
  // WAL mode is persistent: it is recorded in the file header.
  EXPECT_EQ(queryRawInt(path, "SELECT journal_mode = 'wal' FROM "
                              "pragma_journal_mode"),
            1);
  EXPECT_EQ(queryRawInt(path, "SELECT count(*) FROM sqlite_master WHERE "
                              "type = 'table' AND name IN ('meta', 'runs', "
                              "'tasks', 'sketches', 'configs', "
                              "'measurements')"),
            6);
  EXPECT_EQ(queryRawInt(path, "SELECT count(*) FROM sqlite_master WHERE "
                              "type = 'index' AND name LIKE 'measurements_%'"),
            3);
}

TEST_P(RecordsEngineTest, CreatesVersionedSchema) {
  std::string path = location();
  {
    auto db = openOrFail(path);
    ASSERT_TRUE(db);
    EXPECT_EQ(db->getSchemaVersion(), RecordsDatabase::kSchemaVersion);
  }
  EXPECT_EQ(queryRawText(path, "SELECT value FROM meta WHERE "
                               "key = 'schema_version'"),
            std::to_string(RecordsDatabase::kSchemaVersion));
  EXPECT_EQ(queryRawText(path, "SELECT count(*) FROM meta WHERE "
                               "key = 'application' AND "
                               "value = 'tessel-records'"),
            onSqlite() ? "0" : "1");
  // Reopening finds the same schema, in every mode.
  for (OpenMode mode :
       {OpenMode::CreateOrOpen, OpenMode::OpenExisting, OpenMode::ReadOnly}) {
    auto db = openOrFail(path, mode);
    ASSERT_TRUE(db);
    EXPECT_EQ(db->getSchemaVersion(), RecordsDatabase::kSchemaVersion);
    EXPECT_EQ(db->isReadOnly(), mode == OpenMode::ReadOnly);
  }
}

TEST_P(RecordsEngineTest, ReadOnlyRefusesWritesOnEveryEngine) {
  std::string path = location();
  ASSERT_TRUE(openOrFail(path));
  auto db = openOrFail(path, OpenMode::ReadOnly);
  ASSERT_TRUE(db);
  EXPECT_NE(errorMessage(db->beginRun(makeRun())), "");
  EXPECT_NE(errorMessage(db->getOrAddTask("mm", "matmul", 1, 1, "")), "");
  EXPECT_TRUE(get(db->getRuns()).empty());
  EXPECT_TRUE(get(db->getTasks()).empty());
}

TEST_P(RecordsEngineTest, ARunMeasuresAConfigOnATargetOnce) {
  auto db = openOrFail(location());
  ASSERT_TRUE(db);
  int64_t run = get(db->beginRun(makeRun()));
  int64_t other = get(db->beginRun(makeRun(1700000001)));
  int64_t task = get(db->getOrAddTask("mm", "matmul", 2e9, 1, ""));
  int64_t sketch = get(db->getOrAddSketch(task, "#tessel.sketch<s>"));
  int64_t config = get(db->getOrAddConfig(sketch, "#tessel.config<c>"));
  MeasureResult result = makeResult(MeasureStatus::Ok, 10);
  int64_t first = get(db->addMeasurement(run, config, result, 1, 0.5));
  // A retried write of the same measurement adds nothing.
  EXPECT_EQ(get(db->addMeasurement(run, config, result, 1, 0.5)), first);
  // Another run, or another target, is another measurement.
  EXPECT_NE(get(db->addMeasurement(other, config, result, 1, 0.5)), first);
  EXPECT_NE(get(db->addMeasurement(run, config,
                                   makeResult(MeasureStatus::Ok, 10, "cuda:0"),
                                   2, 1)),
            first);
  EXPECT_EQ(queryRawInt(location(), "SELECT count(*) FROM measurements"), 3);
  EXPECT_EQ(get(db->getRunMeasurements(run)).size(), 2u);
}

TEST_P(RecordsEngineTest, RoundTripsEverything) {
  std::string path = location();
  RunInfo run = makeRun();
  run.seed = 0xFFFFFFFFFFFFFFF0ull;
  run.modelSource = "func.func @mm(%a: tensor<1024x1024xf32>) {\n}\n";
  int64_t runId = 0, taskId = 0, sketchId = 0, configId = 0, failedId = 0;
  MeasureResult ok = makeResult(MeasureStatus::Ok, 12.5);
  ok.message = "note: \"quoted\"\nsecond line, \xC3\xA9";
  MeasureResult failed = makeResult(MeasureStatus::CompileError, 0);
  {
    auto db = openOrFail(path);
    ASSERT_TRUE(db);
    runId = get(db->beginRun(run));
    taskId = get(db->getOrAddTask("matmul_1024x1024x1024_f32", "matmul",
                                  2.0 * 1024 * 1024 * 1024, 3,
                                  "1024^3 FP32 matmul"));
    sketchId = get(db->getOrAddSketch(taskId, "#tessel.sketch<tiles = 2>"));
    configId =
        get(db->getOrAddConfig(sketchId, "#tessel.config<tile = [128, 64]>"));
    failedId =
        get(db->getOrAddConfig(sketchId, "#tessel.config<tile = [256, 256]>"));
    ASSERT_GT(get(db->addMeasurement(runId, configId, ok, 1, 0.5)), 0);
    ASSERT_GT(get(db->addMeasurement(runId, failedId, failed, 2, 0.75)), 0);
  }

  // Everything comes back after reopening, read-only as well.
  for (OpenMode mode : {OpenMode::OpenExisting, OpenMode::ReadOnly}) {
    auto db = openOrFail(path, mode);
    ASSERT_TRUE(db);
    EXPECT_EQ(db->isReadOnly(), mode == OpenMode::ReadOnly);

    std::vector<RunInfo> runs = get(db->getRuns());
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].id, runId);
    EXPECT_EQ(runs[0].startedAt, run.startedAt);
    EXPECT_EQ(runs[0].strategy, run.strategy);
    EXPECT_EQ(runs[0].seed, run.seed);
    EXPECT_EQ(runs[0].measurer, run.measurer);
    EXPECT_TRUE(runs[0].simulated);
    EXPECT_EQ(runs[0].deviceJson, run.deviceJson);
    EXPECT_EQ(runs[0].optionsJson, run.optionsJson);
    EXPECT_EQ(runs[0].tesselVersion, run.tesselVersion);
    EXPECT_EQ(runs[0].modelSource, run.modelSource);

    std::vector<TaskInfo> tasks = get(db->getTasks());
    ASSERT_EQ(tasks.size(), 1u);
    EXPECT_EQ(tasks[0].id, taskId);
    EXPECT_EQ(tasks[0].workloadKey, "matmul_1024x1024x1024_f32");
    EXPECT_EQ(tasks[0].opKind, "matmul");
    EXPECT_EQ(tasks[0].flops, 2.0 * 1024 * 1024 * 1024);
    EXPECT_EQ(tasks[0].weight, 3);
    EXPECT_EQ(tasks[0].description, "1024^3 FP32 matmul");
    std::optional<TaskInfo> task =
        get(db->getTask("matmul_1024x1024x1024_f32"));
    ASSERT_TRUE(task);
    EXPECT_EQ(task->id, taskId);
    EXPECT_FALSE(get(db->getTask("unknown")));

    std::vector<MeasurementRecord> rows =
        get(db->getMeasurements(taskId, "sim:h100-sxm"));
    ASSERT_EQ(rows.size(), 2u);
    const MeasurementRecord &first = rows[0];
    EXPECT_EQ(first.runId, runId);
    EXPECT_EQ(first.taskId, taskId);
    EXPECT_EQ(first.configId, configId);
    EXPECT_EQ(first.sketchId, sketchId);
    EXPECT_EQ(first.sketch, "#tessel.sketch<tiles = 2>");
    EXPECT_EQ(first.config, "#tessel.config<tile = [128, 64]>");
    EXPECT_EQ(first.target, "sim:h100-sxm");
    EXPECT_TRUE(first.simulated);
    EXPECT_EQ(first.status, MeasureStatus::Ok);
    EXPECT_EQ(first.timing.medianUs, ok.timing.medianUs);
    EXPECT_EQ(first.timing.minUs, ok.timing.minUs);
    EXPECT_EQ(first.timing.maxUs, ok.timing.maxUs);
    EXPECT_EQ(first.timing.stddevUs, ok.timing.stddevUs);
    EXPECT_EQ(first.timing.repeats, 10);
    EXPECT_EQ(first.registers, 96);
    EXPECT_EQ(first.spillBytes, 12);
    EXPECT_EQ(first.sharedBytes, 24576);
    EXPECT_EQ(first.message, ok.message);
    EXPECT_EQ(first.trial, 1);
    EXPECT_EQ(first.elapsedS, 0.5);
    EXPECT_GT(first.measuredAt, 1.6e9);

    const MeasurementRecord &second = rows[1];
    EXPECT_EQ(second.configId, failedId);
    EXPECT_EQ(second.status, MeasureStatus::CompileError);
    EXPECT_EQ(second.message, "failed: compile_error");
    EXPECT_EQ(second.timing.medianUs, 0);
    EXPECT_EQ(second.trial, 2);
    EXPECT_GE(second.measuredAt, first.measuredAt);

    EXPECT_TRUE(get(db->getMeasurements(taskId, "cuda:0")).empty());
  }

  // Timings of failed measurements are NULL, not 0.
  EXPECT_EQ(queryRawInt(path, "SELECT count(*) FROM measurements WHERE "
                              "status = 'compile_error' AND median_us IS NULL"),
            1);
}

TEST_P(RecordsEngineTest, ModelSourceRoundTrips) {
  std::string path = location();
  // No model, a small one, and a large one with awkward text.
  std::vector<std::string> sources = {"", "module {}\n", ""};
  for (int i = 0; i < 20000; ++i)
    sources[2] += "  %" + std::to_string(i) +
                  " = arith.constant 1.0 : f32 // \"\xC3\xA9\"\t'\n";
  std::vector<int64_t> ids;
  {
    auto db = openOrFail(path);
    ASSERT_TRUE(db);
    for (size_t i = 0; i < sources.size(); ++i) {
      RunInfo run = makeRun(1700000000.0 + i);
      run.modelSource = sources[i];
      ids.push_back(get(db->beginRun(run)));
    }
  }
  for (OpenMode mode : {OpenMode::OpenExisting, OpenMode::ReadOnly}) {
    auto db = openOrFail(path, mode);
    ASSERT_TRUE(db);
    std::vector<RunInfo> runs = get(db->getRuns());
    ASSERT_EQ(runs.size(), sources.size());
    for (size_t i = 0; i < sources.size(); ++i) {
      EXPECT_EQ(runs[i].id, ids[i]);
      // (Not EXPECT_EQ: a failure would print the whole large source.)
      EXPECT_TRUE(runs[i].modelSource == sources[i]) << i;
      RunInfo run = get(db->getRun(ids[i]));
      EXPECT_EQ(run.id, ids[i]);
      EXPECT_EQ(run.startedAt, 1700000000.0 + i);
      EXPECT_EQ(run.strategy, "evolutionary");
      EXPECT_EQ(run.seed, 42u);
      EXPECT_EQ(run.tesselVersion, "0.1.0");
      EXPECT_TRUE(run.modelSource == sources[i]) << i;
    }
  }
  EXPECT_EQ(queryRawInt(path, "SELECT length(model_source) FROM runs "
                              "WHERE id = 2"),
            10);
  EXPECT_EQ(queryRawInt(path, onSqlite()
                                  ? "SELECT length(CAST(model_source AS "
                                    "BLOB)) FROM runs WHERE id = 3"
                                  : "SELECT octet_length(model_source) FROM "
                                    "runs WHERE id = 3"),
            static_cast<int64_t>(sources[2].size()));
}

// A compiled measurement keeps its kernel's static report (PTX counts),
// read back by id and carried through an export and an import; one that
// compiled nothing has none.
TEST_P(RecordsEngineTest, KernelReportRoundTrips) {
  std::string path = location();
  PtxCounts report = {{"bar_sync", 2}, {"bar_sync_in_loops", 1},
                      {"fma_f32", 1024}, {"ld_shared_128", 128}};
  int64_t compiled = 0, analytic = 0;
  std::string exported;
  {
    auto db = openOrFail(path);
    ASSERT_TRUE(db);
    int64_t run = get(db->beginRun(makeRun()));
    int64_t task = get(db->getOrAddTask("mm", "matmul", 2e9, 1, ""));
    int64_t sketch = get(db->getOrAddSketch(task, "#tessel.sketch<s>"));
    MeasureResult result = makeResult(MeasureStatus::Ok, 10);
    result.resources.ptx = report;
    compiled = get(db->addMeasurement(
        run, get(db->getOrAddConfig(sketch, "#tessel.config<a>")), result, 1,
        0.5));
    analytic = get(db->addMeasurement(
        run, get(db->getOrAddConfig(sketch, "#tessel.config<b>")),
        makeResult(MeasureStatus::Ok, 12), 2, 0.6));
    EXPECT_EQ(get(db->getKernelReport(compiled)), report);
    EXPECT_TRUE(get(db->getKernelReport(analytic)).empty());
    llvm::raw_string_ostream os(exported);
    ASSERT_FALSE(static_cast<bool>(db->exportJsonLines(os)));
  }
  EXPECT_NE(exported.find("\"kernel_report\":{\"bar_sync\":2,"
                          "\"bar_sync_in_loops\":1,\"fma_f32\":1024,"
                          "\"ld_shared_128\":128}"),
            std::string::npos)
      << exported;
  EXPECT_EQ(llvm::StringRef(exported).count("kernel_report"), 1u);
  EXPECT_EQ(queryRawInt(path, "SELECT count(*) FROM kernel_reports"), 1);

  TempDir dir;
  std::string copy = dir.path("copy.db");
  auto imported = openOrFail(copy);
  ASSERT_TRUE(imported);
  ImportSummary summary = get(imported->importJsonLines(exported, "export"));
  EXPECT_EQ(summary.added, 2);
  std::vector<MeasurementRecord> rows =
      get(imported->getRunMeasurements(get(imported->getRuns())[0].id));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(get(imported->getKernelReport(rows[0].id)), report);
  EXPECT_TRUE(get(imported->getKernelReport(rows[1].id)).empty());
}

TEST_P(RecordsEngineTest, GetRunOfAMissingRunFails) {
  std::string path = location();
  auto db = openOrFail(path);
  ASSERT_TRUE(db);
  std::string name = db->getPath().str();
  EXPECT_EQ(errorMessage(db->getRun(1)), "no run 1 in '" + name + "'");
  int64_t id = get(db->beginRun(makeRun()));
  EXPECT_EQ(get(db->getRun(id)).id, id);
  EXPECT_EQ(errorMessage(db->getRun(id + 1)),
            "no run " + std::to_string(id + 1) + " in '" + name + "'");
  EXPECT_EQ(errorMessage(db->getRun(-1)), "no run -1 in '" + name + "'");
}

TEST(RecordsDatabaseTest, ReadOnlyRefusesWrites) {
  TempDir dir;
  std::string path = dir.path("records.db");
  ASSERT_TRUE(openOrFail(path));
  std::string before = readBytes(path);
  auto db = openOrFail(path, OpenMode::ReadOnly);
  ASSERT_TRUE(db);
  EXPECT_EQ(errorMessage(db->beginRun(makeRun())),
            path + ": INSERT INTO runs (started_at, strategy, seed, measurer, "
                   "simulated, device_json, options_json, tessel_version, "
                   "model_source) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) "
                   "RETURNING id: attempt to write a readonly database");
  EXPECT_TRUE(get(db->getRuns()).empty());
  db.reset();
  EXPECT_EQ(readBytes(path), before);
}

TEST_P(RecordsEngineTest, GetOrAddAddsNoDuplicates) {
  std::string path = location();
  auto db = openOrFail(path);
  ASSERT_TRUE(db);
  int64_t task = get(db->getOrAddTask("conv", "conv2d", 1e9, 1, "a conv"));
  EXPECT_EQ(get(db->getOrAddTask("conv", "conv2d", 1e9, 5, "other text")),
            task);
  int64_t otherTask = get(db->getOrAddTask("mm", "matmul", 2e9, 1, ""));
  EXPECT_NE(otherTask, task);

  int64_t sketch = get(db->getOrAddSketch(task, "#tessel.sketch<a>"));
  EXPECT_EQ(get(db->getOrAddSketch(task, "#tessel.sketch<a>")), sketch);
  // The same sketch text of another task is another sketch.
  EXPECT_NE(get(db->getOrAddSketch(otherTask, "#tessel.sketch<a>")), sketch);

  int64_t config = get(db->getOrAddConfig(sketch, "#tessel.config<x>"));
  EXPECT_EQ(get(db->getOrAddConfig(sketch, "#tessel.config<x>")), config);
  EXPECT_NE(get(db->getOrAddConfig(sketch, "#tessel.config<y>")), config);

  EXPECT_EQ(queryRawInt(path, "SELECT count(*) FROM tasks"), 2);
  EXPECT_EQ(queryRawInt(path, "SELECT count(*) FROM sketches"), 2);
  EXPECT_EQ(queryRawInt(path, "SELECT count(*) FROM configs"), 2);
  // The first weight and description stay.
  EXPECT_EQ(queryRawInt(path, "SELECT weight FROM tasks WHERE "
                              "workload_key = 'conv'"),
            1);

  // A workload key names one workload: another op kind or FLOP count is a
  // mistake.
  EXPECT_EQ(errorMessage(db->getOrAddTask("conv", "conv2d", 2e9, 1, "")),
            db->getPath().str() +
                ": task 'conv' is recorded as conv2d with 1000000000 FLOPs, "
                "not conv2d with 2000000000");
  // Sketches of unknown tasks violate the foreign key.
  EXPECT_EQ(errorMessage(db->getOrAddSketch(12345, "#tessel.sketch<a>")),
            db->getPath().str() +
                ": INSERT INTO sketches (task_id, sketch) VALUES (?1, ?2) ON "
                "CONFLICT DO NOTHING: " +
                (onSqlite() ? "FOREIGN KEY constraint failed"
                            : "insert or update on table \"sketches\" violates "
                              "foreign key constraint "
                              "\"sketches_task_id_fkey\" DETAIL:  Key "
                              "(task_id)=(12345) is not present in table "
                              "\"tasks\"."));
}

/// A database with one task and a few configs measured on two targets.
class BestRecordTest : public EngineTest {
protected:
  void SetUp() override {
    EngineTest::SetUp();
    if (IsSkipped())
      return;
    db = openOrFail(location());
    ASSERT_TRUE(db);
    run = get(db->beginRun(makeRun()));
    task = get(db->getOrAddTask("mm", "matmul", 2e9, 1, ""));
    int64_t sketch = get(db->getOrAddSketch(task, "#tessel.sketch<s>"));
    for (int i = 0; i < 6; ++i)
      configs.push_back(get(db->getOrAddConfig(
          sketch, "#tessel.config<" + std::to_string(i) + ">")));
  }

  void add(int config, MeasureStatus status, double medianUs,
           llvm::StringRef target = "sim:h100-sxm") {
    ++trial;
    ASSERT_GT(get(db->addMeasurement(run, configs[config],
                                     makeResult(status, medianUs, target),
                                     trial, trial * 0.1)),
              0);
  }

  std::unique_ptr<RecordsDatabase> db;
  int64_t run = 0, task = 0, trial = 0;
  std::vector<int64_t> configs;
};

TEST_P(BestRecordTest, PicksTheFastestOkMeasurement) {
  EXPECT_FALSE(get(db->getBestRecord("mm", "sim:h100-sxm")));
  add(0, MeasureStatus::Ok, 30);
  add(1, MeasureStatus::Ok, 20);
  // Failures never win, whatever their timings.
  add(2, MeasureStatus::WrongResult, 0);
  add(3, MeasureStatus::Timeout, 0);
  add(4, MeasureStatus::OutOfResources, 0);
  // A faster measurement on another target does not count.
  add(5, MeasureStatus::Ok, 5, "cuda:NVIDIA H100 80GB HBM3");

  std::optional<BestRecord> best = get(db->getBestRecord("mm", "sim:h100-sxm"));
  ASSERT_TRUE(best);
  EXPECT_EQ(best->configId, configs[1]);
  EXPECT_EQ(best->sketch, "#tessel.sketch<s>");
  EXPECT_EQ(best->config, "#tessel.config<1>");
  EXPECT_EQ(best->target, "sim:h100-sxm");
  EXPECT_TRUE(best->simulated);
  EXPECT_EQ(best->medianUs, 20);
  // 2e9 FLOPs in 20 us: 1e5 GFLOP/s.
  EXPECT_DOUBLE_EQ(best->gflops, 1e5);

  std::optional<BestRecord> gpu =
      get(db->getBestRecord("mm", "cuda:NVIDIA H100 80GB HBM3"));
  ASSERT_TRUE(gpu);
  EXPECT_EQ(gpu->configId, configs[5]);
  EXPECT_FALSE(gpu->simulated);

  EXPECT_FALSE(get(db->getBestRecord("mm", "sim:a100")));
  EXPECT_FALSE(get(db->getBestRecord("unknown", "sim:h100-sxm")));
}

TEST_P(BestRecordTest, TiesGoToTheEarlierMeasurement) {
  add(3, MeasureStatus::Ok, 10);
  add(1, MeasureStatus::Ok, 10);
  add(2, MeasureStatus::Ok, 11);
  std::optional<BestRecord> best = get(db->getBestRecord("mm", "sim:h100-sxm"));
  ASSERT_TRUE(best);
  EXPECT_EQ(best->configId, configs[3]);
}

TEST_P(BestRecordTest, OnlyFailuresMeansNoBest) {
  add(0, MeasureStatus::CompileError, 0);
  add(1, MeasureStatus::LaunchError, 0);
  EXPECT_FALSE(get(db->getBestRecord("mm", "sim:h100-sxm")));
  EXPECT_FALSE(get(db->getBestRecordAnyTarget("mm", "sim:h100-sxm")));
}

TEST_P(BestRecordTest, AnyTargetPrefersTheGivenTarget) {
  add(0, MeasureStatus::Ok, 40, "sim:h100-sxm");
  add(1, MeasureStatus::Ok, 30, "sim:a100");
  add(2, MeasureStatus::Ok, 35, "cuda:NVIDIA A100");
  add(3, MeasureStatus::Ok, 5, "cuda:NVIDIA H100 80GB HBM3");
  add(4, MeasureStatus::Ok, 50, "sim:h100-sxm");

  // The preferred target has records: its best wins, though slower.
  std::optional<BestRecord> best =
      get(db->getBestRecordAnyTarget("mm", "sim:h100-sxm"));
  ASSERT_TRUE(best);
  EXPECT_EQ(best->configId, configs[0]);
  EXPECT_EQ(best->target, "sim:h100-sxm");

  // No records on the preferred target: GPU measurements come before
  // simulated ones, then the fastest.
  best = get(db->getBestRecordAnyTarget("mm", "cuda:NVIDIA L4"));
  ASSERT_TRUE(best);
  EXPECT_EQ(best->configId, configs[3]);
  EXPECT_EQ(best->target, "cuda:NVIDIA H100 80GB HBM3");
  EXPECT_FALSE(best->simulated);
}

TEST_P(BestRecordTest, RunMeasurementsSpanTargetsAndTasks) {
  add(0, MeasureStatus::Ok, 30);
  add(1, MeasureStatus::Timeout, 0, "cuda:NVIDIA H100 80GB HBM3");
  int64_t otherTask = get(db->getOrAddTask("conv", "conv2d", 1e9, 1, ""));
  int64_t otherConfig = get(db->getOrAddConfig(
      get(db->getOrAddSketch(otherTask, "#tessel.sketch<s>")),
      "#tessel.config<c>"));
  ASSERT_GT(get(db->addMeasurement(run, otherConfig,
                                   makeResult(MeasureStatus::Ok, 7), 3, 0.3)),
            0);
  int64_t otherRun = get(db->beginRun(makeRun()));
  ASSERT_GT(get(db->addMeasurement(otherRun, otherConfig,
                                   makeResult(MeasureStatus::Ok, 8), 1, 0.1)),
            0);

  std::vector<MeasurementRecord> rows = get(db->getRunMeasurements(run));
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].configId, configs[0]);
  EXPECT_EQ(rows[0].taskId, task);
  EXPECT_EQ(rows[1].target, "cuda:NVIDIA H100 80GB HBM3");
  EXPECT_EQ(rows[1].status, MeasureStatus::Timeout);
  EXPECT_EQ(rows[2].taskId, otherTask);
  EXPECT_EQ(rows[2].trial, 3);
  for (const MeasurementRecord &row : rows)
    EXPECT_EQ(row.runId, run);
  // Another query in between does not disturb the cached statements.
  EXPECT_EQ(get(db->getMeasurements(task, "sim:h100-sxm")).size(), 1u);
  ASSERT_EQ(get(db->getRunMeasurements(otherRun)).size(), 1u);
  EXPECT_EQ(get(db->getRunMeasurements(otherRun))[0].timing.medianUs, 8);
  EXPECT_TRUE(get(db->getRunMeasurements(12345)).empty());
}

TEST_P(BestRecordTest, HasMeasuredAndMeasuredConfigs) {
  add(2, MeasureStatus::Ok, 10);
  add(0, MeasureStatus::Timeout, 0);
  add(4, MeasureStatus::Ok, 10, "cuda:0");
  EXPECT_TRUE(get(db->hasMeasured(configs[0], "sim:h100-sxm")));
  EXPECT_TRUE(get(db->hasMeasured(configs[2], "sim:h100-sxm")));
  EXPECT_FALSE(get(db->hasMeasured(configs[1], "sim:h100-sxm")));
  EXPECT_FALSE(get(db->hasMeasured(configs[4], "sim:h100-sxm")));
  EXPECT_TRUE(get(db->hasMeasured(configs[4], "cuda:0")));

  std::vector<ConfigRecord> measured =
      get(db->getMeasuredConfigs(task, "sim:h100-sxm"));
  ASSERT_EQ(measured.size(), 2u);
  EXPECT_EQ(measured[0].configId, configs[0]);
  EXPECT_EQ(measured[0].config, "#tessel.config<0>");
  EXPECT_EQ(measured[0].sketch, "#tessel.sketch<s>");
  EXPECT_EQ(measured[1].configId, configs[2]);
  EXPECT_EQ(get(db->getMeasuredConfigs(task, "cuda:0")).size(), 1u);
  EXPECT_TRUE(get(db->getMeasuredConfigs(task, "sim:a100")).empty());
}

TEST_P(BestRecordTest, SimulatedFlagMatchesTheTarget) {
  MeasureResult lying = makeResult(MeasureStatus::Ok, 10, "sim:h100-sxm");
  lying.simulated = false;
  EXPECT_EQ(errorMessage(db->addMeasurement(run, configs[0], lying, 1, 0)),
            db->getPath().str() +
                ": measurement on target 'sim:h100-sxm' is marked not "
                "simulated; simulated targets, and only they, start with "
                "'sim:'");
  MeasureResult modeled = makeResult(MeasureStatus::Ok, 10, "cuda:0");
  modeled.simulated = true;
  EXPECT_FALSE(
      errorMessage(db->addMeasurement(run, configs[0], modeled, 1, 0)).empty());
  MeasureResult noTarget = makeResult(MeasureStatus::Ok, 10, "");
  EXPECT_EQ(errorMessage(db->addMeasurement(run, configs[0], noTarget, 1, 0)),
            db->getPath().str() + ": measurement without a target");

  add(0, MeasureStatus::Ok, 10, "sim:h100-sxm");
  add(1, MeasureStatus::Ok, 10, "cuda:NVIDIA H100 80GB HBM3");
  std::vector<MeasurementRecord> sim =
      get(db->getMeasurements(task, "sim:h100-sxm"));
  ASSERT_EQ(sim.size(), 1u);
  EXPECT_TRUE(sim[0].simulated);
  std::vector<MeasurementRecord> gpu =
      get(db->getMeasurements(task, "cuda:NVIDIA H100 80GB HBM3"));
  ASSERT_EQ(gpu.size(), 1u);
  EXPECT_FALSE(gpu[0].simulated);
}

TESSEL_INSTANTIATE_ENGINE_TEST(BestRecordTest);

} // namespace
