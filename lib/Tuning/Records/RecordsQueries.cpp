//===- RecordsQueries.cpp - Reading the records database ------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Records/RecordsDatabase.h"

#include "SqlConnection.h"

#include "llvm/Support/JSON.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tessel;
using llvm::Error;
using llvm::Expected;
using llvm::StringRef;

Expected<bool> RecordsDatabase::hasMeasured(int64_t configId,
                                            StringRef target) {
  Expected<sql::Statement> stmt =
      conn->prepare("SELECT 1 FROM measurements WHERE config_id = ?1 AND "
                    "target = ?2 LIMIT 1");
  if (!stmt)
    return stmt.takeError();
  stmt->bind(1, configId).bind(2, target);
  return stmt->step();
}

Expected<std::vector<ConfigRecord>>
RecordsDatabase::getMeasuredConfigs(int64_t taskId, StringRef target) {
  Expected<sql::Statement> stmt = conn->prepare(
      "SELECT c.id, s.id, s.sketch, c.config FROM sketches s "
      "JOIN configs c ON c.sketch_id = s.id "
      "WHERE s.task_id = ?1 AND EXISTS (SELECT 1 FROM measurements m "
      "WHERE m.config_id = c.id AND m.target = ?2) ORDER BY c.id");
  if (!stmt)
    return stmt.takeError();
  stmt->bind(1, taskId).bind(2, target);
  std::vector<ConfigRecord> configs;
  while (true) {
    Expected<bool> row = stmt->step();
    if (!row)
      return row.takeError();
    if (!*row)
      return configs;
    ConfigRecord &config = configs.emplace_back();
    config.configId = stmt->getInt(0);
    config.sketchId = stmt->getInt(1);
    config.sketch = stmt->getText(2);
    config.config = stmt->getText(3);
  }
}

Expected<std::vector<BestRecord>>
RecordsDatabase::queryRanked(StringRef workloadKey, StringRef target,
                             bool exactTarget, int64_t limit) {
  // Exact: only `target`. Otherwise `target` first, then GPU measurements
  // before simulated ones; the fastest first, then the earliest.
  const char *exactSql =
      "SELECT c.id, s.sketch, c.config, m.target, m.simulated, m.median_us, "
      "t.flops FROM tasks t JOIN sketches s ON s.task_id = t.id "
      "JOIN configs c ON c.sketch_id = s.id "
      "JOIN measurements m ON m.config_id = c.id "
      "WHERE t.workload_key = ?1 AND m.status = 'ok' AND m.target = ?2 "
      "ORDER BY m.median_us, m.id LIMIT ?3";
  const char *preferredSql =
      "SELECT c.id, s.sketch, c.config, m.target, m.simulated, m.median_us, "
      "t.flops FROM tasks t JOIN sketches s ON s.task_id = t.id "
      "JOIN configs c ON c.sketch_id = s.id "
      "JOIN measurements m ON m.config_id = c.id "
      "WHERE t.workload_key = ?1 AND m.status = 'ok' "
      "ORDER BY m.target <> ?2, m.simulated, m.median_us, m.id LIMIT ?3";
  Expected<sql::Statement> stmt =
      conn->prepare(exactTarget ? exactSql : preferredSql);
  if (!stmt)
    return stmt.takeError();
  stmt->bind(1, workloadKey).bind(2, target).bind(3, limit);
  std::vector<BestRecord> records;
  while (true) {
    Expected<bool> row = stmt->step();
    if (!row)
      return row.takeError();
    if (!*row)
      return records;
    BestRecord &best = records.emplace_back();
    best.configId = stmt->getInt(0);
    best.sketch = stmt->getText(1);
    best.config = stmt->getText(2);
    best.target = stmt->getText(3);
    best.simulated = stmt->getInt(4) != 0;
    best.medianUs = stmt->getDouble(5);
    double flops = stmt->getDouble(6);
    // FLOPs / (median * 1e-6 s) / 1e9.
    best.gflops = best.medianUs > 0 ? flops / best.medianUs / 1e3 : 0;
  }
}

Expected<std::optional<BestRecord>>
RecordsDatabase::queryBest(StringRef workloadKey, StringRef target,
                           bool exactTarget) {
  Expected<std::vector<BestRecord>> ranked =
      queryRanked(workloadKey, target, exactTarget, /*limit=*/1);
  if (!ranked)
    return ranked.takeError();
  if (ranked->empty())
    return std::nullopt;
  return ranked->front();
}

Expected<std::optional<BestRecord>>
RecordsDatabase::getBestRecord(StringRef workloadKey, StringRef target) {
  return queryBest(workloadKey, target, /*exactTarget=*/true);
}

