//===- tessel-fasor-pretrain.cpp - Pretrain Fasor's cost model ------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Issue 20, item 2: builds a dataset on a source device (the tasks of the
// given models plus random matmuls and convolutions, schedules drawn from
// their search spaces, timed by the simulated GPU), trains the Transformer
// cost model on 80% of the tasks, reports R^2 on the 20% it never saw, and
// writes the model.
//
//   tessel-fasor-pretrain --device=v100 --random-tasks=300 \
//       --schedules-per-task=64 -o fasor-v100.pt [model.mlir ...]
//
// With --from=<model>, item 3 instead: the dataset is the target device's;
// the model is fine-tuned on the schedules of k diverse tasks of it
// (--transfer-tasks) and evaluated on the others, before and after.
//
// With --sensitivity, section 5's offline table instead: from
// --starts-per-task sampled schedules of each task, every applicable move of
// each primitive, and the mean change of MS and CS per primitive, written
// as JSON.
//
// With --emit-random-tasks, the random operators as an MLIR module instead:
// the tasks of the DQN's offline pretraining, a `tessel-tune` run of
// `fasor save-dqn=` on the source device (docs/Fasor.md).
//
// Labels come from the simulator (SIMULATED: the dataset, the R^2 and the
// table), except those read with --records from a GPU's measurements
// (--records-target=cuda:..., --schedules-per-task=0 for those alone).
//
//===----------------------------------------------------------------------===//

#include "tessel/InitAllDialects.h"
#include "tessel/Tuning/ModelFile.h"
#include "tessel/Tuning/Records/RecordsDatabase.h"
#include "tessel/Tuning/Strategies/Fasor/Pretrain.h"
#include "tessel/Tuning/Strategies/Fasor/RandomTasks.h"
#include "tessel/Tuning/Strategies/Fasor/ScheduleTokens.h"
#include "tessel/Tuning/Strategies/Fasor/Sensitivity.h"
#include "tessel/Tuning/Strategies/Fasor/StartPoints.h"
#include "tessel/Tuning/Strategies/Fasor/Transfer.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"

#include <chrono>
#include <cmath>
#include <map>
#include <set>

using namespace mlir;
using namespace mlir::tessel;
using namespace mlir::tessel::fasor;
namespace cl = llvm::cl;

static cl::OptionCategory toolCategory("tessel-fasor-pretrain options");

static cl::list<std::string> inputFiles(cl::Positional, cl::ZeroOrMore,
                                        cl::desc("[model .mlir]..."),
                                        cl::cat(toolCategory));
static cl::opt<std::string> deviceId("device", cl::init("v100"),
                                     cl::desc("Simulated source device"),
                                     cl::cat(toolCategory));
static cl::opt<int64_t> randomTasks("random-tasks", cl::init(300),
                                    cl::desc("Random operators to add"),
                                    cl::cat(toolCategory));
static cl::opt<int64_t> schedulesPerTask("schedules-per-task", cl::init(64),
                                         cl::desc("Schedules drawn per task"),
                                         cl::cat(toolCategory));
static cl::opt<int64_t> epochs("epochs", cl::init(20),
                               cl::desc("Training epochs"),
                               cl::cat(toolCategory));
static cl::opt<uint64_t> seed("seed", cl::init(0), cl::desc("Seed"),
                              cl::cat(toolCategory));
static cl::opt<std::string> fromModel(
    "from", cl::desc("Fine-tune this pretrained model for --device instead "
                     "of pretraining"),
    cl::value_desc("path"), cl::cat(toolCategory));
static cl::opt<bool> fromScratch(
    "from-scratch",
    cl::desc("The baseline of --from: the same transfer protocol (the same "
             "diverse tasks trained on, the same held-out tasks) on a "
             "freshly initialized model trained with pretraining's options "
             "(--epochs, --seed)"),
    cl::cat(toolCategory));
