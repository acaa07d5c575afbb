//===- tessel-oracle.cpp - The exhaustive optimum on the simulated GPU ----===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
//   tessel-oracle model.mlir [--measure=sim:h100] [--max-points=N]
//                 [--max-stages=S] [--report=FILE.json] [--quiet]
//
// For every task of the model, enumerates every config of every sketch
// (SearchSpace::enumerate), times each on the simulated GPU without noise and
// without compiling (the analytic fidelity of tessel-tune, the same
// buildAnalyticCandidate), and reports the fastest: the true optimum of the
// space under the simulator, against which scripts/compare measures the
// regret of the search strategies. The default schedule is timed as well,
// since every tuning run measures it first. SIMULATED: the times are a model
// of the GPU, not measurements.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/Passes.h"
#include "tessel/InitAllDialects.h"
#include "tessel/InitAllPasses.h"
#include "tessel/Tuning/Device.h"
#include "tessel/Tuning/JsonFile.h"
#include "tessel/Tuning/Measure/MeasurerFactory.h"
#include "tessel/Tuning/Measure/SimulatedMeasurer.h"
#include "tessel/Tuning/ModelFile.h"
#include "tessel/Tuning/Search/Task.h"
#include "tessel/Tuning/Tuner/AnalyticCandidate.h"
#include "tessel/Tuning/Tuner/Strategy.h"
#include "tessel/Tuning/Tuner/TuneOptions.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/ToolOutputFile.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::tessel;
namespace cl = llvm::cl;

static cl::OptionCategory toolCategory("tessel-oracle options");

static cl::opt<std::string> inputFile(cl::Positional, cl::Required,
                                      cl::desc("<model .mlir>"),
                                      cl::cat(toolCategory));
static cl::opt<std::string> measureOption("measure", cl::init("sim:h100"),
                                          cl::desc("sim:<device>"),
                                          cl::cat(toolCategory));
static cl::opt<uint64_t> maxPoints(
    "max-points", cl::init(20000000),
    cl::desc("Refuse a sketch whose unconstrained space has more points"),
    cl::cat(toolCategory));
static cl::opt<int64_t> maxStages(
    "max-stages", cl::init(TuneOptions().maxStages),
    cl::desc("Enumerate pipelined configs up to this many stages (default: "
             "tessel-tune's, so that the optimum is of the space it "
             "searches)"),
    cl::cat(toolCategory));
static cl::opt<std::string> reportFile("report",
                                       cl::desc("Write a JSON report here"),
                                       cl::cat(toolCategory));
static cl::opt<bool> quiet("quiet", cl::desc("No summary lines"),
                           cl::cat(toolCategory));

static int fail(const llvm::Twine &message) {
  llvm::errs() << "tessel-oracle: " << message << "\n";
  return 1;
}