Expected<std::optional<BestRecord>>
RecordsDatabase::getBestRecordAnyTarget(StringRef workloadKey,
                                        StringRef preferredTarget) {
  return queryBest(workloadKey, preferredTarget, /*exactTarget=*/false);
}

Expected<std::vector<BestRecord>>
RecordsDatabase::getRankedRecordsAnyTarget(StringRef workloadKey,
                                           StringRef preferredTarget,
                                           int64_t limit) {
  return queryRanked(workloadKey, preferredTarget, /*exactTarget=*/false,
                     limit);
}

/// The columns readMeasurements() reads, from `sketches s`, `configs c` and
/// `measurements m`. A macro, so that each query is one string literal:
/// Connection::prepare() caches statements by the address of their text.
#define TESSEL_MEASUREMENT_QUERY                                               \
  "SELECT m.id, m.run_id, c.id, s.id, s.sketch, c.config, m.target, "         \
  "m.simulated, m.status, m.median_us, m.min_us, m.max_us, m.stddev_us, "      \
  "m.repeats, m.registers, m.spill_bytes, m.shared_bytes, m.message, "         \
  "m.measured_at, m.elapsed_s, m.trial, s.task_id FROM sketches s "            \
  "JOIN configs c ON c.sketch_id = s.id "                                      \
  "JOIN measurements m ON m.config_id = c.id "

/// The rows of a TESSEL_MEASUREMENT_QUERY statement.
static Expected<std::vector<MeasurementRecord>>
readMeasurements(sql::Connection &connection, sql::Statement &statement) {
  sql::Connection *conn = &connection;
  sql::Statement *stmt = &statement;
  std::vector<MeasurementRecord> records;
  while (true) {
    Expected<bool> row = stmt->step();
    if (!row)
      return row.takeError();
    if (!*row)
      return records;
    MeasurementRecord &record = records.emplace_back();
    record.id = stmt->getInt(0);
    record.runId = stmt->getInt(1);
    record.configId = stmt->getInt(2);
    record.sketchId = stmt->getInt(3);
    record.sketch = stmt->getText(4);
    record.config = stmt->getText(5);
    record.target = stmt->getText(6);
    record.simulated = stmt->getInt(7) != 0;
    std::string status = stmt->getText(8);
    std::optional<MeasureStatus> parsed = symbolizeMeasureStatus(status);
    if (!parsed)
      return conn->error(llvm::formatv("measurement {0} has unknown status "
                                       "'{1}'",
                                       record.id, status),
                         nullptr);
    record.status = *parsed;
    // NULL (a failed measurement) reads as 0.
    record.timing.medianUs = stmt->getDouble(9);
    record.timing.minUs = stmt->getDouble(10);
    record.timing.maxUs = stmt->getDouble(11);
    record.timing.stddevUs = stmt->getDouble(12);
    record.timing.repeats = static_cast<int>(stmt->getInt(13));
    record.registers = stmt->getInt(14);
    record.spillBytes = stmt->getInt(15);
    record.sharedBytes = stmt->getInt(16);
    record.message = stmt->getText(17);
    record.measuredAt = stmt->getDouble(18);
    record.elapsedS = stmt->getDouble(19);
    record.trial = stmt->getInt(20);
    record.taskId = stmt->getInt(21);
  }
}

Expected<std::vector<MeasurementRecord>>
RecordsDatabase::getMeasurements(int64_t taskId, StringRef target) {
  Expected<sql::Statement> stmt =
      conn->prepare(TESSEL_MEASUREMENT_QUERY
                    "WHERE s.task_id = ?1 AND m.target = ?2 ORDER BY m.id");
  if (!stmt)
    return stmt.takeError();
  stmt->bind(1, taskId).bind(2, target);
  return readMeasurements(*conn, *stmt);
}

Expected<std::vector<MeasurementRecord>>
RecordsDatabase::getRunMeasurements(int64_t runId) {
  Expected<sql::Statement> stmt = conn->prepare(
      TESSEL_MEASUREMENT_QUERY "WHERE m.run_id = ?1 ORDER BY m.id");
  if (!stmt)
    return stmt.takeError();
  stmt->bind(1, runId);
  return readMeasurements(*conn, *stmt);
}

/// Reads the run columns (id, started_at, strategy, seed, measurer,
/// simulated, device_json, options_json, tessel_version, model_source) of the
/// current row.
static RunInfo readRun(const sql::Statement &stmt) {
  RunInfo run;
  run.id = stmt.getInt(0);
  run.startedAt = stmt.getDouble(1);
  run.strategy = stmt.getText(2);
  run.seed = static_cast<uint64_t>(stmt.getInt(3));
  run.measurer = stmt.getText(4);
  run.simulated = stmt.getInt(5) != 0;
  run.deviceJson = stmt.getText(6);
  run.optionsJson = stmt.getText(7);
  run.tesselVersion = stmt.getText(8);
  run.modelSource = stmt.getText(9);
  return run;
}

