//===- RecordsJson.cpp - JSON lines export and import of records ----------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// One self-contained JSON object per measurement: the run and task it belongs
// to are repeated on every line, and database ids never appear, so lines can
// be imported into any records database. Exports written before schema
// version 2 have no `run.model_source`; it reads as "".
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Records/RecordsDatabase.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/ToolOutputFile.h"

#include "RunColumns.h"
#include "SqlConnection.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using namespace mlir::tessel;
using llvm::Error;
using llvm::Expected;
using llvm::StringRef;
namespace json = llvm::json;

/// Whether `object` has `key` with the value null. (Object::getNull() is
/// avoided: its std::optional<std::nullptr_t> result is passed differently
/// by GCC and Clang, so it breaks across a Clang-built libLLVM.)
static bool isNullField(const json::Object &object, StringRef key) {
  const json::Value *value = object.get(key);
  return value && value->kind() == json::Value::Null;
}

/// A NULL column as JSON null, other columns as numbers.
static json::Value nullableDouble(const sql::Statement &stmt, int column) {
  if (stmt.isNull(column))
    return nullptr;
  return stmt.getDouble(column);
}

Error RecordsDatabase::exportJsonLines(llvm::raw_ostream &os) {
  // Version 1 (opened read-only) has no model_source: it exports as "";
  // versions before 4 have no kernel reports. One literal per version:
  // Connection::prepare() caches statements by the address of their text.
#define TESSEL_EXPORT_QUERY(MODEL_SOURCE, KERNEL_REPORT, REPORT_JOIN)          \
  "SELECT r.started_at, r.strategy, r.seed, r.measurer, "                      \
  "r.simulated, r.device_json, r.options_json, r.tessel_version, "             \
  "t.workload_key, t.op_kind, t.flops, t.weight, t.description, "              \
  "s.sketch, c.config, m.target, m.simulated, m.status, "                      \
  "m.median_us, m.min_us, m.max_us, m.stddev_us, m.repeats, "                  \
  "m.registers, m.spill_bytes, m.shared_bytes, m.message, m.trial, "           \
  "m.measured_at, m.elapsed_s, " MODEL_SOURCE ", " KERNEL_REPORT " "           \
  "FROM measurements m JOIN runs r ON r.id = m.run_id "                        \
  "JOIN configs c ON c.id = m.config_id "                                      \
  "JOIN sketches s ON s.id = c.sketch_id "                                     \
  "JOIN tasks t ON t.id = s.task_id " REPORT_JOIN "ORDER BY m.id"
  Expected<sql::Statement> stmt = conn->prepare(
      schemaVersion >= 4
          ? TESSEL_EXPORT_QUERY(
                "r.model_source", "COALESCE(k.report, '')",
                "LEFT JOIN kernel_reports k ON k.measurement_id = m.id ")
      : schemaVersion >= 2 ? TESSEL_EXPORT_QUERY("r.model_source", "''", "")
                           : TESSEL_EXPORT_QUERY("''", "''", ""));
#undef TESSEL_EXPORT_QUERY
  if (!stmt)
    return stmt.takeError();
  while (true) {
    Expected<bool> row = stmt->step();
    if (!row)
      return row.takeError();
    if (!*row)
      return Error::success();
    json::Object run{
        {"started_at", stmt->getDouble(0)},
        {"strategy", stmt->getText(1)},
        {"seed", static_cast<uint64_t>(stmt->getInt(2))},
        {"measurer", stmt->getText(3)},
        {"simulated", stmt->getInt(4) != 0},
        {"device_json", stmt->getText(5)},
        {"options_json", stmt->getText(6)},
        {"tessel_version", stmt->getText(7)},
        {"model_source", stmt->getText(30)},
    };
    json::Object task{
        {"workload_key", stmt->getText(8)}, {"op_kind", stmt->getText(9)},
        {"flops", stmt->getDouble(10)},     {"weight", stmt->getInt(11)},
        {"description", stmt->getText(12)},
    };
    json::Object line{
        {"run", std::move(run)},
        {"task", std::move(task)},
        {"sketch", stmt->getText(13)},
        {"config", stmt->getText(14)},
        {"target", stmt->getText(15)},
        {"simulated", stmt->getInt(16) != 0},
        {"status", stmt->getText(17)},
        {"median_us", nullableDouble(*stmt, 18)},
        {"min_us", nullableDouble(*stmt, 19)},
        {"max_us", nullableDouble(*stmt, 20)},
        {"stddev_us", nullableDouble(*stmt, 21)},
        {"repeats", stmt->getInt(22)},
        {"registers", stmt->getInt(23)},
        {"spill_bytes", stmt->getInt(24)},
        {"shared_bytes", stmt->getInt(25)},
        {"message", stmt->getText(26)},
        {"trial", stmt->getInt(27)},
        {"measured_at", stmt->getDouble(28)},
        {"elapsed_s", stmt->getDouble(29)},
    };
    // Compiled measurements since schema version 4: the kernel's report.
    if (std::string report = stmt->getText(31); !report.empty()) {
      Expected<json::Value> counts = json::parse(report);
      if (!counts)
        return counts.takeError();
      line["kernel_report"] = std::move(*counts);
    }
    os << json::Value(std::move(line)) << '\n';
  }
}