static cl::opt<unsigned> transferTasks(
    "transfer-tasks", cl::init(10),
    cl::desc("With --from or --from-scratch: the diverse tasks measured on "
             "the device"),
    cl::cat(toolCategory));
static cl::opt<bool> sensitivity(
    "sensitivity",
    cl::desc("Measure the offline sensitivity table of the primitives "
             "instead of training; -o gets it as JSON"),
    cl::cat(toolCategory));
static cl::list<std::string> recordsPaths(
    "records",
    cl::desc("Add the schedules this records database measured for the "
             "tasks on sim:<device> (a run of Fasor's own search) or on "
             "--records-target to the dataset (repeatable; a schedule of a "
             "task is taken once)"),
    cl::value_desc("path"), cl::cat(toolCategory));
static cl::opt<std::string> recordsTarget(
    "records-target",
    cl::desc("With --records: the target whose measurements are read "
             "(default sim:<device>:analytic; a GPU's, e.g. 'cuda:NVIDIA H100 "
             "80GB HBM3', for labels measured on hardware)"),
    cl::value_desc("target"), cl::cat(toolCategory));
static cl::opt<bool> emitRandomTasks(
    "emit-random-tasks",
    cl::desc("Write the --random-tasks operators as an MLIR module to -o "
             "instead of training"),
    cl::cat(toolCategory));
static cl::opt<int64_t>
    startsPerTask("starts-per-task", cl::init(8),
                  cl::desc("With --sensitivity: start schedules per task"),
                  cl::cat(toolCategory));
static cl::opt<std::string> outputFile("o", cl::Required,
                                       cl::desc("Model (or table) file to "
                                                "write"),
                                       cl::value_desc("path"),
                                       cl::cat(toolCategory));

/// With labels measured on a GPU: how well the simulator that labelled the
/// pretraining data predicts the same held-out schedules (those of the tasks
/// the transfer did not measure), as a baseline for the transferred model.
static void printSimulatorRSquared(llvm::ArrayRef<LabeledSchedule> dataset,
                                   llvm::ArrayRef<std::string> measuredTasks,
                                   llvm::StringRef deviceId) {
  std::set<std::string> measured(measuredTasks.begin(), measuredTasks.end());
  std::vector<double> latency[2], memory[2], compute[2];
  size_t unpredicted = 0;
  for (const LabeledSchedule &labeled : dataset) {
    if (measured.count(labeled.workloadKey))
      continue;
    if (!labeled.simulated) {
      ++unpredicted;
      continue;
    }
    const Prediction &label = labeled.sample.label;
    latency[0].push_back(std::log(labeled.simulated->latencyUs));
    latency[1].push_back(std::log(label.latencyUs));
    memory[0].push_back(labeled.simulated->memoryBound);
    memory[1].push_back(label.memoryBound);
    compute[0].push_back(labeled.simulated->computeBound);
    compute[1].push_back(label.computeBound);
  }
  if (latency[0].size() < 2)
    return;
  llvm::outs() << llvm::formatv(
      "R^2 of the simulator sim:{0} (analytic, noise off) on {1} of those "
      "schedules ({2} it rejects): latency {3:f3}, MS {4:f3}, CS {5:f3}\n",
      deviceId, latency[0].size(), unpredicted,
      getRSquared(latency[0], latency[1]), getRSquared(memory[0], memory[1]),
      getRSquared(compute[0], compute[1]));
}

