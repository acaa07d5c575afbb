//===- ReuseAnalysis.cpp - ETO's reuse pairs, features and shapes ---------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Eto/ReuseAnalysis.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tessel;

//===----------------------------------------------------------------------===//
// Definition 2
//===----------------------------------------------------------------------===//

ReuseCheck tessel::checkReusePair(const TuningTask &alpha,
                                  const TuningTask &beta) {
  ReuseCheck check;
  SmallVector<int64_t> a = getLoopExtents(alpha);
  SmallVector<int64_t> b = getLoopExtents(beta);
  check.order = compareExtents(a, b);
  if (alpha.opKind != beta.opKind) {
    check.reason =
        llvm::formatv("op kinds differ: {0} vs {1}", alpha.opKind, beta.opKind);
    return check;
  }
  if (!haveSameSketchStructure(alpha.sketches, beta.sketches)) {
    check.reason = "sketch sets differ";
    return check;
  }
  if (check.order == ExtentOrder::Mismatched) {
    check.reason =
        llvm::formatv("loop counts differ: {0} vs {1}", a.size(), b.size());
    return check;
  }
  if (check.order == ExtentOrder::Incomparable) {
    auto smaller = llvm::find_if(llvm::zip_equal(a, b), [](auto pair) {
      return std::get<0>(pair) < std::get<1>(pair);
    });
    auto larger = llvm::find_if(llvm::zip_equal(a, b), [](auto pair) {
      return std::get<0>(pair) > std::get<1>(pair);
    });
    size_t s = std::distance(llvm::zip_equal(a, b).begin(), smaller);
    size_t l = std::distance(llvm::zip_equal(a, b).begin(), larger);
    check.reason = llvm::formatv(
        "extents are incomparable: loop {0} is smaller ({1} < {2}) but loop "
        "{3} is larger ({4} > {5})",
        s, a[s], b[s], l, a[l], b[l]);
    return check;
  }
  check.reusable = true;
  return check;
}

//===----------------------------------------------------------------------===//
// Features and shapes
//===----------------------------------------------------------------------===//

/// Whether the sketch is Ansor's GPU multi-level tiling "SSSRRSRS".
static bool isMultiLevel(SketchAttr sketch) {
  return sketch.getKind() == SketchKind::MultiLevelTiling &&
         sketch.getNumSpaceLevels() == 5 &&
         sketch.getNumReductionLevels() == 3 &&
         sketch.getVThreadLevel() == 1u && sketch.getThreadLevel() == 2u;
}

int64_t tessel::getSharedElementsPerBlock(const SearchSpace &space,
                                          LoopTiles tiles) {
  linalg::LinalgOp op = space.getOp();
  SmallVector<int64_t> tile =
      getBlockTile(space.getSketch(), tiles, space.getLoopNest());
  int64_t elements = 0;
  for (int64_t input : space.getSketch().getShared())
    elements += FootprintFunction(
                    op.getMatchingIndexingMap(op.getDpsInputOperand(input)))
                    .getElements(tile);
  return elements;
}

ProgramFeatures tessel::getProgramFeatures(const SearchSpace &space,
                                           ConfigAttr config) {
  SmallVector<SmallVector<int64_t>> tiles = getTileVectors(config);
  const LoopNest &nest = space.getLoopNest();
  SketchAttr sketch = space.getSketch();
  ProgramFeatures features;
  features.blocks = 1;
  for (unsigned loop = 0; loop < nest.size(); ++loop)
    if (!nest.isReduction[loop])
      features.blocks *= tiles[loop].front();
  features.threads = features.blocks * getThreadsPerBlock(sketch, tiles, nest);
  features.sharedElements =
      features.blocks * getSharedElementsPerBlock(space, tiles);
  return features;
}

llvm::Expected<ReuseShapes> tessel::getReuseShapes(const SearchSpace &space,
                                                   ConfigAttr config) {
  SketchAttr sketch = space.getSketch();
  if (!isMultiLevel(sketch))
    return llvm::createStringError(
        llvm::formatv("reuse shapes need a multi_level_tiling \"SSSRRSRS\" "
                      "sketch, not {0} \"{1}\"",
                      stringifySketchKind(sketch.getKind()),
                      sketch.getStructure())
            .str());
  const LoopNest &nest = space.getLoopNest();
  ReuseShapes shapes;
  for (unsigned loop = 0; loop < nest.size(); ++loop) {
    ArrayRef<int64_t> levels = config.getLoopTiles(loop);
    if (nest.isReduction[loop]) {
      shapes.fetchShape.push_back(levels[0]);
      continue;
    }
    shapes.blockShape.push_back(nest.extents[loop] / levels[0]);
    shapes.vthreadShape.push_back(levels[1]);
    shapes.threadShape.push_back(levels[3] * levels[4]);
  }
  return shapes;
}

