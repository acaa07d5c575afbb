//===- tessel-run.cpp - Compile, run, verify and time one module ----------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// tessel-run compiles a module of linalg ops (schedules as annotated, default
// schedules elsewhere) with --tessel-to-cuda, runs its host function as a
// launch plan on a measurer, and prints one JSON object:
//
//   tessel-run model.mlir --measure=cuda            # a real GPU, verified
//   tessel-run model.mlir --measure=sim:h100        # the simulated GPU
//
// With --measure=cuda the outputs are checked against the unscheduled
// function run on the CPU before a time is accepted. Simulated results say
// so ("simulated": true) and are never verified against anything.
//
//===----------------------------------------------------------------------===//

#include "tessel/InitAllDialects.h"
#include "tessel/InitAllPasses.h"
#include "tessel/Pipelines/Pipelines.h"
#include "tessel/Tuning/Device.h"
#include "tessel/Tuning/JsonFile.h"
#include "tessel/Tuning/Measure/CudaMeasurer.h"
#include "tessel/Tuning/Measure/LaunchPlan.h"
#include "tessel/Tuning/Measure/MeasurerFactory.h"
#include "tessel/Tuning/Measure/Reference.h"
#include "tessel/Tuning/Measure/SimulatedMeasurer.h"
#include "tessel/Tuning/ModelFile.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
using namespace mlir::tessel;
namespace cl = llvm::cl;

static cl::OptionCategory toolCategory("tessel-run options");

static cl::opt<std::string> inputFile(cl::Positional, cl::Required,
                                      cl::desc("<input .mlir>"),
                                      cl::cat(toolCategory));
static cl::opt<std::string>
    measureOption("measure", cl::init("sim:h100"),
                  cl::desc("Measurer: cuda, or sim:<device> (devices/*.json)"),
                  cl::cat(toolCategory));
static cl::opt<std::string>
    functionName("function",
                 cl::desc("Host function to run (default: the only public "
                          "func.func of the module)"),
                 cl::cat(toolCategory));
static cl::opt<std::string> chip("chip", cl::init(""),
                                 cl::desc("SM architecture (default: the "
                                          "device's, e.g. sm_90)"),
                                 cl::cat(toolCategory));
static cl::opt<bool> allowTf32(
    "allow-tf32",
    cl::desc("Compile tensor_core schedules of f32 contractions in TF32 "
             "(inputs rounded to a 10-bit mantissa; results are checked "
             "with a TF32 tolerance)"),
    cl::cat(toolCategory));
static cl::opt<std::string> cudaPath("cuda-path", cl::init(""),
                                     cl::desc("CUDA toolkit root (ptxas)"),
                                     cl::cat(toolCategory));
static cl::opt<std::string>
    referenceFile("reference",
                  cl::desc("For an already compiled input: the source module "
                           "(signature and CPU reference)"),
                  cl::cat(toolCategory));
static cl::opt<uint64_t> seed("seed", cl::init(1),
                              cl::desc("Seed of inputs and simulated noise"),
                              cl::cat(toolCategory));
static cl::opt<double> noise("sim-noise", cl::init(0.02),
                             cl::desc("Lognormal sigma of simulated noise"),
                             cl::cat(toolCategory));
static cl::opt<double> timeout("timeout", cl::init(20),
                               cl::desc("Seconds before a kernel is killed"),
                               cl::cat(toolCategory));
static cl::opt<double> minTimeMs("min-time-ms", cl::init(100),
                                 cl::desc("Kernel time per measurement"),
                                 cl::cat(toolCategory));
static cl::opt<std::string> runnerPath("runner", cl::init(""),
                                       cl::desc("tessel-cuda-runner path"),
                                       cl::cat(toolCategory));
static cl::opt<std::string> outputFile("o", cl::init("-"),
                                       cl::desc("Output JSON file"),
                                       cl::cat(toolCategory));

/// Prints `message` as a one-line error and returns the exit code.
static int fail(const llvm::Twine &message) {
  llvm::errs() << "tessel-run: " << message << "\n";
  return 1;
}

/// Parses `path`; the file goes to `files`, whose diagnostic handler keeps
/// quoting it for every later error (compilation included).
static OwningOpRef<ModuleOp>
parseModule(StringRef path, MLIRContext &context,
            std::vector<std::unique_ptr<ModelFile>> &files) {
  std::string error;
  std::unique_ptr<ModelFile> file = ModelFile::load(path, &context, error);
  if (!file) {
    if (!error.empty())
      llvm::errs() << "tessel-run: " << error << "\n";
    return nullptr;
  }
  OwningOpRef<ModuleOp> module = file->takeModule();
  files.push_back(std::move(file));
  return module;
}