/// R^2 over many tasks is dominated by how far apart the tasks' latencies
/// are; a search needs the order of one task's schedules. Prints the mean
/// over held-out tasks (at least 5 schedules) of Spearman's correlation of
/// predicted and labelled latency: the model before and after `training`
/// (pretrained and fine-tuned, or untrained and trained from scratch) and
/// (where every schedule has one) the simulator's prediction.
static llvm::Error printWithinTaskRanking(
    const TransformerCostModel &before, const TransformerCostModel &after,
    llvm::ArrayRef<LabeledSchedule> dataset,
    llvm::ArrayRef<std::string> measuredTasks, llvm::StringRef deviceId,
    llvm::StringRef training) {
  std::set<std::string> measured(measuredTasks.begin(), measuredTasks.end());
  std::map<std::string, std::vector<const LabeledSchedule *>> byTask;
  for (const LabeledSchedule &labeled : dataset)
    if (!measured.count(labeled.workloadKey))
      byTask[labeled.workloadKey].push_back(&labeled);
  double sums[3] = {0, 0, 0};
  int64_t tasks = 0, simulatedTasks = 0;
  for (const auto &[key, schedules] : byTask) {
    if (schedules.size() < 5)
      continue;
    std::vector<Tokens> tokens;
    std::vector<double> labels, simulated;
    for (const LabeledSchedule *labeled : schedules) {
      tokens.push_back(labeled->sample.tokens);
      labels.push_back(labeled->sample.label.latencyUs);
      if (labeled->simulated)
        simulated.push_back(labeled->simulated->latencyUs);
    }
    llvm::Expected<std::vector<Prediction>> predictedBefore =
        before.predict(tokens);
    if (!predictedBefore)
      return predictedBefore.takeError();
    llvm::Expected<std::vector<Prediction>> predictedAfter =
        after.predict(tokens);
    if (!predictedAfter)
      return predictedAfter.takeError();
    auto latencies = [](llvm::ArrayRef<Prediction> predictions) {
      std::vector<double> values;
      for (const Prediction &p : predictions)
        values.push_back(p.latencyUs);
      return values;
    };
    sums[0] += getSpearmanSimilarity(latencies(*predictedBefore), labels);
    sums[1] += getSpearmanSimilarity(latencies(*predictedAfter), labels);
    ++tasks;
    if (simulated.size() == labels.size()) {
      sums[2] += getSpearmanSimilarity(simulated, labels);
      ++simulatedTasks;
    }
  }
  if (tasks == 0)
    return llvm::Error::success();
  llvm::outs() << llvm::formatv(
      "mean Spearman of latency within each of {0} held-out tasks (>= 5 "
      "schedules): before {3} {1:f3}, after {2:f3}",
      tasks, sums[0] / tasks, sums[1] / tasks, training);
  if (simulatedTasks > 0)
    llvm::outs() << llvm::formatv(", the simulator sim:{0} {1:f3} ({2} tasks)",
                                  deviceId, sums[2] / simulatedTasks,
                                  simulatedTasks);
  llvm::outs() << "\n";
  return llvm::Error::success();
}