namespace {
/// One parsed line.
struct ImportRow {
  int64_t line = 0;
  RunInfo run;
  TaskInfo task;
  MeasurementRecord measurement;
  /// The measured kernel's static report; empty when the line has none.
  PtxCounts kernelReport;
};

/// Reads the fields of one JSON object, remembering the first problem.
class FieldReader {
public:
  FieldReader(const json::Object &object, StringRef where)
      : object(object), where(where) {}

  std::string string(StringRef key) {
    if (std::optional<StringRef> value = object.getString(key))
      return value->str();
    fail(key, "a string");
    return {};
  }
  /// A string, or "" when the field is missing.
  std::string optionalString(StringRef key) {
    if (!object.get(key))
      return {};
    return string(key);
  }
  double number(StringRef key) {
    if (std::optional<double> value = object.getNumber(key))
      return *value;
    fail(key, "a number");
    return 0;
  }
  /// A number or null (read as 0).
  double nullableNumber(StringRef key) {
    if (isNullField(object, key))
      return 0;
    return number(key);
  }
  int64_t integer(StringRef key) {
    if (std::optional<int64_t> value = object.getInteger(key))
      return *value;
    fail(key, "an integer");
    return 0;
  }
  uint64_t unsignedInteger(StringRef key) {
    if (const json::Value *value = object.get(key))
      if (std::optional<uint64_t> result = value->getAsUINT64())
        return *result;
    fail(key, "an unsigned integer");
    return 0;
  }
  bool boolean(StringRef key) {
    if (std::optional<bool> value = object.getBoolean(key))
      return *value;
    fail(key, "a boolean");
    return false;
  }
  const json::Object *objectField(StringRef key) {
    if (const json::Object *value = object.getObject(key))
      return value;
    fail(key, "an object");
    return nullptr;
  }

  void fail(StringRef key, StringRef expected) {
    if (problem.empty())
      problem = (where + "'" + key + "' must be " + expected).str();
  }
  const std::string &getProblem() const { return problem; }

private:
  const json::Object &object;
  std::string where;
  std::string problem;
};
} // namespace

/// Parses one line into `row`; returns a description of the problem, or "".
static std::string parseLine(StringRef text, ImportRow &row) {
  Expected<json::Value> parsed = json::parse(text);
  if (!parsed)
    return "invalid JSON: " + llvm::toString(parsed.takeError());
  const json::Object *object = parsed->getAsObject();
  if (!object)
    return "not a JSON object";

  FieldReader reader(*object, "");
  if (const json::Object *run = reader.objectField("run")) {
    FieldReader runReader(*run, "run.");
    row.run.startedAt = runReader.number("started_at");
    row.run.strategy = runReader.string("strategy");
    row.run.seed = runReader.unsignedInteger("seed");
    row.run.measurer = runReader.string("measurer");
    row.run.simulated = runReader.boolean("simulated");
    row.run.deviceJson = runReader.string("device_json");
    row.run.optionsJson = runReader.string("options_json");
    row.run.tesselVersion = runReader.string("tessel_version");
    // Added in schema version 2; older exports do not have it.
    row.run.modelSource = runReader.optionalString("model_source");
    if (!runReader.getProblem().empty())
      return runReader.getProblem();
  }
  if (const json::Object *task = reader.objectField("task")) {
    FieldReader taskReader(*task, "task.");
    row.task.workloadKey = taskReader.string("workload_key");
    row.task.opKind = taskReader.string("op_kind");
    row.task.flops = taskReader.number("flops");
    row.task.weight = taskReader.integer("weight");
    row.task.description = taskReader.string("description");
    if (!taskReader.getProblem().empty())
      return taskReader.getProblem();
  }
  MeasurementRecord &m = row.measurement;
  m.sketch = reader.string("sketch");
  m.config = reader.string("config");
  m.target = reader.string("target");
  m.simulated = reader.boolean("simulated");
  std::string status = reader.string("status");
  m.timing.medianUs = reader.nullableNumber("median_us");
  m.timing.minUs = reader.nullableNumber("min_us");
  m.timing.maxUs = reader.nullableNumber("max_us");
  m.timing.stddevUs = reader.nullableNumber("stddev_us");
  m.timing.repeats = static_cast<int>(reader.integer("repeats"));
  m.registers = reader.integer("registers");
  m.spillBytes = reader.integer("spill_bytes");
  m.sharedBytes = reader.integer("shared_bytes");
  m.message = reader.string("message");
  m.trial = reader.integer("trial");
  m.measuredAt = reader.number("measured_at");
  m.elapsedS = reader.number("elapsed_s");
  // Added in schema version 4; compiled measurements only.
  if (object->get("kernel_report"))
    if (const json::Object *report = reader.objectField("kernel_report"))
      for (const auto &[key, count] : *report) {
        std::optional<int64_t> n = count.getAsInteger();
        if (!n)
          return "'kernel_report." + key.str() + "' must be an integer";
        row.kernelReport[key.str()] = *n;
      }
  if (!reader.getProblem().empty())
    return reader.getProblem();

  std::optional<MeasureStatus> parsedStatus = symbolizeMeasureStatus(status);
  if (!parsedStatus)
    return "unknown status '" + status + "'";
  m.status = *parsedStatus;
  if (m.isOk() && isNullField(*object, "median_us"))
    return "'median_us' must be a number for status 'ok'";
  if (row.task.workloadKey.empty())
    return "empty task.workload_key";
  if (m.target.empty())
    return "empty target";
  if (StringRef(m.target).starts_with("sim:") != m.simulated)
    return llvm::formatv("target '{0}' contradicts simulated = {1}", m.target,
                         m.simulated ? "true" : "false");
  return "";
}

