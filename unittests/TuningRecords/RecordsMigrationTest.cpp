//===- RecordsMigrationTest.cpp - Opening databases of older schemas ------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// A version-1 database, written with the exact version-1 schema, is migrated
// in place when opened for writing and read as it is when opened read-only.
//
//===----------------------------------------------------------------------===//

#include "RecordsTestUtils.h"

#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace mlir::tessel;
using namespace mlir::tessel::records_test;
using OpenMode = RecordsDatabase::OpenMode;

namespace {

/// What Tessel wrote into a new file at schema version 1: the pragmas, the
/// DDL (copied from lib/Tuning/Records/RecordsDatabase.cpp before version 2)
/// and the meta row.
constexpr const char *kVersion1Sql = R"sql(
PRAGMA journal_mode = WAL;
BEGIN;
CREATE TABLE meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE runs (
  id INTEGER PRIMARY KEY,
  started_at REAL NOT NULL,
  strategy TEXT NOT NULL,
  seed INTEGER NOT NULL,
  measurer TEXT NOT NULL,
  simulated INTEGER NOT NULL CHECK (simulated IN (0, 1)),
  device_json TEXT NOT NULL,
  options_json TEXT NOT NULL,
  tessel_version TEXT NOT NULL
);
CREATE TABLE tasks (
  id INTEGER PRIMARY KEY,
  workload_key TEXT NOT NULL UNIQUE,
  op_kind TEXT NOT NULL,
  flops REAL NOT NULL,
  weight INTEGER NOT NULL,
  description TEXT NOT NULL
);
CREATE TABLE sketches (
  id INTEGER PRIMARY KEY,
  task_id INTEGER NOT NULL REFERENCES tasks(id),
  sketch TEXT NOT NULL,
  UNIQUE (task_id, sketch)
);
CREATE TABLE configs (
  id INTEGER PRIMARY KEY,
  sketch_id INTEGER NOT NULL REFERENCES sketches(id),
  config TEXT NOT NULL,
  UNIQUE (sketch_id, config)
);
CREATE TABLE measurements (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id),
  config_id INTEGER NOT NULL REFERENCES configs(id),
  target TEXT NOT NULL,
  simulated INTEGER NOT NULL CHECK (simulated IN (0, 1)),
  status TEXT NOT NULL,
  median_us REAL,
  min_us REAL,
  max_us REAL,
  stddev_us REAL,
  repeats INTEGER NOT NULL,
  registers INTEGER NOT NULL,
  spill_bytes INTEGER NOT NULL,
  shared_bytes INTEGER NOT NULL,
  message TEXT NOT NULL,
  measured_at REAL NOT NULL,
  elapsed_s REAL NOT NULL,
  trial INTEGER NOT NULL
);
CREATE INDEX measurements_by_config ON measurements (config_id, target);
CREATE INDEX measurements_by_run ON measurements (run_id);
PRAGMA application_id = 1414745170;
PRAGMA user_version = 1;
INSERT INTO meta (key, value) VALUES ('schema_version', '1');
COMMIT;
)sql";

/// One run, task, sketch, config and measurement, as Tessel 1 recorded them.
constexpr const char *kVersion1Rows = R"sql(
INSERT INTO runs VALUES (1, 1700000000.25, 'evolutionary', 42, 'sim:h100-sxm',
  1, '{"name":"h100-sxm"}', '{"trials":64}', '0.1.0');
INSERT INTO tasks VALUES (1, 'mm', 'matmul', 2e9, 3, 'a matmul');
INSERT INTO sketches VALUES (1, 1, '#tessel.sketch<s>');
INSERT INTO configs VALUES (1, 1, '#tessel.config<c>');
INSERT INTO measurements VALUES (1, 1, 1, 'sim:h100-sxm', 1, 'ok', 20, 18, 24,
  1, 10, 96, 12, 24576, 'fine', 1700000001.5, 1.25, 1);
)sql";