static int fail(const llvm::Twine &message) {
  llvm::errs() << "tessel-fasor-pretrain: " << message << "\n";
  return 1;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(toolCategory);
  cl::ParseCommandLineOptions(argc, argv, "Pretrain Fasor's cost model\n");
  auto start = std::chrono::steady_clock::now();

  if (emitRandomTasks) {
    if (randomTasks <= 0)
      return fail("--emit-random-tasks needs --random-tasks > 0");
    std::error_code ec;
    llvm::raw_fd_ostream out(outputFile, ec);
    if (ec)
      return fail("cannot write " + outputFile + ": " + ec.message());
    out << makeRandomTaskModule(randomTasks, seed);
    return 0;
  }

  llvm::Expected<DeviceDescription> device = findDevice(deviceId);
  if (!device)
    return fail(llvm::toString(device.takeError()));
  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  std::vector<OwningOpRef<ModuleOp>> keep;
  std::vector<TuningTask> tasks;
  auto addTasks = [&](ModuleOp module, llvm::StringRef origin) -> bool {
    auto extracted = extractTasks(module, &context);
    if (!extracted) {
      fail(origin + ": " + llvm::toString(extracted.takeError()));
      return false;
    }
    for (TuningTask &task : *extracted)
      tasks.push_back(std::move(task));
    return true;
  };
  std::vector<std::unique_ptr<ModelFile>> models;
  for (const std::string &path : inputFiles) {
    std::string error;
    std::unique_ptr<ModelFile> model = ModelFile::load(path, &context, error);
    if (!model)
      return error.empty() ? 1 : fail(error);
    if (!addTasks(model->getModule(), path))
      return 1;
    models.push_back(std::move(model));
  }
  if (randomTasks > 0) {
    keep.push_back(parseSourceString<ModuleOp>(
        makeRandomTaskModule(randomTasks, seed), &context));
    if (!keep.back())
      return fail("the random operators do not parse");
    if (!addTasks(*keep.back(), "random operators"))
      return 1;
  }

  if (sensitivity) {
    SensitivityOptions options;
    options.startsPerTask = startsPerTask;
    options.seed = seed;
    llvm::Expected<SensitivityTable> table =
        measureSensitivity(tasks, *device, options);
    if (!table)
      return fail(llvm::toString(table.takeError()));
    llvm::outs() << llvm::formatv(
        "sensitivity on sim:{0} (SIMULATED), {1} tasks, {2} starts each:\n",
        device->id, tasks.size(), startsPerTask.getValue());
    for (const auto &[primitive, scores] : *table)
      llvm::outs() << llvm::formatv("  {0,-15} MS {1:f4}  CS {2:f4}\n",
                                    getPrimitiveName(primitive), scores.memory,
                                    scores.compute);
    std::error_code ec;
    llvm::raw_fd_ostream out(outputFile, ec);
    if (ec)
      return fail("cannot write " + outputFile + ": " + ec.message());
    out << llvm::formatv("{0:2}", sensitivityToJSON(*table)) << "\n";
    llvm::outs() << "wrote " << outputFile << "\n";
    return 0;
  }

  if (schedulesPerTask < 0)
    return fail("--schedules-per-task must be >= 0");
  if (schedulesPerTask == 0 && recordsPaths.empty())
    return fail("--schedules-per-task=0 needs --records (the dataset would "
                "be empty)");
  if (!recordsTarget.empty() && recordsPaths.empty())
    return fail("--records-target needs --records");
  DatasetOptions datasetOptions;
  datasetOptions.schedulesPerTask = schedulesPerTask;
  datasetOptions.seed = seed;
  auto dataset = buildSimulatedDataset(tasks, *device, datasetOptions);
  if (!dataset)
    return fail(llvm::toString(dataset.takeError()));
  if (schedulesPerTask > 0)
    llvm::outs() << llvm::formatv(
        "dataset: {0} tasks, {1} schedules on sim:{2} (SIMULATED labels)\n",
        tasks.size(), dataset->size(), device->id);
  std::string target = recordsTarget.empty() ? "sim:" + device->id + ":analytic"
                                             : recordsTarget.getValue();
  std::set<std::pair<std::string, std::string>> seen;
  for (const LabeledSchedule &labeled : *dataset)
    seen.insert({labeled.workloadKey, labeled.schedule});
  for (const std::string &path : recordsPaths) {
    auto records =
        RecordsDatabase::open(path, RecordsDatabase::OpenMode::ReadOnly);
    if (!records)
      return fail(llvm::toString(records.takeError()));
    auto searched = buildRecordsDataset(tasks, **records, target, *device);
    if (!searched)
      return fail(llvm::toString(searched.takeError()));
    if (searched->empty())
      return fail(llvm::formatv("{0} has no successful measurement of these "
                                "tasks on target '{1}'",
                                path, target)
                      .str());
    size_t added = 0;
    for (LabeledSchedule &labeled : *searched) {
      if (!seen.insert({labeled.workloadKey, labeled.schedule}).second)
        continue;
      dataset->push_back(std::move(labeled));
      ++added;
    }
    llvm::outs() << llvm::formatv(
        "records: {0} schedules of {1} measured on {2}{3} ({4} new); MS and "
        "CS against {5}'s peaks\n",
        searched->size(), path, target,
        llvm::StringRef(target).starts_with("sim:") ? " (SIMULATED labels)"
                                                    : "",
        added, device->id);
  }

  if (fromScratch && !fromModel.empty())
    return fail("--from-scratch and --from exclude each other");
  if (!fromModel.empty() || fromScratch) {
    // From scratch: the untrained model stands where the pretrained one
    // would, and is trained as pretraining trains.
    auto initial = [&]() -> llvm::Expected<TransformerCostModel> {
      if (fromScratch)
        return TransformerCostModel::create(kTokenWidth, {}, seed);
      return TransformerCostModel::load(fromModel);
    };
    llvm::Expected<TransformerCostModel> model = initial();
    if (!model)
      return fail(llvm::toString(model.takeError()));
    TransferOptions options;
    options.tasks = transferTasks;
    if (fromScratch) {
      options.fineTune = TrainOptions();
      options.fineTune.epochs = epochs;
    }
    options.fineTune.seed = seed;
    auto result = transfer(*model, *dataset, options);
    if (!result)
      return fail(llvm::toString(result.takeError()));
    llvm::outs() << llvm::formatv(
        "measured: {0} tasks ({1} schedules); evaluated on the other tasks' "
        "{2} schedules\n",
        result->measuredTasks.size(), result->measuredSchedules,
        result->evaluatedSchedules);
    for (const std::string &key : result->measuredTasks)
      llvm::outs() << "  " << key << "\n";
    llvm::StringRef training = fromScratch ? "training" : "fine-tuning";
    llvm::outs() << llvm::formatv(
        "R^2 before {0}: latency {1:f3}, MS {2:f3}, CS {3:f3}\n", training,
        result->before.latency, result->before.memoryBound,
        result->before.computeBound);
    llvm::outs() << llvm::formatv(
        "R^2 after {0}: latency {1:f3}, MS {2:f3}, CS {3:f3}\n", training,
        result->after.latency, result->after.memoryBound,
        result->after.computeBound);
    if (!llvm::StringRef(target).starts_with("sim:"))
      printSimulatorRSquared(*dataset, result->measuredTasks, device->id);
    llvm::Expected<TransformerCostModel> untouched = initial();
    if (!untouched)
      return fail(llvm::toString(untouched.takeError()));
    if (llvm::Error error =
            printWithinTaskRanking(*untouched, *model, *dataset,
                                   result->measuredTasks, device->id, training))
      return fail(llvm::toString(std::move(error)));
    if (llvm::Error error = model->save(outputFile))
      return fail(llvm::toString(std::move(error)));
    llvm::outs() << "wrote " << outputFile << "\n";
    return 0;
  }

  PretrainOptions options;
  options.seed = seed;
  options.training.epochs = epochs;
  auto result = pretrain(*dataset, options);
  if (!result)
    return fail(llvm::toString(result.takeError()));
  llvm::outs() << llvm::formatv(
      "split by task: {0} training tasks ({1} schedules), {2} held-out "
      "tasks ({3} schedules)\n",
      result->trainTasks, result->trainSchedules, result->testTasks,
      result->testSchedules);
  llvm::outs() << llvm::formatv(
      "loss: first epoch {0:f4}, last epoch {1:f4}\n", result->losses.front(),
      result->losses.back());
  llvm::outs() << llvm::formatv(
      "R^2 training: latency {0:f3}, MS {1:f3}, CS {2:f3}\n",
      result->train.latency, result->train.memoryBound,
      result->train.computeBound);
  llvm::outs() << llvm::formatv(
      "R^2 held-out: latency {0:f3}, MS {1:f3}, CS {2:f3}\n",
      result->test.latency, result->test.memoryBound,
      result->test.computeBound);
  if (llvm::Error error = result->model.save(outputFile))
    return fail(llvm::toString(std::move(error)));
  double seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start)
                       .count();
  llvm::outs() << llvm::formatv("wrote {0} in {1:f0} s\n", outputFile,
                                seconds);
  return 0;
}
