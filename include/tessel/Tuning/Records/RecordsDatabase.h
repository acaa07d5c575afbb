//===- RecordsDatabase.h - Tuning records in SQLite or PostgreSQL *- C++
//-*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The records database keeps every measurement the tuner makes, in one SQLite
// file or in a PostgreSQL database that tuners on many hosts share: tuning
// runs, tasks (workloads), the sketches and configs tried for
// each task, and the measurements of those configs on a target. A tuning
// session resumes from it (no config is measured twice, the cost model is
// retrained on earlier rows), and compilation picks the best config of a
// workload from it. Every measurement is committed on its own, so a tuner
// killed at any point loses none of the measurements it has recorded.
//
// The schema is documented in docs/RecordsDatabase.md.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_RECORDS_RECORDSDATABASE_H
#define TESSEL_TUNING_RECORDS_RECORDSDATABASE_H

#include "tessel/Tuning/Measure/Measurer.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace tessel {
namespace sql {
class Connection;
} // namespace sql

/// One tuning run (a `runs` row).
struct RunInfo {
  /// The row id; set by getRuns() and getRun(), ignored by beginRun().
  int64_t id = 0;
  /// Unix time in seconds; beginRun() uses the current time when it is 0.
  double startedAt = 0;
  /// The search strategy, e.g. "evolutionary".
  std::string strategy;
  uint64_t seed = 0;
  /// The measurer's name, e.g. "sim:h100-sxm".
  std::string measurer;
  /// True when the run's measurer is a model rather than a GPU.
  bool simulated = false;
  /// The device description and the tuning options, as JSON text.
  std::string deviceJson = "{}";
  std::string optionsJson = "{}";
  std::string tesselVersion;
  /// The text of the model (the .mlir source) the run tuned, so that the run
  /// can be repeated without the original file; empty when not recorded
  /// (always for runs recorded before schema version 2).
  std::string modelSource;
};

/// One task (a `tasks` row): a workload to tune.
struct TaskInfo {
  int64_t id = 0;
  /// Identifies the workload across runs and models; unique.
  std::string workloadKey;
  /// The kind of operation, e.g. "matmul".
  std::string opKind;
  /// Floating-point operations of one execution (an FMA is 2).
  double flops = 0;
  /// How often the workload occurs in the model it came from.
  int64_t weight = 1;
  std::string description;
};

/// A config with the sketch it belongs to.
struct ConfigRecord {
  int64_t configId = 0;
  int64_t sketchId = 0;
  /// The printed `#tessel.sketch` and `#tessel.config` attributes.
  std::string sketch;
  std::string config;
};

/// One measurement (a `measurements` row) with its sketch and config.
struct MeasurementRecord {
  int64_t id = 0;
  int64_t runId = 0;
  /// The task (a `tasks` row id) the config belongs to.
  int64_t taskId = 0;
  int64_t configId = 0;
  int64_t sketchId = 0;
  std::string sketch;
  std::string config;
  /// Where it was measured, e.g. "sim:h100-sxm" or "cuda:NVIDIA H100".
  std::string target;
  bool simulated = false;
  MeasureStatus status = MeasureStatus::Ok;
  /// All zero unless status is Ok.
  TimingStats timing;
  int64_t registers = 0;
  /// Spill stores plus spill loads, in bytes.
  int64_t spillBytes = 0;
  int64_t sharedBytes = 0;
  std::string message;
  /// Unix time of the measurement, in seconds.
  double measuredAt = 0;
  /// Seconds since the start of the run.
  double elapsedS = 0;
  int64_t trial = 0;

  bool isOk() const { return status == MeasureStatus::Ok; }
};

/// The fastest successful measurement of a workload.
struct BestRecord {
  int64_t configId = 0;
  std::string sketch;
  std::string config;
  std::string target;
  bool simulated = false;
  double medianUs = 0;
  /// The task's FLOPs over the median time (0 when the task has no FLOPs).
  double gflops = 0;
};

/// What importJsonLines() did.
struct ImportSummary {
  /// Non-blank lines read.
  int64_t lines = 0;
  /// Measurements added, and those skipped because they were already there.
  int64_t added = 0;
  int64_t duplicates = 0;
};