/// The function to run: --function, or the only public func.func.
static func::FuncOp findFunction(ModuleOp module) {
  if (!functionName.empty()) {
    auto func = module.lookupSymbol<func::FuncOp>(functionName);
    if (!func)
      module.emitError() << "no function @" << functionName;
    return func;
  }
  func::FuncOp found;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isPrivate() || func.isExternal())
      continue;
    if (found) {
      module.emitError() << "the module has several public functions (@"
                         << found.getSymName() << ", @" << func.getSymName()
                         << "); choose one with --function";
      return nullptr;
    }
    found = func;
  }
  if (!found)
    module.emitError("the module has no public function to run");
  return found;
}

static llvm::json::Object kernelToJSON(const PlanLaunch &launch,
                                       const SimulatedMeasurer *sim) {
  llvm::json::Object kernel{
      {"module", launch.module},
      {"kernel", launch.kernel},
      {"grid",
       llvm::json::Array{launch.grid[0], launch.grid[1], launch.grid[2]}},
      {"block",
       llvm::json::Array{launch.block[0], launch.block[1], launch.block[2]}},
      {"registers", launch.resources.registers},
      {"spill_store_bytes", launch.resources.spillStoreBytes},
      {"spill_load_bytes", launch.resources.spillLoadBytes},
      {"shared_bytes", launch.resources.sharedMemoryBytes},
  };
  if (launch.facts) {
    kernel["op"] = launch.facts->opName;
    kernel["flops"] = launch.facts->flops;
  }
  // The static kernel report (PtxReport.h): what the PTX executes, the
  // schedule's static bank-conflict degree of its shared accesses, and the
  // degrees of its shared loads and stores from their addresses.
  if (!launch.resources.ptx.empty()) {
    llvm::json::Object report;
    for (const auto &[key, value] : launch.resources.ptx)
      report[key] = value;
    report["fma_per_shared_load"] = getFmaPerSharedLoad(launch.resources.ptx);
    if (launch.facts) {
      report["bank_conflict_degree"] = launch.facts->bankConflictDegree;
      // From the kernel's own addresses (tessel-shared-bank-conflicts).
      if (launch.facts->sharedLoadConflicts > 0)
        report["shared_load_conflict_degree"] =
            launch.facts->sharedLoadConflicts;
      // From the kernel's loops and barriers (tessel-count-barriers).
      if (launch.facts->barriersPerThread >= 0) {
        report["barriers_per_thread"] = launch.facts->barriersPerThread;
        report["load_barriers_per_thread"] =
            launch.facts->loadBarriersPerThread;
      }
      if (launch.facts->sharedStoreConflicts > 0)
        report["shared_store_conflict_degree"] =
            launch.facts->sharedStoreConflicts;
    }
    kernel["report"] = std::move(report);
  }
  if (sim) {
    SimulatedEstimate e = sim->estimate(getLaunchCandidate(launch));
    kernel["simulated_us"] = e.totalUs;
    kernel["simulated_status"] = stringifyMeasureStatus(e.status).str();
    kernel["simulated_bound"] = e.bound;
    kernel["simulated_waves"] = e.waves.waves;
    kernel["simulated_blocks_per_sm"] = e.occupancy.blocksPerSm;
  }
  return kernel;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  registerAllPasses();
  cl::HideUnrelatedOptions(toolCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "tessel-run: compile a module, run it on a GPU (--measure=cuda) or the "
      "simulated GPU (--measure=sim:<device>), verify it and print JSON\n");

  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  // Measurer first: a machine without a GPU says so before compiling.
  MeasurerOptions measurerOptions;
  measurerOptions.seed = seed;
  measurerOptions.simNoise = noise;
  measurerOptions.cuda.runnerPath = runnerPath;
  measurerOptions.cuda.timeoutSeconds = timeout;
  measurerOptions.cuda.minTimeMs = minTimeMs;
  auto created = createMeasurer(measureOption, measurerOptions);
  if (!created)
    return fail(llvm::toString(created.takeError()));
  std::unique_ptr<Measurer> measurer = std::move(created->measurer);
  SimulatedMeasurer *sim = nullptr;
  std::string deviceChip = "sm_90";
  llvm::json::Object deviceJSON;
  // The device file as JSON, without its list of sources.
  auto describe = [](const DeviceDescription &device) {
    llvm::json::Object object;
    auto parsed = llvm::json::parse(device.toJSON());
    if (parsed && parsed->getAsObject()) {
      object = *parsed->getAsObject();
      object.erase("sources");
    } else if (!parsed) {
      llvm::consumeError(parsed.takeError());
    }
    return object;
  };
  if (measurer->isSimulated()) {
    sim = static_cast<SimulatedMeasurer *>(measurer.get());
    deviceChip = created->device->chip;
    deviceJSON = describe(*created->device);
  } else {
    deviceJSON = std::move(created->driverInfo);
    // The device file of this GPU, with what the driver says applied over
    // it (the driver wins).
    if (created->device)
      deviceJSON["description"] = describe(*created->device);
    else
      deviceJSON["description"] = created->deviceError;
    if (std::optional<StringRef> cc =
            deviceJSON.getString("compute_capability"))
      deviceChip = "sm_" + cc->str();
  }
  // "9.0" -> "sm_90".
  deviceChip.erase(std::remove(deviceChip.begin(), deviceChip.end(), '.'),
                   deviceChip.end());

  std::vector<std::unique_ptr<ModelFile>> files;
  OwningOpRef<ModuleOp> input = parseModule(inputFile, context, files);
  if (!input)
    return 1;
  bool compiled = !input->getOps<gpu::BinaryOp>().empty();
  OwningOpRef<ModuleOp> source;
  if (compiled) {
    if (referenceFile.empty())
      return fail("the input is already compiled; give its source module "
                  "with --reference=SOURCE.mlir");
    source = parseModule(referenceFile, context, files);
    if (!source)
      return 1;
  } else {
    source = OwningOpRef<ModuleOp>(cast<ModuleOp>((*input)->clone()));
  }
  func::FuncOp func = findFunction(*source);
  if (!func)
    return 1;
  std::string funcName = func.getSymName().str();

  if (!compiled) {
    std::string pipeline =
        "chip=" + (chip.empty() ? deviceChip : chip) + " format=bin";
    if (!cudaPath.empty())
      pipeline += " cuda-path=" + cudaPath;
    if (allowTf32)
      pipeline += " allow-tf32=true";
    auto options = TesselToCudaOptions::createFromString(pipeline);
    if (!options)
      return fail("bad pipeline options '" + pipeline + "'");
    PassManager pm(&context);
    if (failed(buildTesselToCudaPipeline(pm, *options)) ||
        failed(pm.run(*input)))
      return 1;
  }
  FailureOr<LaunchPlan> plan = extractLaunchPlan(
      *input, funcName, func.getArgumentTypes(), func.getResultTypes());
  if (failed(plan))
    return 1;

  MeasureCandidate candidate;
  candidate.key = funcName;
  candidate.plan = std::make_shared<LaunchPlan>(std::move(*plan));
  for (const PlanLaunch *launch : candidate.plan->getLaunches())
    if (launch->facts)
      candidate.planFlops += launch->facts->flops;
  bool onGpu = !measurer->isSimulated();
  if (onGpu) {
    auto reference = computeReference(*source, funcName, seed);
    if (!reference)
      return fail("cannot compute the CPU reference: " +
                  llvm::toString(reference.takeError()));
    candidate.reference =
        std::make_shared<ReferenceData>(std::move(*reference));
  }
  MeasureResult result = measurer->measure(candidate)[0];

  llvm::json::Array kernels;
  SmallVector<const PlanLaunch *> launches = candidate.plan->getLaunches();
  for (const PlanLaunch *launch : launches)
    kernels.push_back(kernelToJSON(*launch, sim));
  // Intermediates: buffers the host allocates that are not results; one
  // kernel writes each to DRAM and later kernels read it back.
  int64_t intermediateBytes = 0;
  for (auto [index, buffer] : llvm::enumerate(candidate.plan->buffers))
    if (buffer.kind == PlanBuffer::Kind::Temporary &&
        llvm::none_of(candidate.plan->outputs, [&](const PlanOutput &out) {
          return out.buffer == static_cast<int64_t>(index);
        }))
      intermediateBytes += buffer.bytes;
  llvm::json::Object out{
      {"tessel_run_version", 1},
      {"input", inputFile.getValue()},
      {"function", funcName},
      {"measurer", measurer->name()},
      {"simulated", measurer->isSimulated()},
      {"device", std::move(deviceJSON)},
      {"status", stringifyMeasureStatus(result.status).str()},
      {"message", result.message},
      {"verified", onGpu && result.isOk()},
      {"verification",
       onGpu ? "outputs compared with the unscheduled function on the CPU"
             : "none: simulated timings only"},
      {"flops", candidate.planFlops},
      {"kernels_launched", static_cast<int64_t>(launches.size())},
      {"intermediate_bytes", intermediateBytes},
      {"kernels", std::move(kernels)},
  };
  if (sim) {
    // Parts of the simulated time (already in it): the launch overhead of
    // the device description per kernel, and the intermediates written and
    // read back once at peak DRAM bandwidth.
    const DeviceDescription &device = sim->getDevice();
    out["simulated_launch_overhead_us"] =
        device.launchOverheadUs * static_cast<double>(launches.size());
    out["simulated_intermediate_dram_us"] =
        2.0 * static_cast<double>(intermediateBytes) /
        (device.dramBandwidthGbps * 1e3);
  }
  if (result.isOk()) {
    out["timing"] = llvm::json::Object{{"median_us", result.timing.medianUs},
                                       {"min_us", result.timing.minUs},
                                       {"max_us", result.timing.maxUs},
                                       {"stddev_us", result.timing.stddevUs},
                                       {"repeats", result.timing.repeats}};
    out["gflops"] = result.timing.medianUs > 0
                        ? candidate.planFlops / result.timing.medianUs / 1e3
                        : 0.0;
  }

  if (llvm::Error written = writeJsonFile(outputFile, std::move(out)))
    return fail(llvm::toString(std::move(written)));
  return result.isOk() ? 0 : 2;
}
