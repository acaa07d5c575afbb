//===- tessel-psa-bench.cpp - Best-k of Pruner's target spaces ------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Measures how much of the best of a sampled space survives PSA pruning
// (Pruner, Tables 1, 4 and 6): per task of each model, a fixed set of
// distinct random candidates is timed by the simulated GPU (analytic
// fidelity, noise-free) and ranked by the static analyzer under each
// variant (paper form, code form, each penalty off); Best-1 at target size k
// is the best simulated time of the whole set over the best of the k
// candidates of lowest PSA latency (1: the best survives). A random choice of
// k candidates (mean over draws) is the baseline. The full Algorithm 1
// (with the PSA-driven evolution) is reported against all it scored.
//
//   tessel-psa-bench examples/matmul-1024.mlir --device=h100
//
// Every time comes from the simulator: results are SIMULATED.
//
//===----------------------------------------------------------------------===//

#include "tessel/InitAllDialects.h"
#include "tessel/Tuning/Measure/MeasurerFactory.h"
#include "tessel/Tuning/Measure/SimulatedMeasurer.h"
#include "tessel/Tuning/ModelFile.h"
#include "tessel/Tuning/Search/Task.h"
#include "tessel/Tuning/Strategies/Psa/TargetSpace.h"
#include "tessel/Tuning/Tuner/AnalyticCandidate.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"

#include <algorithm>
#include <limits>
#include <numeric>

using namespace mlir;
using namespace mlir::tessel;
namespace cl = llvm::cl;

static cl::OptionCategory toolCategory("tessel-psa-bench options");

static cl::list<std::string> inputFiles(cl::Positional, cl::OneOrMore,
                                        cl::desc("<model .mlir>..."),
                                        cl::cat(toolCategory));
static cl::opt<std::string> deviceId("device", cl::init("h100"),
                                     cl::desc("Simulated device"),
                                     cl::cat(toolCategory));
static cl::opt<int> samples("samples", cl::init(4096),
                            cl::desc("Distinct random candidates per task"),
                            cl::cat(toolCategory));
static cl::opt<uint64_t> seed("seed", cl::init(0), cl::desc("Seed"),
                              cl::cat(toolCategory));
static cl::list<int> sizes("sizes", cl::CommaSeparated,
                           cl::desc("Target space sizes (default "
                                    "50,128,256,512)"),
                           cl::cat(toolCategory));
static cl::opt<int> randomDraws("random-draws", cl::init(200),
                                cl::desc("Draws of the random baseline"),
                                cl::cat(toolCategory));
static cl::opt<bool> algorithm1("algorithm1", cl::init(true),
                                cl::desc("Also run Algorithm 1 (default "
                                         "options, size 512)"),
                                cl::cat(toolCategory));

static cl::opt<int> dumpTop("dump-top", cl::init(0),
                            cl::desc("Print the N best of Algorithm 1's "
                                     "target space with their times "
                                     "(debugging)"),
                            cl::cat(toolCategory));

static int fail(const llvm::Twine &message) {
  llvm::errs() << "tessel-psa-bench: " << message << "\n";
  return 1;
}

namespace {
/// A PSA variant of the ablation.
struct Variant {
  std::string name;
  PsaOptions options;
};
} // namespace

static std::vector<Variant> getVariants() {
  std::vector<Variant> variants;
  variants.push_back({"psa", {}});
  PsaOptions code;
  code.form = PsaForm::Code;
  variants.push_back({"psa-code", code});
  for (const char *off : {"alpha", "reg", "warp", "kernel", "mem", "compute"}) {
    PsaOptions options;
    options.penalties = cantFail(PsaPenalties::parseDisabled(off));
    variants.push_back({std::string("no-") + off, options});
  }
  return variants;
}