/// A tuning records database: one SQLite file (WAL mode, foreign keys on,
/// a 5 s busy timeout), or the current schema of a PostgreSQL database
/// (`postgresql://user:password@host:port/dbname`), which many processes may
/// write at once. Methods return errors rather than throwing; no method
/// modifies a database that is not a Tessel records database.
class RecordsDatabase {
public:
  enum class OpenMode {
    /// Opens the database, creating the file and its schema when missing.
    CreateOrOpen,
    /// Opens an existing records database for reading and writing.
    OpenExisting,
    /// Opens an existing records database; every write fails.
    ReadOnly,
  };

  /// `PRAGMA application_id` of every records database ("TSLR").
  static constexpr uint32_t kApplicationId = 0x54534C52;
  /// The schema version this Tessel writes (`meta.schema_version` and
  /// `PRAGMA user_version`).
  static constexpr int64_t kSchemaVersion = 4;

  /// Opens the records database at `path`: a PostgreSQL URL (postgresql://
  /// or postgres://), else an SQLite file. Fails, naming the file or the URL
  /// without its password and leaving the database untouched, when it cannot
  /// be reached, is not an SQLite database, belongs to another application,
  /// has a newer schema, or is corrupt. A database of an older
  /// schema is migrated to kSchemaVersion in place, in one transaction,
  /// unless `mode` is ReadOnly: then it is read as it is.
  static llvm::Expected<std::unique_ptr<RecordsDatabase>>
  open(llvm::StringRef path, OpenMode mode);

  ~RecordsDatabase();
  RecordsDatabase(const RecordsDatabase &) = delete;
  RecordsDatabase &operator=(const RecordsDatabase &) = delete;

  /// The file this database lives in, or its URL without the password.
  llvm::StringRef getPath() const { return path; }
  bool isReadOnly() const { return readOnly; }
  /// The schema version of the file: kSchemaVersion, or an older one when a
  /// database of an older schema was opened read-only.
  int64_t getSchemaVersion() const { return schemaVersion; }

  /// Records the start of a tuning run; returns its id.
  llvm::Expected<int64_t> beginRun(const RunInfo &info);

  /// Returns the id of the task `workloadKey`, adding it when new. Fails when
  /// the task exists with another op kind or FLOP count.
  llvm::Expected<int64_t> getOrAddTask(llvm::StringRef workloadKey,
                                       llvm::StringRef opKind, double flops,
                                       int64_t weight,
                                       llvm::StringRef description);
  /// Returns the id of the sketch `sketchText` of task `taskId`, adding it
  /// when new.
  llvm::Expected<int64_t> getOrAddSketch(int64_t taskId,
                                         llvm::StringRef sketchText);
  /// Returns the id of the config `configText` of sketch `sketchId`, adding
  /// it when new.
  llvm::Expected<int64_t> getOrAddConfig(int64_t sketchId,
                                         llvm::StringRef configText);

  /// Records `result` as trial `trial` of run `runId`, measured
  /// `elapsedS` seconds after the run started; the target is
  /// `result.device`. The row is committed (and synced) before this returns.
  /// A run measures a config on a target once: when the run has that
  /// measurement already (a retried write), nothing is added and its id is
  /// returned.
  /// Fails when `result.simulated` disagrees with the target (simulated
  /// targets, and only they, start with "sim:").
  llvm::Expected<int64_t> addMeasurement(int64_t runId, int64_t configId,
                                         const MeasureResult &result,
                                         int64_t trial, double elapsedS);

  /// Whether config `configId` has a measurement (of any status) on
  /// `target`.
  llvm::Expected<bool> hasMeasured(int64_t configId, llvm::StringRef target);
  /// The configs of task `taskId` measured on `target`, by config id.
  llvm::Expected<std::vector<ConfigRecord>>
  getMeasuredConfigs(int64_t taskId, llvm::StringRef target);

  /// The fastest `ok` measurement of `workloadKey` on exactly `target`
  /// (ties go to the earlier measurement); std::nullopt when there is none.
  llvm::Expected<std::optional<BestRecord>>
  getBestRecord(llvm::StringRef workloadKey, llvm::StringRef target);
  /// The fastest `ok` measurement of `workloadKey` on `preferredTarget` when
  /// it has one; otherwise the fastest on any target, preferring GPU
  /// measurements over simulated ones.
  llvm::Expected<std::optional<BestRecord>>
  getBestRecordAnyTarget(llvm::StringRef workloadKey,
                         llvm::StringRef preferredTarget);
  /// The first `limit` `ok` measurements of `workloadKey` in the order of
  /// getBestRecordAnyTarget (its best first).
  llvm::Expected<std::vector<BestRecord>>
  getRankedRecordsAnyTarget(llvm::StringRef workloadKey,
                            llvm::StringRef preferredTarget, int64_t limit);