Expected<ImportSummary> RecordsDatabase::importJsonLines(StringRef text,
                                                         StringRef sourceName) {
  auto lineError = [&](int64_t line, const llvm::Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   sourceName + ":" + llvm::Twine(line) + ": " +
                                       message);
  };

  // Parse every line before writing anything.
  ImportSummary summary;
  std::vector<ImportRow> rows;
  int64_t lineNumber = 0;
  while (!text.empty()) {
    auto [line, rest] = text.split('\n');
    text = rest;
    ++lineNumber;
    if (line.trim().empty())
      continue;
    ++summary.lines;
    ImportRow &row = rows.emplace_back();
    row.line = lineNumber;
    std::string problem = parseLine(line, row);
    if (!problem.empty())
      return lineError(lineNumber, problem);
  }
  if (rows.empty())
    return summary;
  if (readOnly)
    return conn->error("cannot import into a database opened read-only",
                       nullptr);

  Expected<sql::Transaction> transaction = sql::Transaction::begin(*conn);
  if (!transaction)
    return transaction.takeError();
  llvm::StringMap<int64_t> runIds;
  for (const ImportRow &row : rows) {
    // Runs have no natural key: a run is the one with the same fields.
    const RunInfo &run = row.run;
    std::string runKey =
        llvm::formatv("{0}\x1f{1}\x1f{2}\x1f{3}\x1f{4}\x1f{5}\x1f{6}\x1f{7}"
                      "\x1f{8}",
                      llvm::bit_cast<uint64_t>(run.startedAt), run.strategy,
                      run.seed, run.measurer, run.simulated, run.deviceJson,
                      run.optionsJson, run.tesselVersion, run.modelSource);
    auto [it, inserted] = runIds.try_emplace(runKey, 0);
    if (inserted) {
      Expected<sql::Statement> find = conn->prepare(
          "SELECT id FROM runs WHERE started_at = ?1 AND strategy = ?2 AND "
          "seed = ?3 AND measurer = ?4 AND simulated = ?5 AND "
          "device_json = ?6 AND options_json = ?7 AND tessel_version = ?8 AND "
          "model_source = ?9 ORDER BY id LIMIT 1");
      if (!find)
        return find.takeError();
      bindRunColumns(*find, run);
      Expected<bool> found = find->step();
      if (!found)
        return found.takeError();
      if (*found) {
        it->second = find->getInt(0);
      } else {
        Expected<int64_t> id = insertRun(run);
        if (!id)
          return lineError(row.line, llvm::toString(id.takeError()));
        it->second = *id;
      }
    }
    int64_t runId = it->second;

    const TaskInfo &task = row.task;
    const MeasurementRecord &m = row.measurement;
    Expected<int64_t> taskId =
        getOrAddTask(task.workloadKey, task.opKind, task.flops, task.weight,
                     task.description);
    if (!taskId)
      return lineError(row.line, llvm::toString(taskId.takeError()));
    Expected<int64_t> sketchId = getOrAddSketch(*taskId, m.sketch);
    if (!sketchId)
      return lineError(row.line, llvm::toString(sketchId.takeError()));
    Expected<int64_t> configId = getOrAddConfig(*sketchId, m.config);
    if (!configId)
      return lineError(row.line, llvm::toString(configId.takeError()));

    // A measurement of this config on this target is in the run already
    // (the unique key of measurements): a duplicate.
    Expected<MeasurementId> id =
        insertMeasurement(runId, *configId, m, row.kernelReport);
    if (!id)
      return lineError(row.line, llvm::toString(id.takeError()));
    ++(id->inserted ? summary.added : summary.duplicates);
  }
  if (Error err = transaction->commit())
    return std::move(err);
  return summary;
}

Expected<ImportSummary> RecordsDatabase::importJsonLinesFile(StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return llvm::createStringError(
        buffer.getError(),
        path + ": cannot read: " + buffer.getError().message());
  return importJsonLines((*buffer)->getBuffer(), path);
}

llvm::Error RecordsDatabase::exportJsonLinesFile(llvm::StringRef path) {
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(path, &error);
  if (!output)
    return llvm::createStringError(error);
  if (llvm::Error e = exportJsonLines(output->os()))
    return e;
  output->keep();
  return llvm::Error::success();
}