/// The noise-free simulated time of `candidate`, microseconds; infinity
/// when it cannot be timed or fails on the device.
static double simulate(const SimulatedMeasurer &sim, TaskSearchState &state,
                       const Candidate &candidate) {
  FailureOr<MeasureCandidate> built = buildAnalyticCandidate(state, candidate);
  if (failed(built))
    return std::numeric_limits<double>::infinity();
  SimulatedEstimate estimate = sim.estimate(*built);
  if (estimate.status != MeasureStatus::Ok)
    return std::numeric_limits<double>::infinity();
  return estimate.totalUs;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(toolCategory);
  cl::ParseCommandLineOptions(argc, argv,
                              "Best-k of Pruner's target spaces (SIMULATED)\n");
  std::vector<int> targetSizes(sizes.begin(), sizes.end());
  if (targetSizes.empty())
    targetSizes = {50, 128, 256, 512};
  MeasurerOptions measurerOptions;
  measurerOptions.seed = seed;
  measurerOptions.simNoise = 0;
  auto created = createMeasurer("sim:" + deviceId, measurerOptions);
  if (!created)
    return fail(llvm::toString(created.takeError()));
  std::optional<DeviceDescription> &device = created->device;
  const auto &sim = static_cast<const SimulatedMeasurer &>(*created->measurer);
  std::vector<Variant> variants = getVariants();

  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  for (const std::string &path : inputFiles) {
    std::string error;
    std::unique_ptr<ModelFile> modelFile =
        ModelFile::load(path, &context, error);
    if (!modelFile)
      return error.empty() ? 1 : fail(error);
    ModuleOp model = modelFile->getModule();
    auto tasks = extractTasks(model, &context);
    if (!tasks)
      return fail(path + ": " + llvm::toString(tasks.takeError()));

    for (auto [index, task] : llvm::enumerate(*tasks)) {
      TaskSearchState state =
          TaskSearchState::create(task, *device, seed * 1000003 + index);
      if (state.spaces.empty())
        continue;

      // The fixed sampled space, timed.
      std::vector<Candidate> set;
      std::vector<double> times;
      llvm::DenseSet<std::pair<Attribute, Attribute>> ids;
      for (int tries = 0;
           static_cast<int>(set.size()) < samples && tries < 20 * samples;
           ++tries) {
        std::optional<Candidate> c = sampleCandidate(state);
        if (!c || !ids.insert(c->getId()).second)
          continue;
        double t = simulate(sim, state, *c);
        if (!std::isfinite(t))
          continue;
        set.push_back(*c);
        times.push_back(t);
      }
      if (set.empty())
        continue;
      double best = *std::min_element(times.begin(), times.end());

      llvm::json::Object row;
      row["model"] = path;
      row["task"] = static_cast<int64_t>(index);
      row["kernel"] = task.describe();
      row["op"] = task.opKind;
      row["weight"] = task.weight;
      row["sampled"] = static_cast<int64_t>(set.size());
      row["best_us"] = best;

      // Random baseline: mean over draws of best / best of k random.
      llvm::json::Object random;
      for (int k : targetSizes) {
        if (k >= static_cast<int>(set.size())) {
          random[std::to_string(k)] = 1.0;
          continue;
        }
        double sum = 0;
        RandomEngine rng(seed + 17 * k);
        std::vector<size_t> order(set.size());
        for (int d = 0; d < randomDraws; ++d) {
          std::iota(order.begin(), order.end(), 0);
          double chosen = std::numeric_limits<double>::infinity();
          for (int i = 0; i < k; ++i) {
            size_t j = i + rng.uniform(order.size() - i);
            std::swap(order[i], order[j]);
            chosen = std::min(chosen, times[order[i]]);
          }
          sum += best / chosen;
        }
        random[std::to_string(k)] = sum / randomDraws;
      }
      row["random"] = std::move(random);

      // Each PSA variant ranks the same set.
      llvm::json::Object pruned;
      for (const Variant &variant : variants) {
        StaticAnalyzer analyzer(*device, variant.options);
        std::vector<std::pair<double, size_t>> ranked;
        for (size_t i = 0; i < set.size(); ++i) {
          llvm::Expected<double> latency =
              getPsaLatency(analyzer, state, set[i]);
          if (!latency) {
            llvm::consumeError(latency.takeError());
            continue;
          }
          ranked.push_back({*latency, i});
        }
        std::stable_sort(ranked.begin(), ranked.end(),
                         [](auto &a, auto &b) { return a.first < b.first; });
        llvm::json::Object bestK;
        for (int k : targetSizes) {
          double chosen = std::numeric_limits<double>::infinity();
          for (size_t i = 0; i < ranked.size() && i < size_t(k); ++i)
            chosen = std::min(chosen, times[ranked[i].second]);
          bestK[std::to_string(k)] = best / chosen;
        }
        pruned[variant.name] = std::move(bestK);
      }
      row["psa"] = std::move(pruned);

      // Algorithm 1 with its defaults: the target space against everything
      // it scored.
      if (algorithm1) {
        StaticAnalyzer analyzer(*device, PsaOptions{});
        std::vector<ScoredCandidate> scored;
        TargetSpace space =
            generateTargetSpace(state, analyzer, TargetSpaceOptions(), &scored);
        double all = std::numeric_limits<double>::infinity(),
               kept = std::numeric_limits<double>::infinity();
        for (const ScoredCandidate &c : scored)
          all = std::min(all, simulate(sim, state, c.candidate));
        for (const ScoredCandidate &c : space.pruned)
          kept = std::min(kept, simulate(sim, state, c.candidate));
        for (const ScoredCandidate &c :
             llvm::ArrayRef(space.pruned).take_front(dumpTop)) {
          FailureOr<MeasureCandidate> built =
              buildAnalyticCandidate(state, c.candidate);
          SimulatedEstimate e = sim.estimate(*built);
          llvm::errs() << llvm::formatv(
              "psa {0:e} sim {1:F1} us bound {2} occ {3} {5} | {4}\n",
              c.latency, e.totalUs, e.bound, e.occupancy.activeWarpsPerSm,
              c.candidate.getKey(), e.message);
        }
        llvm::json::Object a1;
        a1["scored"] = static_cast<int64_t>(scored.size());
        a1["best_us"] = all;
        a1["target_best_us"] = kept;
        a1["best1"] = std::isfinite(kept) ? all / kept : 0.0;
        a1["target_vs_sampled_best"] = std::isfinite(kept) ? best / kept : 0.0;
        row["algorithm1"] = std::move(a1);
      }
      llvm::outs() << llvm::json::Value(std::move(row)) << "\n";
      llvm::outs().flush();
    }
  }
  return 0;
}