/// A version-1 records database with one of everything at `path`.
void writeVersion1(const std::string &path) {
  execRaw(path, kVersion1Sql);
  execRaw(path, kVersion1Rows);
}

/// The columns of `table` as "name type notnull default; ...".
std::string columnsOf(const std::string &path, const std::string &table) {
  std::string sql = "SELECT group_concat(name || ' ' || type || ' ' || "
                    "\"notnull\" || ' ' || coalesce(dflt_value, '-'), '; ') "
                    "FROM pragma_table_info('" +
                    table + "')";
  return queryRawText(path, sql.c_str());
}

int64_t userVersion(const std::string &path) {
  return queryRawInt(path, "PRAGMA user_version");
}

int64_t metaVersion(const std::string &path) {
  return queryRawInt(path, "SELECT CAST(value AS INTEGER) FROM meta WHERE "
                           "key = 'schema_version'");
}

/// Expects `db` to hold the rows of kVersion1Rows.
void expectVersion1Rows(RecordsDatabase &db) {
  std::vector<RunInfo> runs = get(db.getRuns());
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].id, 1);
  EXPECT_EQ(runs[0].startedAt, 1700000000.25);
  EXPECT_EQ(runs[0].strategy, "evolutionary");
  EXPECT_EQ(runs[0].seed, 42u);
  EXPECT_EQ(runs[0].measurer, "sim:h100-sxm");
  EXPECT_TRUE(runs[0].simulated);
  EXPECT_EQ(runs[0].deviceJson, R"({"name":"h100-sxm"})");
  EXPECT_EQ(runs[0].optionsJson, R"({"trials":64})");
  EXPECT_EQ(runs[0].tesselVersion, "0.1.0");
  EXPECT_EQ(runs[0].modelSource, "");
  RunInfo run = get(db.getRun(1));
  EXPECT_EQ(run.strategy, "evolutionary");
  EXPECT_EQ(run.modelSource, "");

  std::vector<TaskInfo> tasks = get(db.getTasks());
  ASSERT_EQ(tasks.size(), 1u);
  EXPECT_EQ(tasks[0].workloadKey, "mm");
  EXPECT_EQ(tasks[0].weight, 3);
  EXPECT_EQ(tasks[0].description, "a matmul");

  std::vector<MeasurementRecord> rows =
      get(db.getMeasurements(1, "sim:h100-sxm"));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].runId, 1);
  EXPECT_EQ(rows[0].config, "#tessel.config<c>");
  EXPECT_EQ(rows[0].sketch, "#tessel.sketch<s>");
  EXPECT_TRUE(rows[0].isOk());
  EXPECT_EQ(rows[0].timing.medianUs, 20);
  EXPECT_EQ(rows[0].spillBytes, 12);
  EXPECT_EQ(rows[0].message, "fine");
  EXPECT_EQ(rows[0].trial, 1);

  std::optional<BestRecord> best = get(db.getBestRecord("mm", "sim:h100-sxm"));
  ASSERT_TRUE(best);
  EXPECT_EQ(best->config, "#tessel.config<c>");
  EXPECT_EQ(best->medianUs, 20);
}

class RecordsMigrationTest : public ::testing::TestWithParam<OpenMode> {};

