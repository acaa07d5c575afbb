//===- Strategy.cpp - Search strategies over a task's configs -------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Tuner/Strategy.h"
#include "tessel/Dialect/Tessel/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cassert>
#include <limits>
#include <numeric>

using namespace mlir;
using namespace mlir::tessel;

std::string Candidate::getKey() const {
  std::string key;
  llvm::raw_string_ostream os(key);
  os << sketch << " " << config;
  return key;
}

const Trial *TaskSearchState::getBest() const {
  const Trial *best = nullptr;
  for (const Trial &trial : trials)
    if (trial.result.isOk() && (!best || trial.gflops > best->gflops))
      best = &trial;
  return best;
}

void TaskSearchState::record(Trial trial) {
  seen.insert(trial.candidate.getId());
  trials.push_back(std::move(trial));
}

TaskSearchState TaskSearchState::create(TuningTask &task,
                                        const DeviceDescription &device,
                                        uint64_t rngSeed, int64_t maxStages) {
  TaskSearchState state;
  state.task = &task;
  state.rng = RandomEngine(rngSeed);
  state.consumers = getTaskFusedConsumers(task);
  for (SketchAttr sketch : task.sketches) {
    FailureOr<SearchSpace> space =
        SearchSpace::get(task.getTargetOp(), sketch, device, maxStages);
    if (succeeded(space))
      state.spaces.push_back(std::move(*space));
  }
  return state;
}

SearchStrategy::~SearchStrategy() = default;

llvm::Error SearchStrategy::observe(TaskSearchState &, ArrayRef<Trial>) {
  return llvm::Error::success();
}

std::optional<Candidate> tessel::sampleCandidate(TaskSearchState &state) {
  if (state.spaces.empty())
    return std::nullopt;
  unsigned index = state.rng.uniform(state.spaces.size());
  FailureOr<ConfigAttr> config = state.spaces[index].sample(state.rng);
  if (failed(config))
    return std::nullopt;
  return Candidate{index, state.spaces[index].getSketch(), *config};
}

std::vector<Candidate> tessel::sampleUnseen(TaskSearchState &state,
                                            int count) {
  std::vector<Candidate> batch;
  // Small spaces run out: give up after many repeats.
  for (int tries = 0; static_cast<int>(batch.size()) < count &&
                      tries < 50 * count + 100;
       ++tries) {
    std::optional<Candidate> candidate = sampleCandidate(state);
    if (!candidate)
      continue;
    if (!state.seen.insert(candidate->getId()).second)
      continue;
    batch.push_back(*candidate);
  }
  return batch;
}

RouletteWheel::RouletteWheel(ArrayRef<double> scores) {
  assert(!scores.empty() && "a wheel needs a score");
  double floor = *std::min_element(scores.begin(), scores.end());
  cumulative.reserve(scores.size());
  double total = 0;
  for (double score : scores)
    cumulative.push_back(total += score - floor + 1e-6);
}

size_t RouletteWheel::pick(RandomEngine &rng) const {
  double draw = rng.uniformReal() * cumulative.back();
  size_t index = std::lower_bound(cumulative.begin(), cumulative.end(), draw) -
                 cumulative.begin();
  return std::min(index, cumulative.size() - 1);
}

Candidate tessel::mutateCandidate(TaskSearchState &state,
                                  const Candidate &candidate,
                                  double tileMutationWeight) {
  Candidate child = candidate;
  SearchSpace &space = state.spaces[child.space];
  std::optional<ConfigAttr> mutated;
  double draw = state.rng.uniformReal();
  if (draw < tileMutationWeight)
    mutated = space.mutateTileSize(child.config, state.rng);
  else if (space.hasStagesKnob() &&
           draw < tileMutationWeight + (1 - tileMutationWeight) / 2)
    // With the `stages` knob, it takes half of the non-tile mutations.
    mutated = space.mutateStages(child.config, state.rng);
  else
    mutated = space.mutateUnroll(child.config, state.rng);
  if (mutated && succeeded(space.check(*mutated)))
    child.config = *mutated;
  return child;
}

/// The knob values of `candidate`, as (knob, value) keys: its sketch, each
/// loop's tile size at each level, the unroll value, each vector width.
static SmallVector<std::pair<int64_t, int64_t>>
getKnobValues(const Candidate &candidate) {
  SmallVector<std::pair<int64_t, int64_t>> knobs;
  int64_t knob = 0;
  knobs.push_back({knob++, candidate.space});
  ConfigAttr config = candidate.config;
  for (unsigned loop = 0; loop < config.getNumLoops(); ++loop)
    for (int64_t tile : config.getLoopTiles(loop))
      knobs.push_back({knob++, tile});
  knobs.push_back({knob++, config.getUnroll()});
  for (int64_t width : config.getVector())
    knobs.push_back({knob++, width});
  if (config.getStages() != 1)
    knobs.push_back({knob++, config.getStages()});
  return knobs;
}

std::vector<size_t>
tessel::pickDiverse(ArrayRef<std::pair<double, Candidate>> ranked,
                    size_t count, double knobWeight) {
  std::vector<SmallVector<std::pair<int64_t, int64_t>>> knobs;
  for (const auto &entry : ranked)
    knobs.push_back(getKnobValues(entry.second));
  llvm::DenseSet<std::pair<int64_t, int64_t>> covered;
  std::vector<bool> taken(ranked.size(), false);
  std::vector<size_t> picked;
  while (picked.size() < std::min(count, ranked.size())) {
    size_t best = 0;
    double bestGain = -std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < ranked.size(); ++i) {
      if (taken[i])
        continue;
      int64_t fresh = llvm::count_if(
          knobs[i], [&](const auto &value) { return !covered.contains(value); });
      double gain = ranked[i].first + knobWeight * fresh;
      // Ties go to the better-ranked candidate.
      if (gain > bestGain) {
        bestGain = gain;
        best = i;
      }
    }
    taken[best] = true;
    picked.push_back(best);
    covered.insert(knobs[best].begin(), knobs[best].end());
  }
  return picked;
}

SmallVector<linalg::LinalgOp>
tessel::getTaskFusedConsumers(TuningTask &task) {
  SmallVector<linalg::LinalgOp> consumers;
  linalg::LinalgOp target = task.getTargetOp();
  bool after = false;
  task.module->walk([&](linalg::LinalgOp op) {
    if (op == target) {
      after = true;
      return;
    }
    if (after && !isa<linalg::FillOp>(op) &&
        static_cast<int64_t>(consumers.size()) < task.fusedConsumers)
      consumers.push_back(op);
  });
  return consumers;
}

std::optional<Candidate> tessel::getDefaultCandidate(TuningTask &task) {
  OwningOpRef<ModuleOp> module(cast<ModuleOp>(task.module->clone()));
  PassManager pm(module->getContext());
  pm.addPass(createTesselDefaultConfig());
  if (failed(pm.run(*module)))
    return std::nullopt;
  std::optional<Candidate> result;
  module->walk([&](linalg::LinalgOp op) {
    if (!op->hasAttr(kTaskTargetAttrName))
      return;
    auto sketch = op->getAttrOfType<SketchAttr>(TesselDialect::kSketchAttrName);
    auto config = op->getAttrOfType<ConfigAttr>(TesselDialect::kConfigAttrName);
    if (sketch && config)
      result = Candidate{0, sketch, config};
  });
  return result;
}