static std::string print(Attribute attr) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << attr;
  return text;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  registerAllPasses();
  cl::HideUnrelatedOptions(toolCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "tessel-oracle: the exhaustive optimum of every task on "
      "the simulated GPU\n");
  if (!StringRef(measureOption).starts_with("sim:"))
    return fail("the oracle needs a simulated measurer (sim:<device>), not '" +
                measureOption + "'");
  // Noise off: every repeat is the model's estimate.
  MeasurerOptions measurerOptions;
  measurerOptions.simNoise = 0;
  auto created = createMeasurer(measureOption, measurerOptions);
  if (!created)
    return fail(llvm::toString(created.takeError()));
  std::optional<DeviceDescription> &device = created->device;
  auto &measurer = static_cast<SimulatedMeasurer &>(*created->measurer);
  measurer.setRepeats(1);
  std::string target = measurer.name() + ":analytic";

  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  std::string error;
  std::unique_ptr<ModelFile> modelFile =
      ModelFile::load(inputFile, &context, error);
  if (!modelFile)
    return error.empty() ? 1 : fail(error);
  ModuleOp model = modelFile->getModule();
  auto tasks = extractTasks(model, &context);
  if (!tasks)
    return fail(llvm::toString(tasks.takeError()));
  if (tasks->empty())
    return fail("the model has no tunable op");

  auto started = std::chrono::steady_clock::now();
  llvm::json::Array taskReports;
  for (auto [index, task] : llvm::enumerate(*tasks)) {
    TaskSearchState state =
        TaskSearchState::create(task, *device, /*rngSeed=*/0, maxStages);
    // Every config of every sketch, timed in batches.
    int64_t configs = 0, unusable = 0;
    uint64_t points = 0;
    double bestUs = std::numeric_limits<double>::infinity();
    std::optional<Candidate> best;
    std::vector<Candidate> batch;
    std::vector<MeasureCandidate> toMeasure;
    std::vector<double> latencies;
    auto flush = [&] {
      std::vector<MeasureResult> results = measurer.measure(toMeasure);
      for (auto [candidate, result] : llvm::zip(batch, results)) {
        if (!result.isOk() || result.timing.medianUs <= 0) {
          ++unusable;
          continue;
        }
        latencies.push_back(result.timing.medianUs);
        if (result.timing.medianUs < bestUs) {
          bestUs = result.timing.medianUs;
          best = candidate;
        }
      }
      batch.clear();
      toMeasure.clear();
    };
    llvm::DenseSet<std::pair<Attribute, Attribute>> enumerated;
    for (auto [spaceIndex, space] : llvm::enumerate(state.spaces)) {
      std::string why;
      FailureOr<std::vector<ConfigAttr>> all = space.enumerate(maxPoints, &why);
      if (failed(all))
        return fail(llvm::formatv("task {0} ({1}), sketch {2}: {3}", index,
                                  task.describe(), print(space.getSketch()),
                                  why)
                        .str());
      points += space.getSizeEstimate();
      // enumerate() lists the unroll values of one (tiles, vector, stages)
      // next to each other, and the unroll value is the only fact they
      // differ in (computeKernelFacts: max(1, unroll)): the facts are
      // computed once per group (stages change the facts: pipelining, the
      // barrier counts). The optimum is re-timed through
      // buildAnalyticCandidate below as a check.
      ConfigAttr groupFirst;
      std::optional<MeasureCandidate> groupFacts;
      for (ConfigAttr config : *all) {
        Candidate candidate{static_cast<unsigned>(spaceIndex),
                            space.getSketch(), config};
        enumerated.insert(candidate.getId());
        ++configs;
        if (!groupFirst || groupFirst.getTiles() != config.getTiles() ||
            groupFirst.getVector() != config.getVector() ||
            groupFirst.getStages() != config.getStages()) {
          groupFirst = config;
          FailureOr<MeasureCandidate> m =
              buildAnalyticCandidate(state, candidate, &why);
          groupFacts =
              succeeded(m) ? std::optional(std::move(*m)) : std::nullopt;
        }
        if (!groupFacts) {
          ++unusable;
          continue;
        }
        MeasureCandidate m = *groupFacts;
        m.facts.unroll = std::max<int64_t>(1, config.getUnroll());
        // No key: printing every config would cost more than timing it.
        m.key.clear();
        batch.push_back(candidate);
        toMeasure.push_back(std::move(m));
        if (toMeasure.size() >= 4096)
          flush();
      }
    }
    flush();

    // The default schedule, measured first by every tuning run.
    double defaultUs = 0;
    bool defaultInSpace = false;
    if (std::optional<Candidate> fallback = getDefaultCandidate(task)) {
      for (auto [spaceIndex, space] : llvm::enumerate(state.spaces))
        if (space.getSketch() == fallback->sketch)
          fallback->space = spaceIndex;
      defaultInSpace = enumerated.contains(fallback->getId());
      std::string why;
      FailureOr<MeasureCandidate> m =
          buildAnalyticCandidate(state, *fallback, &why);
      if (succeeded(m)) {
        std::vector<MeasureResult> results = measurer.measure({*m});
        if (results.front().isOk())
          defaultUs = results.front().timing.medianUs;
      }
    }
    // The check: the optimum timed the way tessel-tune times it.
    if (best) {
      std::string why;
      FailureOr<MeasureCandidate> m =
          buildAnalyticCandidate(state, *best, &why);
      std::vector<MeasureResult> results;
      if (succeeded(m))
        results = measurer.measure({*m});
      if (results.empty() || !results.front().isOk() ||
          std::abs(results.front().timing.medianUs - bestUs) > 1e-9 * bestUs)
        return fail("task " + std::to_string(index) +
                    ": the optimum does not time the same through "
                    "buildAnalyticCandidate: " +
                    best->getKey());
    }
    // How hard the space is: the median config and the share of configs
    // within 90% of the optimum's throughput.
    double medianUs = 0, nearShare = 0;
    if (!latencies.empty()) {
      std::sort(latencies.begin(), latencies.end());
      medianUs = latencies[latencies.size() / 2];
      size_t near =
          std::upper_bound(latencies.begin(), latencies.end(), bestUs / 0.9) -
          latencies.begin();
      nearShare = static_cast<double>(near) / latencies.size();
    }
    double spaceBestUs = bestUs;
    bool defaultIsOptimum = defaultUs > 0 && defaultUs < bestUs;
    if (defaultIsOptimum)
      bestUs = defaultUs;
    auto gflops = [&](double us) { return task.flops / us / 1e3; };

    llvm::json::Object report{
        {"key", task.workloadKey},
        {"description", task.describe()},
        {"flops", task.flops},
        {"weight", task.weight},
        {"sketches", static_cast<int64_t>(state.spaces.size())},
        {"points", static_cast<int64_t>(std::min<uint64_t>(
                       points, std::numeric_limits<int64_t>::max()))},
        {"configs", configs},
        {"unusable", unusable},
        {"default_latency_us",
         defaultUs > 0 ? llvm::json::Value(defaultUs) : nullptr},
        {"default_in_space", defaultInSpace},
        {"space_optimum_latency_us",
         best ? llvm::json::Value(spaceBestUs) : nullptr},
        {"optimum_latency_us",
         std::isfinite(bestUs) ? llvm::json::Value(bestUs) : nullptr},
        {"optimum_gflops",
         std::isfinite(bestUs) ? llvm::json::Value(gflops(bestUs)) : nullptr},
        {"optimum_is_default", defaultIsOptimum},
        {"median_config_latency_us", medianUs},
        {"near_optimal_share", nearShare}};
    if (best && !defaultIsOptimum)
      report["optimum_candidate"] = best->getKey();
    if (!quiet)
      llvm::outs() << llvm::formatv(
          "task {0}: {1} configs in {2} sketches ({3} points), optimum "
          "{4:F3} us = {5:F1} GFLOP/s, default {6:F3} us, median config "
          "{7:F3} us, {8:P} within 90% (SIMULATED)  {9}\n",
          index, configs, state.spaces.size(), points, bestUs, gflops(bestUs),
          defaultUs, medianUs, nearShare, task.describe());
    taskReports.push_back(std::move(report));
  }
  double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started)
          .count();
  if (!reportFile.empty()) {
    llvm::json::Object report{{"tessel_oracle_report_version", 1},
                              {"model", inputFile.getValue()},
                              {"measurer", target},
                              {"simulated", true},
                              {"noise", 0.0},
                              {"elapsed_s", elapsed},
                              {"tasks", std::move(taskReports)}};
    if (llvm::Error written = writeJsonFile(reportFile, std::move(report)))
      return fail(llvm::toString(std::move(written)));
  }
  return 0;
}
