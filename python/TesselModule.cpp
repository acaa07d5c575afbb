//===- TesselModule.cpp - The tessel._tessel Python extension -------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// A thin pybind11 layer over the library: every function takes module text,
// returns plain Python values (str, dict, list), and raises
// tessel._tessel.TesselError with the diagnostic text on failure. The
// `tessel` package (python/tessel/__init__.py) wraps these in classes.
//
//===----------------------------------------------------------------------===//

#include "tessel/Frontend/TextModule.h"
#include "tessel/Tuning/ApplyTuned/TuningSpec.h"
#include "tessel/Tuning/Records/RecordsDatabase.h"
#include "tessel/Tuning/Search/Task.h"
#include "tessel/Tuning/Tuner/Tuner.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>

namespace py = pybind11;
using namespace mlir;
using namespace mlir::tessel;

namespace {

/// Raised for every error of the library, with its message.
struct TesselError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The value of `expected`, or TesselError with its message.
template <typename T> T check(llvm::Expected<T> expected) {
  if (!expected)
    throw TesselError(llvm::toString(expected.takeError()));
  return std::move(*expected);
}

void check(llvm::Error error) {
  if (error)
    throw TesselError(llvm::toString(std::move(error)));
}

std::unique_ptr<TextModule> parse(const std::string &text,
                                  const std::string &sourceName) {
  return check(TextModule::parse(text, sourceName));
}

/// A JSON value as a Python object (via the json module, which keeps ints
/// and floats apart as JSON does).
py::object toPython(const llvm::json::Value &value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << value;
  return py::module_::import("json").attr("loads")(os.str());
}

py::list tasks(const std::string &text, const std::string &sourceName,
               bool includeSimpleTasks, const std::string &taskEquality) {
  std::optional<TaskEquality> equality = parseTaskEquality(taskEquality);
  if (!equality)
    throw TesselError("task_equality='" + taskEquality +
                      "' is not one of: structural, ignore-float-constants");
  std::unique_ptr<TextModule> module = parse(text, sourceName);
  TaskExtractionOptions options;
  options.includeSimpleTasks = includeSimpleTasks;
  options.equality = *equality;
  llvm::Expected<std::vector<TuningTask>> extracted =
      extractTasks(module->getModule(), &module->getContext(), options);
  if (!extracted)
    check(module->withDiagnostics(extracted.takeError()));
  py::list result;
  for (const TuningTask &task : *extracted) {
    py::dict entry;
    entry["workload_key"] = task.workloadKey;
    entry["op_kind"] = task.opKind;
    entry["flops"] = task.flops;
    entry["weight"] = task.weight;
    entry["description"] = task.describe();
    entry["fused_consumers"] = task.fusedConsumers;
    entry["sketches"] = task.sketches.size();
    result.append(entry);
  }
  return result;
}

py::dict compile(const std::string &text, const std::string &pipeline,
                 const std::string &sourceName) {
  std::unique_ptr<TextModule> module = parse(text, sourceName);
  {
    py::gil_scoped_release release;
    check(module->runPassPipeline(pipeline));
  }
  py::list kernels;
  for (const CompiledKernel &compiled :
       getCompiledKernels(module->getModule())) {
    const KernelResources &k = compiled.resources;
    py::dict entry;
    entry["module"] = compiled.module;
    entry["kernel"] = k.name;
    entry["registers"] = k.registers;
    entry["shared_memory_bytes"] = k.sharedMemoryBytes;
    entry["spill_store_bytes"] = k.spillStoreBytes;
    entry["spill_load_bytes"] = k.spillLoadBytes;
    entry["stack_bytes"] = k.stackBytes;
    entry["dynamic_shared_memory_bytes"] = k.dynamicSharedMemoryBytes;
    // The static kernel report of its PTX (PtxReport.h).
    py::dict ptx;
    for (const auto &[key, value] : k.ptx)
      ptx[py::str(key)] = value;
    entry["ptx"] = ptx;
    kernels.append(entry);
  }
  py::dict result;
  result["module"] = module->print();
  result["kernels"] = kernels;
  return result;
}

std::string apply(const std::string &text, const std::string &db,
                  const std::string &target, const std::string &sourceName) {
  std::unique_ptr<TextModule> module = parse(text, sourceName);
  check(module->applyTuned(db, target));
  return module->print();
}

/// The tuning spec (a transform library) of the model's best records.
py::dict exportSpec(const std::string &text, const std::string &dbPath,
                    const std::string &target, const std::string &sourceName) {
  std::unique_ptr<TextModule> module = parse(text, sourceName);
  std::unique_ptr<RecordsDatabase> db = check(
      RecordsDatabase::open(dbPath, RecordsDatabase::OpenMode::ReadOnly));
  std::string spec;
  llvm::raw_string_ostream os(spec);
  llvm::Expected<TuningSpecSummary> summary =
      exportTuningSpec(module->getModule(), *db, target, os);
  if (!summary)
    check(module->withDiagnostics(summary.takeError()));
  py::dict result;
  result["spec"] = os.str();
  result["workloads"] = summary->workloads;
  result["annotated"] = summary->annotated;
  return result;
}

/// Tunes `text` with the options of `optionsJson` (TuneOptions::fromCallerJSON);
/// `progress` is called with a dict after each round, with the GIL held.
/// An exception in `progress` (KeyboardInterrupt included) stops the run
/// after that round and is raised once the records are committed.
py::object tuneModel(const std::string &text, const std::string &optionsJson,
                const std::string &dbPath, py::object progress,
                const std::string &sourceName) {
  std::unique_ptr<TextModule> module = parse(text, sourceName);
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(optionsJson);
  if (!json)
    throw TesselError("tuning options: invalid JSON: " +
                      llvm::toString(json.takeError()));
  TuneOptions options = check(TuneOptions::fromCallerJSON(*json));
  check(options.verify());
  std::unique_ptr<RecordsDatabase> db = check(
      RecordsDatabase::open(dbPath, RecordsDatabase::OpenMode::CreateOrOpen));

  std::optional<py::error_already_set> callbackError;
  bool stop = false;
  TuneCallbacks callbacks;
  callbacks.onRound = [&](const TuneProgress &p) {
    py::gil_scoped_acquire acquire;
    if (callbackError)
      return;
    if (PyErr_CheckSignals() != 0) {
      callbackError.emplace();
      stop = true;
      return;
    }
    if (progress.is_none())
      return;
    py::dict state;
    state["task_index"] = p.taskIndex;
    state["task_count"] = p.taskCount;
    state["trials"] = p.trials;
    state["budget"] = p.budget;
    state["best_gflops"] = p.bestGflops;
    state["elapsed_s"] = p.elapsedSeconds;
    state["simulated"] = p.simulated;
    try {
      progress(state);
    } catch (py::error_already_set &error) {
      callbackError.emplace(std::move(error));
      stop = true;
    }
  };
  callbacks.shouldStop = [&] { return stop; };
  TuneEnvironment environment;
  environment.modelSource = text;

  std::optional<llvm::Expected<TuneResult>> result;
  {
    py::gil_scoped_release release;
    result.emplace(tune(module->getModule(), options, *db, callbacks,
                        environment));
  }
  if (!*result)
    throw TesselError(llvm::toString(
        module->withDiagnostics((*result).takeError())));
  if (callbackError)
    throw std::move(*callbackError);
  return toPython(llvm::json::Value((*result)->toJSON(sourceName)));
}

/// A read-only view of a records database.
class Records {
public:
  explicit Records(const std::string &path)
      : db(check(RecordsDatabase::open(
            path, RecordsDatabase::OpenMode::ReadOnly))) {}