TEST_P(RecordsMigrationTest, MigratesVersion1InPlace) {
  TempDir dir;
  std::string path = dir.path("v1.db");
  writeVersion1(path);
  ASSERT_EQ(userVersion(path), 1);
  ASSERT_EQ(metaVersion(path), 1);
  ASSERT_EQ(columnsOf(path, "runs").find("model_source"), std::string::npos);

  RunInfo next = makeRun(1700001000.5);
  next.modelSource = "func.func @mm(%a: tensor<64x64xf32>) {\n  return\n}\n";
  int64_t nextId = 0;
  {
    auto db = openOrFail(path, GetParam());
    ASSERT_TRUE(db);
    EXPECT_EQ(db->getSchemaVersion(), RecordsDatabase::kSchemaVersion);
    expectVersion1Rows(*db);
    expectIntact(*db);
    // The migrated file records new runs with their model.
    nextId = get(db->beginRun(next));
    EXPECT_EQ(nextId, 2);
    EXPECT_EQ(get(db->getRun(nextId)).modelSource, next.modelSource);
  }

  // The file now says the current version, and its tables are those of a
  // new file.
  EXPECT_EQ(userVersion(path), RecordsDatabase::kSchemaVersion);
  EXPECT_EQ(metaVersion(path), RecordsDatabase::kSchemaVersion);
  EXPECT_EQ(queryRawInt(path, "SELECT count(*) FROM meta"), 1);
  EXPECT_EQ(queryRawInt(path, "PRAGMA application_id"), 0x54534C52);
  std::string fresh = dir.path("v2.db");
  ASSERT_TRUE(openOrFail(fresh));
  for (const char *table : {"meta", "runs", "tasks", "sketches", "configs",
                            "measurements", "kernel_reports"})
    EXPECT_EQ(columnsOf(path, table), columnsOf(fresh, table)) << table;
  EXPECT_EQ(queryRawText(path, "SELECT group_concat(name) FROM (SELECT name "
                               "FROM sqlite_master WHERE type = 'index' AND "
                               "name LIKE 'measurements_%' ORDER BY name)"),
            "measurements_by_config,measurements_by_run,measurements_once");
  EXPECT_NE(columnsOf(path, "runs").find("model_source TEXT 1 ''"),
            std::string::npos)
      << columnsOf(path, "runs");

  // Reopening (in every mode) finds the current version and everything in
  // it.
  for (OpenMode mode :
       {OpenMode::OpenExisting, OpenMode::ReadOnly, OpenMode::CreateOrOpen}) {
    auto db = openOrFail(path, mode);
    ASSERT_TRUE(db);
    EXPECT_EQ(db->getSchemaVersion(), RecordsDatabase::kSchemaVersion);
    std::vector<RunInfo> runs = get(db->getRuns());
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(runs[0].modelSource, "");
    EXPECT_EQ(runs[1].id, nextId);
    EXPECT_EQ(runs[1].startedAt, next.startedAt);
    EXPECT_EQ(runs[1].modelSource, next.modelSource);
  }
  EXPECT_EQ(userVersion(path), RecordsDatabase::kSchemaVersion);
}

INSTANTIATE_TEST_SUITE_P(WritableModes, RecordsMigrationTest,
                         ::testing::Values(OpenMode::OpenExisting,
                                           OpenMode::CreateOrOpen));

TEST(RecordsMigrationTest, ReadOnlyReadsVersion1AsItIs) {
  TempDir dir;
  std::string path = dir.path("v1.db");
  writeVersion1(path);
  {
    auto db = openOrFail(path, OpenMode::ReadOnly);
    ASSERT_TRUE(db);
    EXPECT_TRUE(db->isReadOnly());
    EXPECT_EQ(db->getSchemaVersion(), 1);
    expectVersion1Rows(*db);
    EXPECT_EQ(errorMessage(db->getRun(7)), "no run 7 in '" + path + "'");

    // The export reads as that of a version-2 file with an empty model.
    std::string text;
    llvm::raw_string_ostream os(text);
    ASSERT_FALSE(bool(db->exportJsonLines(os)));
    llvm::Expected<llvm::json::Value> line =
        llvm::json::parse(llvm::StringRef(text).split('\n').first);
    ASSERT_TRUE(bool(line)) << llvm::toString(line.takeError());
    EXPECT_EQ(line->getAsObject()->getObject("run")->getString("model_source"),
              "");

    EXPECT_EQ(errorMessage(db->beginRun(makeRun())),
              path + ": cannot add a run to a schema version 1 database "
                     "opened read-only");

    // Another process migrates the file while this one has it open; this
    // one goes on reading.
    auto writer = openOrFail(path, OpenMode::OpenExisting);
    ASSERT_TRUE(writer);
    EXPECT_EQ(writer->getSchemaVersion(), RecordsDatabase::kSchemaVersion);
    RunInfo next = makeRun(1700001000.5);
    next.modelSource = "module {}";
    ASSERT_EQ(get(writer->beginRun(next)), 2);
    std::vector<RunInfo> runs = get(db->getRuns());
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(runs[1].strategy, "evolutionary");
    EXPECT_EQ(runs[1].modelSource, "");
  }
  EXPECT_EQ(userVersion(path), RecordsDatabase::kSchemaVersion);
  EXPECT_EQ(metaVersion(path), RecordsDatabase::kSchemaVersion);
}