//===----------------------------------------------------------------------===//
// Ranges
//===----------------------------------------------------------------------===//

Interval Interval::between(double a, double b) {
  return {std::min(a, b), std::max(a, b)};
}

bool Interval::contains(double x) const {
  double slack = 1e-9 * std::max({1.0, std::abs(lo), std::abs(hi)});
  return x >= lo - slack && x <= hi + slack;
}

FeatureRanges tessel::computeFeatureRanges(const ProgramFeatures &beta,
                                           int64_t alphaIterations,
                                           int64_t betaIterations,
                                           int64_t alphaReduction,
                                           int64_t betaReduction,
                                           const EtoOptions &options) {
  double r2 = static_cast<double>(alphaIterations) / betaIterations;
  double lower = options.blockLowerBound == BlockLowerBound::Reduction
                     ? static_cast<double>(betaReduction) / alphaReduction
                     : 1.0 / r2;
  FeatureRanges ranges;
  ranges.blocks = Interval::between(beta.blocks * lower, beta.blocks * r2);
  ranges.threads = Interval::between(beta.threads, beta.threads * r2);
  ranges.sharedElements =
      Interval::between(beta.sharedElements, beta.sharedElements * r2);
  return ranges;
}

//===----------------------------------------------------------------------===//
// GetS
//===----------------------------------------------------------------------===//

llvm::Expected<SmallVector<int64_t>>
tessel::completeTiles(int64_t extent, ArrayRef<int64_t> given,
                      unsigned numLevels) {
  if (given.size() > numLevels)
    return llvm::createStringError(
        llvm::formatv("{0} levels given for a loop of {1} levels", given.size(),
                      numLevels)
            .str());
  int64_t product = 1;
  for (int64_t tile : given)
    product *= tile;
  if (product <= 0 || extent % product != 0)
    return llvm::createStringError(
        llvm::formatv("the given levels (product {0}) do not divide the "
                      "extent {1}",
                      product, extent)
            .str());
  SmallVector<int64_t> tiles(given);
  int64_t rest = extent / product;
  unsigned remaining = numLevels - given.size();
  if (remaining == 0) {
    if (rest != 1)
      return llvm::createStringError(
          llvm::formatv("the given levels cover {0} of the extent {1}", product,
                        extent)
              .str());
    return tiles;
  }
  int64_t innermost = rest;
  if (remaining > 1) {
    innermost = 1;
    for (int64_t d = 2; d <= rest; ++d) {
      if (rest % d == 0) {
        innermost = d;
        break;
      }
    }
    tiles.push_back(rest / innermost);
    tiles.append(remaining - 2, 1);
  }
  tiles.push_back(innermost);
  return tiles;
}

llvm::Expected<SmallVector<SmallVector<int64_t>>>
tessel::buildTiles(const SearchSpace &space, const ReuseShapes &shapes) {
  SketchAttr sketch = space.getSketch();
  if (!isMultiLevel(sketch))
    return llvm::createStringError(
        "GetS needs a multi_level_tiling \"SSSRRSRS\" sketch");
  const LoopNest &nest = space.getLoopNest();
  size_t numReduction = llvm::count(nest.isReduction, true);
  size_t numSpace = nest.size() - numReduction;
  if (shapes.blockShape.size() != numSpace ||
      shapes.vthreadShape.size() != numSpace ||
      shapes.threadShape.size() != numSpace ||
      shapes.fetchShape.size() != numReduction)
    return llvm::createStringError(
        llvm::formatv("shapes of {0}/{1}/{2} space and {3} reduction loops "
                      "for an op of {4} space and {5} reduction loops",
                      shapes.blockShape.size(), shapes.vthreadShape.size(),
                      shapes.threadShape.size(), shapes.fetchShape.size(),
                      numSpace, numReduction)
            .str());
  SmallVector<SmallVector<int64_t>> tiles;
  unsigned space_ = 0, reduction = 0;
  for (unsigned loop = 0; loop < nest.size(); ++loop) {
    int64_t extent = nest.extents[loop];
    if (nest.isReduction[loop]) {
      llvm::Expected<SmallVector<int64_t>> levels =
          completeTiles(extent, {shapes.fetchShape[reduction++]}, 3);
      if (!levels)
        return llvm::joinErrors(
            llvm::createStringError(llvm::formatv("loop {0}", loop).str()),
            levels.takeError());
      tiles.push_back(std::move(*levels));
      continue;
    }
    int64_t block = shapes.blockShape[space_];
    int64_t vthread = shapes.vthreadShape[space_];
    int64_t outputs = shapes.threadShape[space_];
    ++space_;
    if (block <= 0 || extent % block != 0 || vthread <= 0 || outputs <= 0 ||
        block % (vthread * outputs) != 0)
      return llvm::createStringError(
          llvm::formatv("loop {0}: block {1}, virtual threads {2} and thread "
                        "outputs {3} do not divide the extent {4}",
                        loop, block, vthread, outputs, extent)
              .str());
    llvm::Expected<SmallVector<int64_t>> inner = completeTiles(outputs, {}, 2);
    if (!inner)
      return inner.takeError();
    tiles.push_back({extent / block, vthread, block / (vthread * outputs),
                     (*inner)[0], (*inner)[1]});
  }
  return tiles;
}

