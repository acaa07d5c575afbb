//===- RecordsOpen.cpp - Opening, creating and migrating records ----------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The schema on each engine, what an opened database holds, and the rules
// for opening it: nothing is written into a database that is not Tessel's,
// a newer schema is refused, an older one migrated in one transaction.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Records/RecordsDatabase.h"

#include "Postgres.h"
#include "Sqlite.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"

#include <sqlite3.h>

using namespace mlir;
using namespace mlir::tessel;
using llvm::Error;
using llvm::Expected;
using llvm::StringRef;

/// The tables and indexes of schema version 3 in SQLite
/// (docs/RecordsDatabase.md). `runs.model_source` comes last, where
/// migrating a version-1 file adds it; `measurements_once` and the queue's
/// tables (docs/Queue.md) are what version 3 added.
/// The static kernel report of compiled measurements (schema version 4):
/// the PTX counts of the measured kernel (PtxReport.h) as a JSON object.
#define TESSEL_SQLITE_KERNEL_REPORTS_SQL                                       \
  "CREATE TABLE kernel_reports (\n"                                            \
  "  measurement_id INTEGER PRIMARY KEY REFERENCES measurements(id),\n"        \
  "  report TEXT NOT NULL\n"                                                   \
  ");\n"
#define TESSEL_POSTGRES_KERNEL_REPORTS_SQL                                     \
  "CREATE TABLE kernel_reports (\n"                                            \
  "  measurement_id BIGINT PRIMARY KEY REFERENCES measurements(id),\n"         \
  "  report TEXT NOT NULL\n"                                                   \
  ");\n"

static const char *const kSqliteSchemaSql = R"sql(
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
CREATE UNIQUE INDEX measurements_once
  ON measurements (run_id, config_id, target);
)sql" TESSEL_SQLITE_KERNEL_REPORTS_SQL;

/// The measurement queue's tables in SQLite (docs/Queue.md): part of a new
/// version-3 file, and what migrating a version-2 file adds.
static const char *const kSqliteQueueTablesSql = R"sql(
CREATE TABLE queue_items (
  id INTEGER PRIMARY KEY,
  batch TEXT NOT NULL,
  position INTEGER NOT NULL,
  target TEXT NOT NULL,
  candidate TEXT NOT NULL,
  noise_seed INTEGER NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'claimed', 'done')),
  worker TEXT NOT NULL DEFAULT '',
  lease_until REAL NOT NULL DEFAULT 0,
  attempts INTEGER NOT NULL DEFAULT 0,
  result TEXT NOT NULL DEFAULT '',
  enqueued_at REAL NOT NULL,
  tuner_seen_at REAL NOT NULL,
  finished_at REAL NOT NULL DEFAULT 0,
  UNIQUE (batch, position)
);
CREATE INDEX queue_items_waiting ON queue_items (target, state, id);
CREATE TABLE queue_workers (
  name TEXT PRIMARY KEY,
  target TEXT NOT NULL,
  measurer TEXT NOT NULL,
  device_json TEXT NOT NULL,
  started_at REAL NOT NULL,
  seen_at REAL NOT NULL
);
)sql";