TEST(RecordsMigrationTest, ReadOnlyLeavesVersion1Untouched) {
  TempDir dir;
  std::string path = dir.path("v1.db");
  writeVersion1(path);
  std::string before = readBytes(path);
  for (int i = 0; i < 2; ++i) {
    auto db = openOrFail(path, OpenMode::ReadOnly);
    ASSERT_TRUE(db);
    EXPECT_EQ(db->getSchemaVersion(), 1);
    expectVersion1Rows(*db);
  }
  // (Not EXPECT_EQ: a failure would print the whole file.)
  EXPECT_TRUE(readBytes(path) == before);
  EXPECT_EQ(userVersion(path), 1);
  EXPECT_EQ(metaVersion(path), 1);
  EXPECT_EQ(columnsOf(path, "runs").find("model_source"), std::string::npos);
}

TEST(RecordsMigrationTest, FailedMigrationChangesNothing) {
  TempDir dir;
  std::string path = dir.path("v1.db");
  writeVersion1(path);
  // Make the second step of the migration (updating meta) fail after the
  // first (adding the column) succeeded.
  execRaw(path, "CREATE TRIGGER meta_frozen BEFORE UPDATE ON meta BEGIN "
                "SELECT RAISE(ABORT, 'meta is frozen'); END;");
  std::string runsBefore = columnsOf(path, "runs");
  EXPECT_EQ(errorMessage(RecordsDatabase::open(path, OpenMode::OpenExisting)),
            path + ": cannot migrate records database from schema version 1 "
                   "to 4: meta is frozen");
  // All or nothing: the column was not added either.
  EXPECT_EQ(columnsOf(path, "runs"), runsBefore);
  EXPECT_EQ(userVersion(path), 1);
  EXPECT_EQ(metaVersion(path), 1);
  auto db = openOrFail(path, OpenMode::ReadOnly);
  ASSERT_TRUE(db);
  EXPECT_EQ(db->getSchemaVersion(), 1);
  expectVersion1Rows(*db);
}

/// A version-2 file: version 1 migrated by hand with the version-2 step.
void writeVersion2(const std::string &path) {
  writeVersion1(path);
  execRaw(path, "ALTER TABLE runs ADD COLUMN model_source TEXT NOT NULL "
                "DEFAULT ''; UPDATE meta SET value = '2' WHERE key = "
                "'schema_version'; PRAGMA user_version = 2;");
}

TEST(RecordsMigrationTest, MigratesVersion2InPlace) {
  TempDir dir;
  std::string path = dir.path("v2.db");
  writeVersion2(path);
  {
    auto db = openOrFail(path, OpenMode::OpenExisting);
    ASSERT_TRUE(db);
    EXPECT_EQ(db->getSchemaVersion(), RecordsDatabase::kSchemaVersion);
    expectVersion1Rows(*db);
  }
  EXPECT_EQ(userVersion(path), RecordsDatabase::kSchemaVersion);
  EXPECT_EQ(metaVersion(path), RecordsDatabase::kSchemaVersion);
  EXPECT_EQ(queryRawInt(path, "SELECT count(*) FROM sqlite_master WHERE "
                              "name = 'measurements_once'"),
            1);
}

