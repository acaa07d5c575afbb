//===- PrunerFlags.cpp - tessel-tune's options of strategy psa ------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "PrunerFlags.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::tessel;
namespace cl = llvm::cl;

static cl::OptionCategory prunerCategory(
    "Strategy psa (Pruner; docs/Pruner.md)");

cl::OptionCategory &tessel::getPrunerCategory() { return prunerCategory; }

static cl::opt<int> targetSize("psa-target-size", cl::init(512),
                               cl::desc("Candidates of lowest PSA latency "
                                        "kept in a target space"),
                               cl::cat(prunerCategory));
static cl::opt<double>
    unprunedShare("psa-unpruned-share", cl::init(0.1),
                  cl::desc("Share of unpruned random samples in a target "
                           "space"),
                  cl::cat(prunerCategory));
static cl::opt<int> psaSamples("psa-samples", cl::init(2048),
                               cl::desc("Random samples that start a target "
                                        "space"),
                               cl::cat(prunerCategory));
static cl::opt<int>
    psaGenerations("psa-generations", cl::init(2),
                   cl::desc("Generations of PSA-driven evolution"),
                   cl::cat(prunerCategory));
static cl::opt<int>
    regenerateEvery("psa-regenerate-every", cl::init(2),
                    cl::desc("Rounds of a task between two target spaces"),
                    cl::cat(prunerCategory));
static cl::opt<int> modelGenerations(
    "psa-model-generations", cl::init(1),
    cl::desc("Generations of model-guided mutation per round"),
    cl::cat(prunerCategory));
static cl::opt<double> epsilon("psa-epsilon", cl::init(0.1),
                               cl::desc("Share of each batch drawn at random"),
                               cl::cat(prunerCategory));
static cl::opt<std::string> form("psa-form", cl::init("paper"),
                                 cl::desc("PSA formulas: paper or code"),
                                 cl::cat(prunerCategory));
static cl::opt<std::string> disable(
    "psa-disable", cl::init(""),
    cl::desc("PSA penalties to switch off (comma-separated: alpha, reg, "
             "warp, kernel, mem, compute)"),
    cl::cat(prunerCategory));
static cl::opt<bool> uncappedWarps(
    "psa-uncapped-warps",
    cl::desc("Count every warp of a block in the warp-granular P_kernel (the "
             "paper's literal W; default: at most n_w per block)"),
    cl::cat(prunerCategory));
static cl::opt<bool> noPrune("psa-no-prune",
                             cl::desc("Ablation: no PSA, the target space is "
                                      "unpruned random samples"),
                             cl::cat(prunerCategory));
static cl::opt<std::string> costModelInit(
    "cost-model-init",
    cl::desc("Start from this saved cost model (e.g. of another device): "
             "XGBoost continues boosting from it on this run's records"),
    cl::cat(prunerCategory));
static cl::opt<std::string>
    saveCostModel("save-cost-model",
                  cl::desc("Save the cost model here after every training"),
                  cl::cat(prunerCategory));

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Error tessel::applyPrunerFlags(StrategyOptions &options,
                                     llvm::StringRef strategy,
                                     llvm::StringRef features,
                                     bool featuresGiven, int &perRound,
                                     bool perRoundGiven) {
  PrunerOptions &p = options.pruner;
  llvm::Expected<PsaForm> parsedForm = parsePsaForm(form);
  if (!parsedForm)
    return makeError("--psa-form: " + llvm::toString(parsedForm.takeError()));
  llvm::Expected<PsaPenalties> penalties =
      PsaPenalties::parseDisabled(disable);
  if (!penalties)
    return makeError("--psa-disable: " +
                     llvm::toString(penalties.takeError()));
  p.psa.form = *parsedForm;
  p.psa.penalties = *penalties;
  p.psa.capBlockWarps = !uncappedWarps;
  p.prune = !noPrune;
  p.targetSpace.size = targetSize;
  p.targetSpace.unprunedShare = unprunedShare;
  p.targetSpace.samples = psaSamples;
  p.targetSpace.generations = psaGenerations;
  p.regenerateEvery = regenerateEvery;
  p.modelGenerations = modelGenerations;
  p.epsilonGreedy = epsilon;
  p.costModelInit = costModelInit;
  p.saveCostModel = saveCostModel;
  if (strategy != "psa") {
    if (!costModelInit.empty() || !saveCostModel.empty())
      return makeError("--cost-model-init and --save-cost-model need "
                       "--strategy=psa");
    return llvm::Error::success();
  }
  p.features = featuresGiven ? features.str() : "pruner";
  if (!perRoundGiven)
    perRound = 10;
  return llvm::Error::success();
}

std::string tessel::getPrunerOptionsJson(const StrategyOptions &options) {
  const PrunerOptions &p = options.pruner;
  const PsaPenalties &on = p.psa.penalties;
  return llvm::formatv(
             "{{\"prune\": {0}, \"form\": \"{1}\", \"target_size\": {2}, "
             "\"unpruned_share\": {3}, \"samples\": {4}, \"generations\": {5}, "
             "\"regenerate_every\": {6}, \"model_generations\": {7}, "
             "\"epsilon\": {8}, \"features\": \"{9}\", \"penalties\": "
             "{{\"alpha\": {10}, \"reg\": {11}, \"warp\": {12}, \"kernel\": "
             "{13}, \"mem\": {14}}, \"cost_model_init\": \"{15}\", "
             "\"cap_block_warps\": {16}}",
             p.prune, stringifyPsaForm(p.psa.form), p.targetSpace.size,
             p.targetSpace.unprunedShare, p.targetSpace.samples,
             p.targetSpace.generations, p.regenerateEvery, p.modelGenerations,
             p.epsilonGreedy, p.features, on.alpha, on.reg, on.warp,
             on.kernel, on.mem, llvm::sys::path::filename(p.costModelInit),
             p.psa.capBlockWarps)
      .str();
}