/// The same tables in PostgreSQL: 8-byte integers and floats. Workload keys,
/// sketches and configs can outgrow a B-tree entry, so their uniqueness is
/// on an md5 of the text and their lookups go through hash indexes.
static const char *const kPostgresSchemaSql = R"sql(
CREATE TABLE meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE runs (
  id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  started_at DOUBLE PRECISION NOT NULL,
  strategy TEXT NOT NULL,
  seed BIGINT NOT NULL,
  measurer TEXT NOT NULL,
  simulated INTEGER NOT NULL CHECK (simulated IN (0, 1)),
  device_json TEXT NOT NULL,
  options_json TEXT NOT NULL,
  tessel_version TEXT NOT NULL,
  model_source TEXT NOT NULL DEFAULT ''
);
CREATE TABLE tasks (
  id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  workload_key TEXT NOT NULL,
  op_kind TEXT NOT NULL,
  flops DOUBLE PRECISION NOT NULL,
  weight BIGINT NOT NULL,
  description TEXT NOT NULL
);
CREATE UNIQUE INDEX tasks_once ON tasks (md5(workload_key));
CREATE INDEX tasks_by_key ON tasks USING hash (workload_key);
CREATE TABLE sketches (
  id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  task_id BIGINT NOT NULL REFERENCES tasks(id),
  sketch TEXT NOT NULL
);
CREATE UNIQUE INDEX sketches_once ON sketches (task_id, md5(sketch));
CREATE TABLE configs (
  id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  sketch_id BIGINT NOT NULL REFERENCES sketches(id),
  config TEXT NOT NULL
);
CREATE UNIQUE INDEX configs_once ON configs (sketch_id, md5(config));
CREATE TABLE measurements (
  id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  run_id BIGINT NOT NULL REFERENCES runs(id),
  config_id BIGINT NOT NULL REFERENCES configs(id),
  target TEXT NOT NULL,
  simulated INTEGER NOT NULL CHECK (simulated IN (0, 1)),
  status TEXT NOT NULL,
  median_us DOUBLE PRECISION,
  min_us DOUBLE PRECISION,
  max_us DOUBLE PRECISION,
  stddev_us DOUBLE PRECISION,
  repeats BIGINT NOT NULL,
  registers BIGINT NOT NULL,
  spill_bytes BIGINT NOT NULL,
  shared_bytes BIGINT NOT NULL,
  message TEXT NOT NULL,
  measured_at DOUBLE PRECISION NOT NULL,
  elapsed_s DOUBLE PRECISION NOT NULL,
  trial BIGINT NOT NULL
);
CREATE INDEX measurements_by_config ON measurements (config_id, target);
CREATE INDEX measurements_by_run ON measurements (run_id);
CREATE UNIQUE INDEX measurements_once
  ON measurements (run_id, config_id, target);
)sql" TESSEL_POSTGRES_KERNEL_REPORTS_SQL R"sql(
CREATE TABLE queue_items (
  id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  batch TEXT NOT NULL,
  position BIGINT NOT NULL,
  target TEXT NOT NULL,
  candidate TEXT NOT NULL,
  noise_seed BIGINT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'claimed', 'done')),
  worker TEXT NOT NULL DEFAULT '',
  lease_until DOUBLE PRECISION NOT NULL DEFAULT 0,
  attempts BIGINT NOT NULL DEFAULT 0,
  result TEXT NOT NULL DEFAULT '',
  enqueued_at DOUBLE PRECISION NOT NULL,
  tuner_seen_at DOUBLE PRECISION NOT NULL,
  finished_at DOUBLE PRECISION NOT NULL DEFAULT 0,
  UNIQUE (batch, position)
);
CREATE INDEX queue_items_waiting ON queue_items (target, state, id);
CREATE TABLE queue_workers (
  name TEXT PRIMARY KEY,
  target TEXT NOT NULL,
  measurer TEXT NOT NULL,
  device_json TEXT NOT NULL,
  started_at DOUBLE PRECISION NOT NULL,
  seen_at DOUBLE PRECISION NOT NULL
);
)sql";

/// `meta.application` of a PostgreSQL records database (SQLite files carry
/// RecordsDatabase::kApplicationId in their header instead).
static constexpr const char *kApplicationName = "tessel-records";

/// How long an SQLite statement waits for another process's lock.
static constexpr int kBusyTimeoutMs = 5000;

static Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Brings a version-1 database to version 2: runs gain `model_source`.
static const char *const kMigrateToV2Sql = R"sql(
ALTER TABLE runs ADD COLUMN model_source TEXT NOT NULL DEFAULT '';
UPDATE meta SET value = '2' WHERE key = 'schema_version';
PRAGMA user_version = 2;
)sql";

/// Brings a version-2 database to version 3: a config is measured at most
/// once per run and target, and the measurement queue's tables.
static const char *const kMigrateToV3Sql = R"sql(
CREATE UNIQUE INDEX measurements_once
  ON measurements (run_id, config_id, target);
UPDATE meta SET value = '3' WHERE key = 'schema_version';
PRAGMA user_version = 3;
)sql";