TEST(RecordsMigrationTest, Version2WithARepeatedMeasurementStaysVersion2) {
  TempDir dir;
  std::string path = dir.path("v2.db");
  writeVersion2(path);
  // The version-1 rows measured config 1 in run 1 once; measure it again.
  execRaw(path, "INSERT INTO measurements (run_id, config_id, target, "
                "simulated, status, repeats, registers, spill_bytes, "
                "shared_bytes, message, measured_at, elapsed_s, trial) "
                "SELECT run_id, config_id, target, simulated, status, repeats, "
                "registers, spill_bytes, shared_bytes, message, measured_at, "
                "elapsed_s, trial FROM measurements");
  EXPECT_EQ(errorMessage(RecordsDatabase::open(path, OpenMode::OpenExisting)),
            path + ": cannot migrate records database from schema version 2 "
                   "to 4: UNIQUE constraint failed: measurements.run_id, "
                   "measurements.config_id, measurements.target");
  EXPECT_EQ(userVersion(path), 2);
  auto db = openOrFail(path, OpenMode::ReadOnly);
  ASSERT_TRUE(db);
  EXPECT_EQ(db->getSchemaVersion(), 2);
}

/// A version-3 file: a new file without the version-4 table.
void writeVersion3(const std::string &path) {
  ASSERT_TRUE(openOrFail(path));
  execRaw(path, "DROP TABLE kernel_reports; UPDATE meta SET value = '3' "
                "WHERE key = 'schema_version'; PRAGMA user_version = 3;");
}

// Version 3 has no kernel reports: read-only, it reads as it is (no report
// for any measurement, an export without them); opened for writing, it gains
// the table and keeps reports of new measurements.
TEST(RecordsMigrationTest, MigratesVersion3InPlace) {
  TempDir dir;
  std::string path = dir.path("v3.db");
  writeVersion3(path);
  ASSERT_EQ(userVersion(path), 3);
  int64_t first = 0;
  {
    auto db = openOrFail(path, OpenMode::ReadOnly);
    ASSERT_TRUE(db);
    EXPECT_EQ(db->getSchemaVersion(), 3);
    EXPECT_TRUE(get(db->getKernelReport(1)).empty());
    std::string exported;
    llvm::raw_string_ostream os(exported);
    EXPECT_FALSE(static_cast<bool>(db->exportJsonLines(os)));
  }
  EXPECT_EQ(userVersion(path), 3);
  {
    auto db = openOrFail(path, OpenMode::OpenExisting);
    ASSERT_TRUE(db);
    EXPECT_EQ(db->getSchemaVersion(), 4);
    int64_t run = get(db->beginRun(makeRun()));
    int64_t task = get(db->getOrAddTask("mm", "matmul", 2e9, 1, ""));
    int64_t sketch = get(db->getOrAddSketch(task, "#tessel.sketch<s>"));
    MeasureResult result = makeResult(MeasureStatus::Ok, 10);
    result.resources.ptx = {{"bar_sync", 1}};
    first = get(db->addMeasurement(
        run, get(db->getOrAddConfig(sketch, "#tessel.config<c>")), result, 1,
        0.5));
    EXPECT_EQ(get(db->getKernelReport(first)), result.resources.ptx);
  }
  EXPECT_EQ(userVersion(path), 4);
  EXPECT_EQ(metaVersion(path), 4);
  TempDir other;
  std::string fresh = other.path("v4.db");
  ASSERT_TRUE(openOrFail(fresh));
  EXPECT_EQ(columnsOf(path, "kernel_reports"),
            columnsOf(fresh, "kernel_reports"));
}

TEST(RecordsMigrationTest, UnknownOldVersionsAreRefused) {
  TempDir dir;
  std::string path = dir.path("v0.db");
  writeVersion1(path);
  execRaw(path, "UPDATE meta SET value = '0' WHERE key = 'schema_version';"
                "PRAGMA user_version = 0;");
  std::string before = readBytes(path);
  for (OpenMode mode :
       {OpenMode::CreateOrOpen, OpenMode::OpenExisting, OpenMode::ReadOnly})
    EXPECT_EQ(errorMessage(RecordsDatabase::open(path, mode)),
              path + ": unsupported records database schema version 0");
  EXPECT_TRUE(readBytes(path) == before);
}

} // namespace
