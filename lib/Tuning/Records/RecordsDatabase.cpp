//===- RecordsDatabase.cpp - Opening the records database and writing it --===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Records/RecordsDatabase.h"

#include "RunColumns.h"
#include "SqlConnection.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <chrono>

using namespace mlir;
using namespace mlir::tessel;
using llvm::Error;
using llvm::Expected;
using llvm::StringRef;

/// The id that the INSERT ... RETURNING id statement `stmt` returns.
static Expected<int64_t> insertedId(sql::Statement &stmt) {
  Expected<bool> row = stmt.step();
  if (!row)
    return row.takeError();
  if (!*row)
    return llvm::createStringError("INSERT ... RETURNING id returned no row");
  int64_t id = stmt.getInt(0);
  if (Error err = stmt.run())
    return std::move(err);
  return id;
}

static double unixNow() {
  return std::chrono::duration<double>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

Error RecordsDatabase::checkIntegrity() {
  // A PostgreSQL server keeps its own storage consistent.
  if (conn->getEngine() != sql::Engine::SQLite)
    return Error::success();
  Expected<sql::Statement> stmt = conn->prepare("PRAGMA integrity_check");
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
  Expected<sql::Statement> stmt = conn->prepare(
      "INSERT INTO runs (started_at, strategy, seed, measurer, simulated, "
      "device_json, options_json, tessel_version, model_source) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) RETURNING id");
  if (!stmt)
    return stmt.takeError();
  bindRunColumns(*stmt, info);
  return insertedId(*stmt);
}

Expected<int64_t> RecordsDatabase::getOrAddTask(StringRef workloadKey,
                                                StringRef opKind, double flops,
                                                int64_t weight,
                                                StringRef description) {
  if (workloadKey.empty())
    return conn->error("empty workload key", nullptr);
  {
    Expected<sql::Statement> insert = conn->prepare(
        "INSERT INTO tasks (workload_key, op_kind, flops, weight, description) "
        "VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT DO NOTHING");
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
  Expected<sql::Statement> select = conn->prepare(
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
static Expected<int64_t> getOrAdd(sql::Connection &conn, const char *insertSql,
                                  const char *selectSql, int64_t parentId,
                                  StringRef text) {
  {
    Expected<sql::Statement> insert = conn.prepare(insertSql);
    if (!insert)
      return insert.takeError();
    insert->bind(1, parentId).bind(2, text);
    if (Error err = insert->run())
      return std::move(err);
  }
  Expected<sql::Statement> select = conn.prepare(selectSql);
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
  return getOrAdd(*conn,
                  "INSERT INTO sketches (task_id, sketch) VALUES (?1, ?2) "
                  "ON CONFLICT DO NOTHING",
                  "SELECT id FROM sketches WHERE task_id = ?1 AND sketch = ?2",
                  taskId, sketchText);
}

Expected<int64_t> RecordsDatabase::getOrAddConfig(int64_t sketchId,
                                                  StringRef configText) {
  return getOrAdd(*conn,
                  "INSERT INTO configs (sketch_id, config) VALUES (?1, ?2) "
                  "ON CONFLICT DO NOTHING",
                  "SELECT id FROM configs WHERE sketch_id = ?1 AND config = ?2",
                  sketchId, configText);
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
  Expected<MeasurementId> id =
      insertMeasurement(runId, configId, row, result.resources.ptx);
  if (!id)
    return id.takeError();
  return id->id;
}

Expected<RecordsDatabase::MeasurementId>
RecordsDatabase::insertMeasurement(int64_t runId, int64_t configId,
                                   const MeasurementRecord &row,
                                   const PtxCounts &report) {
  if (row.target.empty())
    return conn->error("measurement without a target", nullptr);
  if (StringRef(row.target).starts_with("sim:") != row.simulated)
    return conn->error(
        llvm::formatv("measurement on target '{0}' is marked {1}simulated; "
                      "simulated targets, and only they, start with 'sim:'",
                      row.target, row.simulated ? "" : "not "),
        nullptr);
  Expected<sql::Statement> stmt = conn->prepare(
      "INSERT INTO measurements (run_id, config_id, target, simulated, "
      "status, median_us, min_us, max_us, stddev_us, repeats, registers, "
      "spill_bytes, shared_bytes, message, measured_at, elapsed_s, trial) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, "
      "?15, ?16, ?17) ON CONFLICT (run_id, config_id, target) DO NOTHING "
      "RETURNING id");
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
  Expected<bool> inserted = stmt->step();
  if (!inserted)
    return inserted.takeError();
  if (*inserted) {
    int64_t id = stmt->getInt(0);
    if (Error err = stmt->run())
      return std::move(err);
    if (!report.empty()) {
      llvm::json::Object counts;
      for (const auto &[key, value] : report)
        counts[key] = value;
      std::string text;
      llvm::raw_string_ostream(text) << llvm::json::Value(std::move(counts));
      Expected<sql::Statement> insert = conn->prepare(
          "INSERT INTO kernel_reports (measurement_id, report) VALUES (?1, ?2)");
      if (!insert)
        return insert.takeError();
      insert->bind(1, id).bind(2, StringRef(text));
      if (Error err = insert->run())
        return std::move(err);
    }
    return MeasurementId{id, true};
  }
  // Measured before in this run on this target: a retried write.
  Expected<sql::Statement> existing = conn->prepare(
      "SELECT id FROM measurements WHERE run_id = ?1 AND config_id = ?2 AND "
      "target = ?3");
  if (!existing)
    return existing.takeError();
  existing->bind(1, runId).bind(2, configId).bind(3, StringRef(row.target));
  Expected<bool> found = existing->step();
  if (!found)
    return found.takeError();
  if (!*found)
    return conn->error("measurement vanished after a conflicting insertion",
                       nullptr);
  return MeasurementId{existing->getInt(0), false};
}