/// Brings a version-3 database to version 4: compiled measurements keep
/// their kernel's static report.
static const char *const kSqliteMigrateToV4Sql =
    TESSEL_SQLITE_KERNEL_REPORTS_SQL
    "UPDATE meta SET value = '4' WHERE key = 'schema_version';\n"
    "PRAGMA user_version = 4;\n";
static const char *const kPostgresMigrateToV4Sql =
    TESSEL_POSTGRES_KERNEL_REPORTS_SQL
    "UPDATE meta SET value = '4' WHERE key = 'schema_version';\n";

/// What an opened database holds.
enum class Contents { Empty, Records };

/// What inspect() found.
struct DatabaseInfo {
  Contents contents = Contents::Empty;
  /// The schema version of a records database (1 .. kSchemaVersion).
  int64_t schemaVersion = 0;
};

/// Runs `stmt` and returns the text of the first column of every row.
static Expected<std::vector<std::string>> readColumn(sql::Connection &conn,
                                                     const char *query) {
  Expected<sql::Statement> stmt = conn.prepare(query);
  if (!stmt)
    return stmt.takeError();
  std::vector<std::string> values;
  while (true) {
    Expected<bool> row = stmt->step();
    if (!row)
      return row.takeError();
    if (!*row)
      return values;
    values.push_back(stmt->getText(0));
  }
}

/// The version in the meta table of a records database, checked against
/// the versions this Tessel reads.
static Expected<int64_t> readSchemaVersion(sql::Connection &conn) {
  Expected<std::vector<std::string>> versions =
      readColumn(conn, "SELECT value FROM meta WHERE key = 'schema_version'");
  if (!versions)
    return versions.takeError();
  if (versions->empty())
    return conn.error("corrupt Tessel records database (no schema_version "
                      "in the meta table)",
                      nullptr);
  StringRef version = versions->front();
  int64_t schemaVersion = 0;
  if (version.getAsInteger(10, schemaVersion))
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
  return schemaVersion;
}

/// Reads (never writes) the SQLite file behind `conn`: a records database of
/// a supported (possibly older) schema, an empty database, or an error
/// naming what it is.
static Expected<DatabaseInfo> inspectSqlite(sql::Connection &conn) {
  Expected<int64_t> applicationId = conn.queryInt("PRAGMA application_id");
  if (!applicationId)
    return applicationId.takeError();
  Expected<std::vector<std::string>> tables =
      readColumn(conn, "SELECT name FROM sqlite_master WHERE type = 'table' "
                       "ORDER BY name");
  if (!tables)
    return tables.takeError();
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
                            llvm::join(*tables, ", ") + ")",
                        nullptr);
    return DatabaseInfo{Contents::Empty, 0};
  }

  if (!llvm::is_contained(*tables, "meta"))
    return conn.error("corrupt Tessel records database (no meta table)",
                      nullptr);
  Expected<int64_t> schemaVersion = readSchemaVersion(conn);
  if (!schemaVersion)
    return schemaVersion.takeError();
  Expected<int64_t> userVersion = conn.queryInt("PRAGMA user_version");
  if (!userVersion)
    return userVersion.takeError();
  if (*userVersion != *schemaVersion)
    return conn.error(llvm::formatv("corrupt Tessel records database "
                                    "(user_version {0}, schema_version {1})",
                                    *userVersion, *schemaVersion),
                      nullptr);
  return DatabaseInfo{Contents::Records, *schemaVersion};
}

/// Reads (never writes) the current schema of the PostgreSQL database
/// behind `conn`: no tables at all, a records database, or an error naming
/// what is there.
static Expected<DatabaseInfo> inspectPostgres(sql::Connection &conn) {
  Expected<std::vector<std::string>> tables =
      readColumn(conn, "SELECT table_name FROM information_schema.tables "
                       "WHERE table_schema = current_schema() "
                       "ORDER BY table_name");
  if (!tables)
    return tables.takeError();
  if (tables->empty())
    return DatabaseInfo{Contents::Empty, 0};
  if (!llvm::is_contained(*tables, "meta"))
    return conn.error("not a Tessel records database (tables: " +
                          llvm::join(*tables, ", ") + ")",
                      nullptr);
  Expected<std::vector<std::string>> application =
      readColumn(conn, "SELECT value FROM meta WHERE key = 'application'");
  if (!application)
    return application.takeError();
  if (application->empty() || application->front() != kApplicationName)
    return conn.error("not a Tessel records database (its meta table has "
                      "no application '" +
                          StringRef(kApplicationName) + "')",
                      nullptr);
  Expected<int64_t> schemaVersion = readSchemaVersion(conn);
  if (!schemaVersion)
    return schemaVersion.takeError();
  return DatabaseInfo{Contents::Records, *schemaVersion};
}

