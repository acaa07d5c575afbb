//===- RecordsDatabase.cpp - Opening the records database and writing it --===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Records/RecordsDatabase.h"

#include "RunColumns.h"
#include "Sqlite.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <chrono>
#include <sqlite3.h>

using namespace mlir;
using namespace mlir::tessel;
using llvm::Error;
using llvm::Expected;
using llvm::StringRef;

/// The tables and indexes of schema version 2 (docs/RecordsDatabase.md).
/// `runs.model_source` comes last, where migrating a version-1 file adds it.
static const char *const kSchemaSql = R"sql(
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
  tessel_version TEXT NOT NULL,
  model_source TEXT NOT NULL DEFAULT ''
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
)sql";

/// How long a statement waits for another process's lock.
static constexpr int kBusyTimeoutMs = 5000;

static double unixNow() {
  return std::chrono::duration<double>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

static Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Brings a version-1 database to version 2: runs gain `model_source`.
static const char *const kMigrateToV2Sql = R"sql(
ALTER TABLE runs ADD COLUMN model_source TEXT NOT NULL DEFAULT '';
UPDATE meta SET value = '2' WHERE key = 'schema_version';
PRAGMA user_version = 2;
)sql";

/// What an opened file holds.
enum class FileContents { Empty, Records };

/// What inspect() found.
struct FileInfo {
  FileContents contents = FileContents::Empty;
  /// The schema version of a records database (1 .. kSchemaVersion).
  int64_t schemaVersion = 0;
};

/// Reads (never writes) the file behind `conn`: a records database of a
/// supported (possibly older) schema, an empty database, or an error naming
/// what it is.
static Expected<FileInfo> inspect(sqlite::Connection &conn) {
  Expected<int64_t> applicationId = conn.queryInt("PRAGMA application_id");
  if (!applicationId)
    return applicationId.takeError();
  std::vector<std::string> tables;
  {
    Expected<sqlite::Statement> stmt =
        conn.prepare("SELECT name FROM sqlite_master WHERE type = 'table' "
                     "ORDER BY name");
    if (!stmt)
      return stmt.takeError();
    while (true) {
      Expected<bool> row = stmt->step();
      if (!row)
        return row.takeError();
      if (!*row)
        break;
      tables.push_back(stmt->getText(0));
    }
  }
  Expected<int64_t> objects =
      conn.queryInt("SELECT count(*) FROM sqlite_master");
  if (!objects)
    return objects.takeError();

  if (static_cast<uint32_t>(*applicationId) !=
      RecordsDatabase::kApplicationId) {
    if (*applicationId != 0)
      return conn.error(
          llvm::formatv("not a Tessel records database (application_id "
                        "{0:x8}, expected {1:x8})",
                        static_cast<uint32_t>(*applicationId),
                        RecordsDatabase::kApplicationId),
          nullptr);
    if (*objects != 0)
      return conn.error("not a Tessel records database (no Tessel "
                        "application_id; tables: " +
                            llvm::join(tables, ", ") + ")",
                        nullptr);
    return FileInfo{FileContents::Empty, 0};
  }

  if (!llvm::is_contained(tables, "meta"))
    return conn.error("corrupt Tessel records database (no meta table)",
                      nullptr);
  std::string version;
  {
    Expected<sqlite::Statement> stmt =
        conn.prepare("SELECT value FROM meta WHERE key = 'schema_version'");
    if (!stmt)
      return stmt.takeError();
    Expected<bool> row = stmt->step();
    if (!row)
      return row.takeError();
    if (!*row)
      return conn.error("corrupt Tessel records database (no schema_version "
                        "in the meta table)",
                        nullptr);
    version = stmt->getText(0);
  }
  int64_t schemaVersion = 0;
  if (StringRef(version).getAsInteger(10, schemaVersion))
    return conn.error("corrupt Tessel records database (schema_version '" +
                          version + "')",
                      nullptr);
  if (schemaVersion > RecordsDatabase::kSchemaVersion)
    return conn.error(llvm::formatv("records database schema version {0} is "
                                    "newer than this Tessel supports ({1})",
                                    schemaVersion,
                                    RecordsDatabase::kSchemaVersion),
                      nullptr);
  if (schemaVersion < 1)
    return conn.error(llvm::formatv("unsupported records database schema "
                                    "version {0}",
                                    schemaVersion),
                      nullptr);
  Expected<int64_t> userVersion = conn.queryInt("PRAGMA user_version");
  if (!userVersion)
    return userVersion.takeError();
  if (*userVersion != schemaVersion)
    return conn.error(llvm::formatv("corrupt Tessel records database "
                                    "(user_version {0}, schema_version {1})",
                                    *userVersion, schemaVersion),
                      nullptr);
  return FileInfo{FileContents::Records, schemaVersion};
}

