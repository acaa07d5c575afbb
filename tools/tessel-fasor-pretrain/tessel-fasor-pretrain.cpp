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
// Every label comes from the simulator: the dataset, the R^2 and the table
// are SIMULATED.
//
//===----------------------------------------------------------------------===//

#include "tessel/InitAllDialects.h"
#include "tessel/Tuning/ModelFile.h"
#include "tessel/Tuning/Records/RecordsDatabase.h"
#include "tessel/Tuning/Strategies/Fasor/Pretrain.h"
#include "tessel/Tuning/Strategies/Fasor/RandomTasks.h"
#include "tessel/Tuning/Strategies/Fasor/Sensitivity.h"
#include "tessel/Tuning/Strategies/Fasor/Transfer.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"

#include <chrono>

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
static cl::opt<unsigned> transferTasks(
    "transfer-tasks", cl::init(10),
    cl::desc("With --from: the diverse tasks measured on the device"),
    cl::cat(toolCategory));
static cl::opt<bool> sensitivity(
    "sensitivity",
    cl::desc("Measure the offline sensitivity table of the primitives "
             "instead of training; -o gets it as JSON"),
    cl::cat(toolCategory));
static cl::opt<std::string> recordsPath(
    "records",
    cl::desc("Add the schedules this records database measured for the "
             "tasks on sim:<device> (a run of Fasor's own search) to the "
             "dataset"),
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
  if (schedulesPerTask == 0 && recordsPath.empty())
    return fail("--schedules-per-task=0 needs --records (the dataset would "
                "be empty)");
  if (!recordsTarget.empty() && recordsPath.empty())
    return fail("--records-target needs --records");
  DatasetOptions datasetOptions;
  datasetOptions.schedulesPerTask = schedulesPerTask;
  datasetOptions.seed = seed;
  auto dataset = buildSimulatedDataset(tasks, *device, datasetOptions);
  if (!dataset)
    return fail(llvm::toString(dataset.takeError()));
  llvm::outs() << llvm::formatv(
      "dataset: {0} tasks, {1} schedules on sim:{2} (SIMULATED labels)\n",
      tasks.size(), dataset->size(), device->id);
  if (!recordsPath.empty()) {
    auto records =
        RecordsDatabase::open(recordsPath, RecordsDatabase::OpenMode::ReadOnly);
    if (!records)
      return fail(llvm::toString(records.takeError()));
    std::string target = recordsTarget.empty()
                             ? "sim:" + device->id + ":analytic"
                             : recordsTarget.getValue();
    auto searched = buildRecordsDataset(tasks, **records, target, *device);
    if (!searched)
      return fail(llvm::toString(searched.takeError()));
    if (searched->empty())
      return fail(llvm::formatv("{0} has no successful measurement of these "
                                "tasks on target '{1}'",
                                recordsPath.getValue(), target)
                      .str());
    llvm::outs() << llvm::formatv(
        "  plus {0} schedules of {1} measured on {2}{3}; MS and CS against "
        "{4}'s peaks\n",
        searched->size(), recordsPath.getValue(), target,
        llvm::StringRef(target).starts_with("sim:") ? " (SIMULATED)" : "",
        device->id);
    dataset->insert(dataset->end(), std::make_move_iterator(searched->begin()),
                    std::make_move_iterator(searched->end()));
  }

  if (!fromModel.empty()) {
    llvm::Expected<TransformerCostModel> model =
        TransformerCostModel::load(fromModel);
    if (!model)
      return fail(llvm::toString(model.takeError()));
    TransferOptions options;
    options.tasks = transferTasks;
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
    llvm::outs() << llvm::formatv(
        "R^2 before fine-tuning: latency {0:f3}, MS {1:f3}, CS {2:f3}\n",
        result->before.latency, result->before.memoryBound,
        result->before.computeBound);
    llvm::outs() << llvm::formatv(
        "R^2 after fine-tuning: latency {0:f3}, MS {1:f3}, CS {2:f3}\n",
        result->after.latency, result->after.memoryBound,
        result->after.computeBound);
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