//===----------------------------------------------------------------------===//
// Unroll
//===----------------------------------------------------------------------===//

/// The register loops of a multi_level_tiling thread, outermost first, as
/// (loop, level) pairs.
static SmallVector<std::pair<unsigned, unsigned>>
getRegisterLoops(const LoopNest &nest) {
  SmallVector<std::pair<unsigned, unsigned>> loops;
  for (auto [reduction, level] : {std::pair(true, 1u), std::pair(false, 3u),
                                  std::pair(true, 2u), std::pair(false, 4u)})
    for (unsigned loop = 0; loop < nest.size(); ++loop)
      if (nest.isReduction[loop] == reduction)
        loops.push_back({loop, level});
  return loops;
}

int64_t tessel::getUnrollEffect(const SearchSpace &space, LoopTiles tiles,
                                int64_t unroll) {
  SketchAttr sketch = space.getSketch();
  const LoopNest &nest = space.getLoopNest();
  if (sketch.getKind() == SketchKind::TwoLevelInjective)
    return 0;
  if (sketch.getKind() == SketchKind::CrossThreadReduction) {
    int64_t serial = 1, threads = 1;
    for (unsigned loop = 0; loop < nest.size(); ++loop) {
      if (!nest.isReduction[loop])
        continue;
      serial *= tiles[loop].front();
      threads *= tiles[loop].back();
    }
    return (serial <= unroll ? 1 : 0) |
           (getCrossThreadCombineWidth(threads) <= unroll ? 2 : 0);
  }
  if (!isMultiLevel(sketch))
    return 0;
  int64_t effect = 0, trips = 1;
  SmallVector<std::pair<unsigned, unsigned>> loops = getRegisterLoops(nest);
  for (auto [loop, level] : llvm::reverse(loops)) {
    int64_t extent = tiles[loop][level];
    if (extent == 1)
      continue;
    trips *= extent;
    if (trips > unroll)
      break;
    ++effect;
  }
  return effect;
}

int64_t tessel::estimateUnrolledRegisters(const SearchSpace &space,
                                          LoopTiles tiles, int64_t unroll) {
  SketchAttr sketch = space.getSketch();
  const LoopNest &nest = space.getLoopNest();
  if (!isMultiLevel(sketch))
    return 0;
  linalg::LinalgOp op = space.getOp();
  // Outputs of a thread: its virtual threads and the two inner space
  // levels.
  int64_t outputs = 1;
  SmallVector<int64_t> body(nest.size(), 1);
  for (unsigned loop = 0; loop < nest.size(); ++loop) {
    if (nest.isReduction[loop])
      continue;
    outputs *= tiles[loop][1] * tiles[loop][3] * tiles[loop][4];
    body[loop] = tiles[loop][1];
  }
  int64_t effect = getUnrollEffect(space, tiles, unroll);
  SmallVector<std::pair<unsigned, unsigned>> loops = getRegisterLoops(nest);
  for (auto [loop, level] : llvm::reverse(loops)) {
    if (effect == 0)
      break;
    int64_t extent = tiles[loop][level];
    if (extent == 1)
      continue;
    body[loop] *= extent;
    --effect;
  }
  int64_t inputs = 0;
  for (OpOperand *input : op.getDpsInputOperands())
    if (isa<ShapedType>(input->get().getType()))
      inputs +=
          FootprintFunction(op.getMatchingIndexingMap(input)).getElements(body);
  return outputs + inputs;
}