/// Creates the schema in the empty database behind `conn`, unless another
/// process did so first.
static Error createSchema(sqlite::Connection &conn) {
  Expected<sqlite::Transaction> transaction = sqlite::Transaction::begin(conn);
  if (!transaction)
    return transaction.takeError();
  Expected<FileInfo> info = inspect(conn);
  if (!info)
    return info.takeError();
  if (info->contents == FileContents::Records)
    return Error::success();
  if (Error err = conn.exec(kSchemaSql))
    return err;
  std::string pragmas =
      llvm::formatv("PRAGMA application_id = {0};\n"
                    "PRAGMA user_version = {1};\n",
                    static_cast<int32_t>(RecordsDatabase::kApplicationId),
                    RecordsDatabase::kSchemaVersion);
  if (Error err = conn.exec(pragmas.c_str()))
    return err;
  Expected<sqlite::Statement> stmt =
      conn.prepare("INSERT INTO meta (key, value) VALUES (?1, ?2)");
  if (!stmt)
    return stmt.takeError();
  stmt->bind(1, StringRef("schema_version"))
      .bind(2, StringRef(std::to_string(RecordsDatabase::kSchemaVersion)));
  if (Error err = stmt->run())
    return err;
  return transaction->commit();
}

/// Migrates the records database behind `conn` to kSchemaVersion in one
/// transaction, unless another process did so first; returns the schema
/// version it then has.
static Expected<int64_t> migrate(sqlite::Connection &conn) {
  Expected<sqlite::Transaction> transaction = sqlite::Transaction::begin(conn);
  if (!transaction)
    return transaction.takeError();
  // Look again under the write lock.
  Expected<FileInfo> info = inspect(conn);
  if (!info)
    return info.takeError();
  if (info->contents != FileContents::Records)
    return conn.error("records database vanished while migrating it", nullptr);
  int64_t version = info->schemaVersion;
  if (version == 1) {
    if (Error err = conn.exec(kMigrateToV2Sql))
      return std::move(err);
    version = 2;
  }
  static_assert(RecordsDatabase::kSchemaVersion == 2,
                "migrate() must reach the new schema version");
  if (Error err = transaction->commit())
    return std::move(err);
  return version;
}

Expected<std::unique_ptr<RecordsDatabase>>
RecordsDatabase::open(StringRef path, OpenMode mode) {
  bool exists = llvm::sys::fs::exists(path);
  if (!exists && mode != OpenMode::CreateOrOpen)
    return makeError(path + ": records database does not exist");
  if (exists && llvm::sys::fs::is_directory(path))
    return makeError(path + ": is a directory, not a records database");

  bool readOnly = mode == OpenMode::ReadOnly;
  int flags = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE;
  if (mode == OpenMode::CreateOrOpen)
    flags |= SQLITE_OPEN_CREATE;
  sqlite3 *raw = nullptr;
  int rc = sqlite3_open_v2(path.str().c_str(), &raw, flags, nullptr);
  auto conn = std::make_unique<sqlite::Connection>(raw, path.str());
  conn->setErrorContext("cannot open records database");
  if (rc != SQLITE_OK)
    return conn->error("");
  sqlite3_busy_timeout(raw, kBusyTimeoutMs);

  // Look before writing anything: a file that is not ours stays untouched.
  Expected<FileInfo> info = inspect(*conn);
  if (!info)
    return info.takeError();
  int64_t schemaVersion = info->schemaVersion;
  if (info->contents == FileContents::Empty) {
    if (mode != OpenMode::CreateOrOpen)
      return conn->error("not a Tessel records database (it is empty)",
                         nullptr);
    if (Error err = conn->exec("PRAGMA journal_mode = WAL"))
      return std::move(err);
    if (Error err = createSchema(*conn))
      return std::move(err);
    schemaVersion = kSchemaVersion;
  } else {
    // Cheap enough for tuning-sized files, and it turns a truncated or
    // damaged file into an error here rather than midway through a run.
    Expected<std::string> check = conn->queryText("PRAGMA quick_check(1)");
    if (!check)
      return check.takeError();
    if (*check != "ok")
      return conn->error("corrupt records database: " + *check, nullptr);
  }

  if (!readOnly) {
    Expected<std::string> journal =
        conn->queryText("PRAGMA journal_mode = WAL");
    if (!journal)
      return journal.takeError();
    if (*journal != "wal")
      return conn->error("cannot switch to WAL mode (journal mode is " +
                             *journal + ")",
                         nullptr);
    // Sync every commit: a measurement that addMeasurement() reported stays
    // even across a power loss.
    if (Error err = conn->exec("PRAGMA synchronous = FULL"))
      return std::move(err);
    // A read-only database of an older schema is read as it is.
    if (schemaVersion < kSchemaVersion) {
      conn->setErrorContext(llvm::formatv("cannot migrate records database "
                                          "from schema version {0} to {1}",
                                          schemaVersion, kSchemaVersion)
                                .str());
      Expected<int64_t> migrated = migrate(*conn);
      if (!migrated)
        return migrated.takeError();
      schemaVersion = *migrated;
      conn->setErrorContext("cannot open records database");
    }
  }
  if (Error err = conn->exec("PRAGMA foreign_keys = ON"))
    return std::move(err);
  conn->setErrorContext("");
  return std::unique_ptr<RecordsDatabase>(
      new RecordsDatabase(std::move(conn), readOnly, schemaVersion));
}