  /// Every measurement of task `taskId` on `target`, oldest first.
  llvm::Expected<std::vector<MeasurementRecord>>
  getMeasurements(int64_t taskId, llvm::StringRef target);
  /// Every measurement of run `runId`, oldest first.
  llvm::Expected<std::vector<MeasurementRecord>>
  getRunMeasurements(int64_t runId);
  /// The static kernel report (PtxReport.h) of measurement `measurementId`:
  /// the PTX counts of the kernel it compiled and measured; empty for a
  /// measurement that compiled nothing (analytic fidelity) or was recorded
  /// before schema version 4.
  llvm::Expected<PtxCounts> getKernelReport(int64_t measurementId);
  /// Every run, oldest first.
  llvm::Expected<std::vector<RunInfo>> getRuns();
  /// The run `id`; fails when there is no such run.
  llvm::Expected<RunInfo> getRun(int64_t id);
  /// Every task, by id.
  llvm::Expected<std::vector<TaskInfo>> getTasks();
  /// The task `workloadKey`, or std::nullopt.
  llvm::Expected<std::optional<TaskInfo>> getTask(llvm::StringRef workloadKey);

  /// Writes one self-contained JSON object per measurement, one a line, in
  /// the order they were recorded (format: docs/RecordsDatabase.md).
  llvm::Error exportJsonLines(llvm::raw_ostream &os);
  /// exportJsonLines() into the file `path` ("-": standard output), written
  /// whole or not at all.
  llvm::Error exportJsonLinesFile(llvm::StringRef path);
  /// Adds the measurements of exportJsonLines() text, with their runs, tasks,
  /// sketches and configs; measurements already present are skipped, so
  /// importing twice adds nothing. All or nothing: a malformed line fails
  /// the import, naming `sourceName` and the line number.
  llvm::Expected<ImportSummary>
  importJsonLines(llvm::StringRef text,
                  llvm::StringRef sourceName = "<json lines>");
  /// importJsonLines() of the file at `path`.
  llvm::Expected<ImportSummary> importJsonLinesFile(llvm::StringRef path);

  /// Runs SQLite's `PRAGMA integrity_check`; fails with its report unless it
  /// is "ok". (A PostgreSQL server keeps its storage consistent itself.)
  llvm::Error checkIntegrity();

private:
  friend class MeasurementQueue;
  RecordsDatabase(std::unique_ptr<sql::Connection> conn, bool readOnly,
                  int64_t schemaVersion);

  /// Inserts the run `info` as it is (`id` is ignored).
  llvm::Expected<int64_t> insertRun(const RunInfo &info);
  /// A measurement's row id, and whether insertMeasurement() added it.
  struct MeasurementId {
    int64_t id;
    bool inserted;
  };
  /// Inserts `row` (its ids other than `runId` and `configId` are ignored)
  /// and its kernel's `report` (none when empty) unless the run has a
  /// measurement of the config on the target already: then returns that
  /// one's id, with `inserted` false.
  llvm::Expected<MeasurementId>
  insertMeasurement(int64_t runId, int64_t configId,
                    const MeasurementRecord &row, const PtxCounts &report);
  /// The best `limit` `ok` measurements of `workloadKey` on `target`, or
  /// preferring `target` unless `exactTarget`; queryBest: the first.
  llvm::Expected<std::vector<BestRecord>>
  queryRanked(llvm::StringRef workloadKey, llvm::StringRef target,
              bool exactTarget, int64_t limit);
  llvm::Expected<std::optional<BestRecord>>
  queryBest(llvm::StringRef workloadKey, llvm::StringRef target,
            bool exactTarget);

  std::unique_ptr<sql::Connection> conn;
  std::string path;
  bool readOnly;
  int64_t schemaVersion;
};

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_RECORDS_RECORDSDATABASE_H