  py::list runs() {
    py::list result;
    for (const RunInfo &run : check(db->getRuns()))
      result.append(toDict(run));
    return result;
  }

  py::dict run(int64_t id) { return toDict(check(db->getRun(id))); }

  py::list tasks() {
    py::list result;
    for (const TaskInfo &task : check(db->getTasks())) {
      py::dict entry;
      entry["id"] = task.id;
      entry["workload_key"] = task.workloadKey;
      entry["op_kind"] = task.opKind;
      entry["flops"] = task.flops;
      entry["weight"] = task.weight;
      entry["description"] = task.description;
      result.append(entry);
    }
    return result;
  }

  py::list runMeasurements(int64_t runId) {
    check(db->getRun(runId));
    return toList(check(db->getRunMeasurements(runId)));
  }

  py::list taskMeasurements(const std::string &workloadKey,
                            const std::string &target) {
    std::optional<TaskInfo> task = check(db->getTask(workloadKey));
    if (!task)
      throw TesselError(db->getPath().str() + ": no task '" + workloadKey +
                        "'");
    return toList(check(db->getMeasurements(task->id, target)));
  }

  py::object best(const std::string &workloadKey, const std::string &target,
                  bool exactTarget) {
    std::optional<BestRecord> best =
        exactTarget ? check(db->getBestRecord(workloadKey, target))
                    : check(db->getBestRecordAnyTarget(workloadKey, target));
    if (!best)
      return py::none();
    py::dict entry;
    entry["config_id"] = best->configId;
    entry["sketch"] = best->sketch;
    entry["config"] = best->config;
    entry["target"] = best->target;
    entry["simulated"] = best->simulated;
    entry["median_us"] = best->medianUs;
    entry["gflops"] = best->gflops;
    return std::move(entry);
  }

