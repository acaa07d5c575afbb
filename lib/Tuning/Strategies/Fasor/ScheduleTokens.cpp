//===- ScheduleTokens.cpp - Fasor's tokens of a schedule ------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Fasor/ScheduleTokens.h"

#include "tessel/Dialect/Tessel/IR/Schedule.h"
#include "tessel/Tuning/Features/AnsorFeatures.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tessel;
using namespace mlir::tessel::fasor;

static_assert(kTokenWidth == kAnsorStatementFeatures,
              "a token is one statement block of the ansor features");
static_assert(kAnsorFeatureWidth - 3 * kAnsorStatementFeatures <= kTokenWidth,
              "the kernel features fit one token");

/// Counts and sizes as Ansor's features store them.
static float scale(double value) { return std::log2(1.0 + value); }

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Expected<Tokens> mlir::tessel::fasor::encodeSchedule(
    linalg::LinalgOp op, ArrayRef<linalg::LinalgOp> fusedConsumers,
    SketchAttr sketch, ConfigAttr config, const DeviceDescription &device) {
  // Stateless: one for every call (datasets encode thousands of schedules).
  static const AnsorFeatureExtractor ansor;
  FailureOr<std::vector<float>> features =
      ansor.extract(op, fusedConsumers, sketch, config, device);
  if (failed(features))
    return makeError("fasor: the schedule has no features (dynamic shapes, "
                     "or a config that does not fit the op)");
  FailureOr<LoopNest> nest = LoopNest::get(op);
  if (failed(nest))
    return makeError("fasor: the op has no static loop nest");
  if (nest->size() > kMaxLoops)
    return makeError(llvm::formatv("fasor: the op has {0} loops; tokens hold "
                                   "{1}",
                                   nest->size(), kMaxLoops));
  Tokens tokens(kTokensPerSchedule, std::vector<float>(kTokenWidth, 0));

  // Task: per loop its extent and whether it reduces; the fused consumers.
  std::vector<float> &task = tokens[0];
  for (unsigned loop = 0; loop < nest->size(); ++loop) {
    task[2 * loop] = scale(nest->extents[loop]);
    task[2 * loop + 1] = nest->isReduction[loop] ? 1 : 0;
  }
  task[kTaskValues - 1] = scale(fusedConsumers.size());

  // Knobs: the tiles of every loop and level, then unroll, vector widths,
  // stages and the sketch (kind, staged operands, register accumulator).
  std::vector<float> &knobs = tokens[1];
  for (unsigned loop = 0; loop < config.getNumLoops(); ++loop) {
    ArrayRef<int64_t> tiles = config.getLoopTiles(loop);
    if (tiles.size() > kMaxLevels)
      return makeError(llvm::formatv("fasor: loop {0} has {1} tile levels; "
                                     "tokens hold {2}",
                                     loop, tiles.size(), kMaxLevels));
    for (auto [level, tile] : llvm::enumerate(tiles))
      knobs[loop * kMaxLevels + level] = scale(tile);
  }
  int64_t at = kMaxLoops * kMaxLevels;
  knobs[at++] = scale(config.getUnroll());
  ArrayRef<int64_t> vector = config.getVector();
  for (int64_t i = 0; i < 4; ++i, ++at)
    knobs[at] = i < static_cast<int64_t>(vector.size()) ? scale(vector[i]) : 0;
  knobs[at++] = scale(config.getStages());
  knobs[at + static_cast<int64_t>(sketch.getKind())] = 1;
  at += 4;
  knobs[at++] = static_cast<float>(sketch.getShared().size());
  knobs[at++] = sketch.getRegisterAccumulator() ? 1 : 0;

  // The `ansor` statement blocks (compute, copy, consumer) and the kernel
  // features.
  for (int64_t block = 0; block < 3; ++block)
    std::copy(features->begin() + block * kTokenWidth,
              features->begin() + (block + 1) * kTokenWidth,
              tokens[2 + block].begin());
  std::copy(features->begin() + 3 * kTokenWidth, features->end(),
            tokens[5].begin());
  return tokens;
}