RecordsDatabase::RecordsDatabase(std::unique_ptr<sqlite::Connection> conn,
                                 bool readOnly, int64_t schemaVersion)
    : conn(std::move(conn)), readOnly(readOnly), schemaVersion(schemaVersion) {
  path = this->conn->getPath().str();
}

RecordsDatabase::~RecordsDatabase() = default;

Error RecordsDatabase::checkIntegrity() {
  Expected<sqlite::Statement> stmt = conn->prepare("PRAGMA integrity_check");
  if (!stmt)
    return stmt.takeError();
  std::string report;
  while (true) {
    Expected<bool> row = stmt->step();
    if (!row)
      return row.takeError();
    if (!*row)
      break;
    if (!report.empty())
      report += "; ";
    report += stmt->getText(0);
  }
  if (report == "ok")
    return Error::success();
  return conn->error("integrity check failed: " + report, nullptr);
}

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

Expected<int64_t> RecordsDatabase::beginRun(const RunInfo &info) {
  if (info.startedAt != 0)
    return insertRun(info);
  RunInfo now = info;
  now.startedAt = unixNow();
  return insertRun(now);
}

Expected<int64_t> RecordsDatabase::insertRun(const RunInfo &info) {
  // Only a database opened read-only keeps an older schema.
  if (schemaVersion < kSchemaVersion)
    return conn->error(llvm::formatv("cannot add a run to a schema version {0} "
                                     "database opened read-only",
                                     schemaVersion),
                       nullptr);
  Expected<sqlite::Statement> stmt = conn->prepare(
      "INSERT INTO runs (started_at, strategy, seed, measurer, simulated, "
      "device_json, options_json, tessel_version, model_source) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
  if (!stmt)
    return stmt.takeError();
  bindRunColumns(*stmt, info);
  if (Error err = stmt->run())
    return std::move(err);
  return sqlite3_last_insert_rowid(conn->get());
}

Expected<int64_t> RecordsDatabase::getOrAddTask(StringRef workloadKey,
                                                StringRef opKind, double flops,
                                                int64_t weight,
                                                StringRef description) {
  if (workloadKey.empty())
    return conn->error("empty workload key", nullptr);
  {
    Expected<sqlite::Statement> insert = conn->prepare(
        "INSERT OR IGNORE INTO tasks (workload_key, op_kind, flops, weight, "
        "description) VALUES (?1, ?2, ?3, ?4, ?5)");
    if (!insert)
      return insert.takeError();
    insert->bind(1, workloadKey)
        .bind(2, opKind)
        .bind(3, flops)
        .bind(4, weight)
        .bind(5, description);
    if (Error err = insert->run())
      return std::move(err);
  }
  Expected<sqlite::Statement> select = conn->prepare(
      "SELECT id, op_kind, flops FROM tasks WHERE workload_key = ?1");
  if (!select)
    return select.takeError();
  select->bind(1, workloadKey);
  Expected<bool> row = select->step();
  if (!row)
    return row.takeError();
  if (!*row)
    return conn->error("task '" + workloadKey + "' vanished", nullptr);
  if (select->getText(1) != opKind || select->getDouble(2) != flops)
    return conn->error(
        llvm::formatv("task '{0}' is recorded as {1} with {2} "
                      "FLOPs, not {3} with {4}",
                      workloadKey, select->getText(1),
                      llvm::format("%.17g", select->getDouble(2)), opKind,
                      llvm::format("%.17g", flops)),
        nullptr);
  return select->getInt(0);
}

/// Inserts (child, text) unless present and returns the row id; `insertSql`
/// and `selectSql` bind the parent id as ?1 and the text as ?2.
static Expected<int64_t> getOrAdd(sqlite::Connection &conn,
                                  const char *insertSql, const char *selectSql,
                                  int64_t parentId, StringRef text) {
  {
    Expected<sqlite::Statement> insert = conn.prepare(insertSql);
    if (!insert)
      return insert.takeError();
    insert->bind(1, parentId).bind(2, text);
    if (Error err = insert->run())
      return std::move(err);
  }
  Expected<sqlite::Statement> select = conn.prepare(selectSql);
  if (!select)
    return select.takeError();
  select->bind(1, parentId).bind(2, text);
  Expected<bool> row = select->step();
  if (!row)
    return row.takeError();
  if (!*row)
    return conn.error("row vanished after insertion", nullptr);
  return select->getInt(0);
}

Expected<int64_t> RecordsDatabase::getOrAddSketch(int64_t taskId,
                                                  StringRef sketchText) {
  return getOrAdd(
      *conn, "INSERT OR IGNORE INTO sketches (task_id, sketch) VALUES (?1, ?2)",
      "SELECT id FROM sketches WHERE task_id = ?1 AND sketch = ?2", taskId,
      sketchText);
}

Expected<int64_t> RecordsDatabase::getOrAddConfig(int64_t sketchId,
                                                  StringRef configText) {
  return getOrAdd(
      *conn,
      "INSERT OR IGNORE INTO configs (sketch_id, config) VALUES (?1, ?2)",
      "SELECT id FROM configs WHERE sketch_id = ?1 AND config = ?2", sketchId,
      configText);
}

Expected<int64_t> RecordsDatabase::addMeasurement(int64_t runId,
                                                  int64_t configId,
                                                  const MeasureResult &result,
                                                  int64_t trial,
                                                  double elapsedS) {
  MeasurementRecord row;
  row.target = result.device;
  row.simulated = result.simulated;
  row.status = result.status;
  row.timing = result.timing;
  row.registers = result.resources.registers;
  row.spillBytes =
      result.resources.spillStoreBytes + result.resources.spillLoadBytes;
  row.sharedBytes = result.resources.sharedMemoryBytes;
  row.message = result.message;
  row.measuredAt = unixNow();
  row.elapsedS = elapsedS;
  row.trial = trial;
  return insertMeasurement(runId, configId, row);
}

Expected<int64_t>
RecordsDatabase::insertMeasurement(int64_t runId, int64_t configId,
                                   const MeasurementRecord &row) {
  if (row.target.empty())
    return conn->error("measurement without a target", nullptr);
  if (StringRef(row.target).starts_with("sim:") != row.simulated)
    return conn->error(
        llvm::formatv("measurement on target '{0}' is marked {1}simulated; "
                      "simulated targets, and only they, start with 'sim:'",
                      row.target, row.simulated ? "" : "not "),
        nullptr);
  Expected<sqlite::Statement> stmt = conn->prepare(
      "INSERT INTO measurements (run_id, config_id, target, simulated, "
      "status, median_us, min_us, max_us, stddev_us, repeats, registers, "
      "spill_bytes, shared_bytes, message, measured_at, elapsed_s, trial) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, "
      "?15, ?16, ?17)");
  if (!stmt)
    return stmt.takeError();
  stmt->bind(1, runId)
      .bind(2, configId)
      .bind(3, StringRef(row.target))
      .bind(4, static_cast<int64_t>(row.simulated))
      .bind(5, stringifyMeasureStatus(row.status));
  // Timings are only meaningful for successful measurements.
  if (row.isOk()) {
    stmt->bind(6, row.timing.medianUs)
        .bind(7, row.timing.minUs)
        .bind(8, row.timing.maxUs)
        .bind(9, row.timing.stddevUs);
  } else {
    stmt->bindNull(6).bindNull(7).bindNull(8).bindNull(9);
  }
  stmt->bind(10, static_cast<int64_t>(row.timing.repeats))
      .bind(11, row.registers)
      .bind(12, row.spillBytes)
      .bind(13, row.sharedBytes)
      .bind(14, StringRef(row.message))
      .bind(15, row.measuredAt)
      .bind(16, row.elapsedS)
      .bind(17, row.trial);
  if (Error err = stmt->run())
    return std::move(err);
  return sqlite3_last_insert_rowid(conn->get());
}