  std::string path() const { return db->getPath().str(); }

private:
  static py::dict toDict(const RunInfo &run) {
    py::dict entry;
    entry["id"] = run.id;
    entry["started_at"] = run.startedAt;
    entry["strategy"] = run.strategy;
    entry["seed"] = run.seed;
    entry["measurer"] = run.measurer;
    entry["simulated"] = run.simulated;
    entry["device_json"] = run.deviceJson;
    entry["options_json"] = run.optionsJson;
    entry["tessel_version"] = run.tesselVersion;
    entry["model_source"] = run.modelSource;
    return entry;
  }

  static py::list toList(const std::vector<MeasurementRecord> &records) {
    py::list result;
    for (const MeasurementRecord &m : records) {
      py::dict entry;
      entry["id"] = m.id;
      entry["run_id"] = m.runId;
      entry["task_id"] = m.taskId;
      entry["sketch"] = m.sketch;
      entry["config"] = m.config;
      entry["target"] = m.target;
      entry["simulated"] = m.simulated;
      entry["status"] = stringifyMeasureStatus(m.status).str();
      entry["median_us"] = m.timing.medianUs;
      entry["min_us"] = m.timing.minUs;
      entry["max_us"] = m.timing.maxUs;
      entry["stddev_us"] = m.timing.stddevUs;
      entry["repeats"] = m.timing.repeats;
      entry["registers"] = m.registers;
      entry["spill_bytes"] = m.spillBytes;
      entry["shared_bytes"] = m.sharedBytes;
      entry["message"] = m.message;
      entry["measured_at"] = m.measuredAt;
      entry["elapsed_s"] = m.elapsedS;
      entry["trial"] = m.trial;
      result.append(entry);
    }
    return result;
  }

  std::unique_ptr<RecordsDatabase> db;
};

} // namespace

PYBIND11_MODULE(_tessel, m) {
  m.doc() = "Tessel's compiled core; use the `tessel` package.";
  py::register_exception<TesselError>(m, "TesselError", PyExc_RuntimeError);
  registerFrontendPasses();

  m.def("tasks", &tasks, py::arg("text"), py::arg("source_name"),
        py::arg("include_simple_tasks"), py::arg("task_equality"));
  m.def("compile", &compile, py::arg("text"), py::arg("pipeline"),
        py::arg("source_name"));
  m.def("apply", &apply, py::arg("text"), py::arg("db"), py::arg("target"),
        py::arg("source_name"));
  m.def("export_spec", &exportSpec, py::arg("text"), py::arg("db"),
        py::arg("target"), py::arg("source_name"));
  m.def("tune", &tuneModel, py::arg("text"), py::arg("options_json"),
        py::arg("db"), py::arg("progress"), py::arg("source_name"));

  py::class_<Records>(m, "Records")
      .def(py::init<const std::string &>(), py::arg("path"))
      .def("runs", &Records::runs)
      .def("run", &Records::run, py::arg("id"))
      .def("tasks", &Records::tasks)
      .def("run_measurements", &Records::runMeasurements, py::arg("run_id"))
      .def("task_measurements", &Records::taskMeasurements,
           py::arg("workload_key"), py::arg("target"))
      .def("best", &Records::best, py::arg("workload_key"),
           py::arg("target"), py::arg("exact_target"))
      .def_property_readonly("path", &Records::path);
}