Expected<PtxCounts> RecordsDatabase::getKernelReport(int64_t measurementId) {
  PtxCounts report;
  if (schemaVersion < 4)
    return report;
  Expected<sql::Statement> stmt = conn->prepare(
      "SELECT report FROM kernel_reports WHERE measurement_id = ?1");
  if (!stmt)
    return stmt.takeError();
  stmt->bind(1, measurementId);
  Expected<bool> row = stmt->step();
  if (!row)
    return row.takeError();
  if (!*row)
    return report;
  std::string text = stmt->getText(0);
  Expected<llvm::json::Value> value = llvm::json::parse(text);
  const llvm::json::Object *counts = value ? value->getAsObject() : nullptr;
  if (!counts) {
    if (!value)
      llvm::consumeError(value.takeError());
    return conn->error(llvm::formatv("measurement {0} has a corrupt kernel "
                                     "report",
                                     measurementId),
                       nullptr);
  }
  for (const auto &[key, count] : *counts)
    if (std::optional<int64_t> n = count.getAsInteger())
      report[key.str()] = *n;
  return report;
}

Expected<std::vector<RunInfo>> RecordsDatabase::getRuns() {
  // Version 1 (opened read-only) has no model_source: it reads as ''.
  Expected<sql::Statement> stmt = conn->prepare(
      schemaVersion >= 2
          ? "SELECT id, started_at, strategy, seed, measurer, simulated, "
            "device_json, options_json, tessel_version, model_source "
            "FROM runs ORDER BY id"
          : "SELECT id, started_at, strategy, seed, measurer, simulated, "
            "device_json, options_json, tessel_version, '' "
            "FROM runs ORDER BY id");
  if (!stmt)
    return stmt.takeError();
  std::vector<RunInfo> runs;
  while (true) {
    Expected<bool> row = stmt->step();
    if (!row)
      return row.takeError();
    if (!*row)
      return runs;
    runs.push_back(readRun(*stmt));
  }
}

Expected<RunInfo> RecordsDatabase::getRun(int64_t id) {
  Expected<sql::Statement> stmt = conn->prepare(
      schemaVersion >= 2
          ? "SELECT id, started_at, strategy, seed, measurer, simulated, "
            "device_json, options_json, tessel_version, model_source "
            "FROM runs WHERE id = ?1"
          : "SELECT id, started_at, strategy, seed, measurer, simulated, "
            "device_json, options_json, tessel_version, '' "
            "FROM runs WHERE id = ?1");
  if (!stmt)
    return stmt.takeError();
  stmt->bind(1, id);
  Expected<bool> row = stmt->step();
  if (!row)
    return row.takeError();
  if (!*row)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("no run {0} in '{1}'", id, path).str());
  return readRun(*stmt);
}

/// Reads the task columns (id, workload_key, op_kind, flops, weight,
/// description) of the current row.
static TaskInfo readTask(const sql::Statement &stmt) {
  TaskInfo task;
  task.id = stmt.getInt(0);
  task.workloadKey = stmt.getText(1);
  task.opKind = stmt.getText(2);
  task.flops = stmt.getDouble(3);
  task.weight = stmt.getInt(4);
  task.description = stmt.getText(5);
  return task;
}

Expected<std::vector<TaskInfo>> RecordsDatabase::getTasks() {
  Expected<sql::Statement> stmt =
      conn->prepare("SELECT id, workload_key, op_kind, flops, weight, "
                    "description FROM tasks ORDER BY id");
  if (!stmt)
    return stmt.takeError();
  std::vector<TaskInfo> tasks;
  while (true) {
    Expected<bool> row = stmt->step();
    if (!row)
      return row.takeError();
    if (!*row)
      return tasks;
    tasks.push_back(readTask(*stmt));
  }
}

Expected<std::optional<TaskInfo>>
RecordsDatabase::getTask(StringRef workloadKey) {
  Expected<sql::Statement> stmt =
      conn->prepare("SELECT id, workload_key, op_kind, flops, weight, "
                    "description FROM tasks WHERE workload_key = ?1");
  if (!stmt)
    return stmt.takeError();
  stmt->bind(1, workloadKey);
  Expected<bool> row = stmt->step();
  if (!row)
    return row.takeError();
  if (!*row)
    return std::nullopt;
  return readTask(*stmt);
}