static Expected<DatabaseInfo> inspect(sql::Connection &conn) {
  return conn.getEngine() == sql::Engine::SQLite ? inspectSqlite(conn)
                                                 : inspectPostgres(conn);
}

/// Creates the schema in the empty database behind `conn`, unless another
/// process did so first.
static Error createSchema(sql::Connection &conn) {
  Expected<sql::Transaction> transaction = sql::Transaction::begin(conn);
  if (!transaction)
    return transaction.takeError();
  Expected<DatabaseInfo> info = inspect(conn);
  if (!info)
    return info.takeError();
  if (info->contents == Contents::Records)
    return Error::success();
  bool sqlite = conn.getEngine() == sql::Engine::SQLite;
  if (Error err = conn.exec(sqlite ? kSqliteSchemaSql : kPostgresSchemaSql))
    return err;
  if (sqlite)
    if (Error err = conn.exec(kSqliteQueueTablesSql))
      return err;
  if (sqlite) {
    std::string pragmas =
        llvm::formatv("PRAGMA application_id = {0};\n"
                      "PRAGMA user_version = {1};\n",
                      static_cast<int32_t>(RecordsDatabase::kApplicationId),
                      RecordsDatabase::kSchemaVersion);
    if (Error err = conn.exec(pragmas.c_str()))
      return err;
  } else {
    Expected<sql::Statement> stmt = conn.prepare(
        "INSERT INTO meta (key, value) VALUES ('application', ?1)");
    if (!stmt)
      return stmt.takeError();
    stmt->bind(1, StringRef(kApplicationName));
    if (Error err = stmt->run())
      return err;
  }
  Expected<sql::Statement> stmt =
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
/// version it then has. (PostgreSQL databases start at version 3.)
static Expected<int64_t> migrate(sql::Connection &conn) {
  Expected<sql::Transaction> transaction = sql::Transaction::begin(conn);
  if (!transaction)
    return transaction.takeError();
  // Look again under the write lock.
  Expected<DatabaseInfo> info = inspect(conn);
  if (!info)
    return info.takeError();
  if (info->contents != Contents::Records)
    return conn.error("records database vanished while migrating it", nullptr);
  int64_t version = info->schemaVersion;
  if (version == 1) {
    if (Error err = conn.exec(kMigrateToV2Sql))
      return std::move(err);
    version = 2;
  }
  if (version == 2) {
    if (Error err = conn.exec(kMigrateToV3Sql))
      return std::move(err);
    if (Error err = conn.exec(kSqliteQueueTablesSql))
      return std::move(err);
    version = 3;
  }
  if (version == 3) {
    bool sqlite = conn.getEngine() == sql::Engine::SQLite;
    if (Error err = conn.exec(sqlite ? kSqliteMigrateToV4Sql
                                     : kPostgresMigrateToV4Sql))
      return std::move(err);
    version = 4;
  }
  static_assert(RecordsDatabase::kSchemaVersion == 4,
                "migrate() must reach the new schema version");
  if (Error err = transaction->commit())
    return std::move(err);
  return version;
}

/// Opens the SQLite file at `path`: WAL mode, every commit synced, foreign
/// keys on.
static Expected<std::unique_ptr<sql::Connection>>
openSqlite(StringRef path, RecordsDatabase::OpenMode mode,
           int64_t &schemaVersion) {
  using OpenMode = RecordsDatabase::OpenMode;
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
  auto conn = std::make_unique<sql::SqliteConnection>(raw, path.str());
  conn->setErrorContext("cannot open records database");
  if (rc != SQLITE_OK)
    return conn->error("");
  sqlite3_busy_timeout(raw, kBusyTimeoutMs);

  // Look before writing anything: a file that is not ours stays untouched.
  Expected<DatabaseInfo> info = inspect(*conn);
  if (!info)
    return info.takeError();
  schemaVersion = info->schemaVersion;
  if (info->contents == Contents::Empty) {
    if (mode != OpenMode::CreateOrOpen)
      return conn->error("not a Tessel records database (it is empty)",
                         nullptr);
    if (Error err = conn->exec("PRAGMA journal_mode = WAL"))
      return std::move(err);
    if (Error err = createSchema(*conn))
      return std::move(err);
    schemaVersion = RecordsDatabase::kSchemaVersion;
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
    if (schemaVersion < RecordsDatabase::kSchemaVersion) {
      conn->setErrorContext(llvm::formatv("cannot migrate records database "
                                          "from schema version {0} to {1}",
                                          schemaVersion,
                                          RecordsDatabase::kSchemaVersion)
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
  return std::unique_ptr<sql::Connection>(std::move(conn));
}

/// Opens the PostgreSQL database at `url`; the records live in its current
/// schema (`search_path`), created there when it has no tables.
static Expected<std::unique_ptr<sql::Connection>>
openPostgres(StringRef url, RecordsDatabase::OpenMode mode,
             int64_t &schemaVersion) {
#ifdef TESSEL_HAVE_POSTGRESQL
  using OpenMode = RecordsDatabase::OpenMode;
  Expected<std::unique_ptr<sql::Connection>> conn = sql::connectPostgres(url);
  if (!conn)
    return conn.takeError();
  (*conn)->setErrorContext("cannot open records database");
  Expected<DatabaseInfo> info = inspect(**conn);
  if (!info)
    return info.takeError();
  schemaVersion = info->schemaVersion;
  if (info->contents == Contents::Empty) {
    if (mode != OpenMode::CreateOrOpen)
      return (*conn)->error("not a Tessel records database (it has no tables)",
                            nullptr);
    if (Error err = createSchema(**conn))
      return std::move(err);
    schemaVersion = RecordsDatabase::kSchemaVersion;
  }
  if (schemaVersion < 3)
    return (*conn)->error(llvm::formatv("records database schema version {0} "
                                        "(PostgreSQL records start at 3)",
                                        schemaVersion),
                          nullptr);
  if (schemaVersion < RecordsDatabase::kSchemaVersion &&
      mode != OpenMode::ReadOnly) {
    (*conn)->setErrorContext(llvm::formatv("cannot migrate records database "
                                           "from schema version {0} to {1}",
                                           schemaVersion,
                                           RecordsDatabase::kSchemaVersion)
                                 .str());
    Expected<int64_t> migrated = migrate(**conn);
    if (!migrated)
      return migrated.takeError();
    schemaVersion = *migrated;
    (*conn)->setErrorContext("cannot open records database");
  }
  if (mode == OpenMode::ReadOnly)
    if (Error err = (*conn)->exec("SET SESSION CHARACTERISTICS AS TRANSACTION "
                                  "READ ONLY"))
      return std::move(err);
  return conn;
#else
  (void)mode;
  (void)schemaVersion;
  return makeError(sql::redactPostgresUrl(url) +
                   ": this Tessel was built without PostgreSQL support "
                   "(libpq was not found at configure time)");
#endif
}

Expected<std::unique_ptr<RecordsDatabase>>
RecordsDatabase::open(StringRef location, OpenMode mode) {
  int64_t schemaVersion = 0;
  Expected<std::unique_ptr<sql::Connection>> conn =
      sql::isPostgresUrl(location) ? openPostgres(location, mode, schemaVersion)
                                   : openSqlite(location, mode, schemaVersion);
  if (!conn)
    return conn.takeError();
  (*conn)->setErrorContext("");
  return std::unique_ptr<RecordsDatabase>(new RecordsDatabase(
      std::move(*conn), mode == OpenMode::ReadOnly, schemaVersion));
}

RecordsDatabase::RecordsDatabase(std::unique_ptr<sql::Connection> conn,
                                 bool readOnly, int64_t schemaVersion)
    : conn(std::move(conn)), readOnly(readOnly), schemaVersion(schemaVersion) {
  path = this->conn->getName().str();
}

RecordsDatabase::~RecordsDatabase() = default;
