//===- TopKStrategy.cpp - ETO's TopK baseline
//------------------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Eto/TopKStrategy.h"
#include "tessel/Tuning/Strategies/Eto/Bridge.h"

#include <numeric>

using namespace mlir;
using namespace mlir::tessel;

std::optional<unsigned> tessel::findMatchingSpace(const TaskSearchState &state,
                                                  SketchAttr sketch) {
  for (auto [index, space] : llvm::enumerate(state.spaces))
    if (haveSameSketchStructure({space.getSketch()}, {sketch}))
      return index;
  return std::nullopt;
}

std::optional<ConfigAttr> tessel::adaptConfig(const SearchSpace &space,
                                              ConfigAttr config) {
  SmallVector<int64_t> extents = space.getOp().getStaticLoopRanges();
  SmallVector<SmallVector<int64_t>> tiles = getTileVectors(config);
  if (tiles.size() != extents.size())
    return std::nullopt;
  for (auto [levels, extent] : llvm::zip_equal(tiles, extents)) {
    if (levels.empty())
      return std::nullopt;
    int64_t rest = extent;
    for (size_t level = levels.size() - 1; level > 0; --level) {
      levels[level] = std::gcd(levels[level], rest);
      rest /= levels[level];
    }
    levels[0] = rest;
  }
  // The widest valid vector width not above the old one, per operand.
  SmallVector<int64_t> vector(config.getVector());
  SmallVector<SmallVector<int64_t>> valid = space.getValidVectors(tiles);
  if (vector.size() != valid.size())
    vector.assign(valid.size(), 1);
  for (auto [width, choices] : llvm::zip_equal(vector, valid)) {
    int64_t chosen = 0;
    for (int64_t choice : choices)
      if (choice <= width)
        chosen = std::max(chosen, choice);
    if (chosen == 0)
      return std::nullopt;
    width = chosen;
  }
  auto adapted =
      ConfigAttr::get(config.getContext(), tiles, config.getUnroll(), vector,
                      config.getStages());
  if (failed(space.check(adapted)))
    return std::nullopt;
  return adapted;
}

EtoTopKStrategy::EtoTopKStrategy(int64_t k, std::vector<ProgramRef> programs)
    : k(k), programs(std::move(programs)) {}

std::vector<Candidate> EtoTopKStrategy::propose(TaskSearchState &state,
                                                int count) {
  std::vector<Candidate> batch;
  if (done)
    return batch;
  // A round is the next k programs that adapt; it may span several calls
  // when `count` is below k.
  if (pending == 0) {
    if (roundRan || next >= programs.size()) {
      done = true;
      return batch;
    }
    pending = k;
  }
  while (static_cast<int64_t>(batch.size()) < count && pending > 0 &&
         next < programs.size()) {
    const ProgramRef &program = programs[next++];
    std::optional<unsigned> space = findMatchingSpace(state, program.sketch);
    std::optional<ConfigAttr> config;
    if (space)
      config = adaptConfig(state.spaces[*space], program.config);
    if (!config) {
      ++skipped;
      continue;
    }
    Candidate candidate{*space, state.spaces[*space].getSketch(), *config};
    if (state.seen.contains(candidate.getId()))
      continue;
    state.seen.insert(candidate.getId());
    batch.push_back(candidate);
    --pending;
  }
  if (batch.empty())
    done = true;
  return batch;
}

llvm::Error EtoTopKStrategy::observe(TaskSearchState &state,
                                     llvm::ArrayRef<Trial> trials) {
  // The round's programs that run end the search once the round is done.
  for (const Trial &trial : trials)
    roundRan |= trial.result.isOk();
  return llvm::Error::success();
}
