//===- TileShape.cpp - Block and footprint shapes of plain tile vectors ---===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/IR/TileShape.h"
#include "tessel/Dialect/Tessel/IR/TensorCore.h"

#include "mlir/IR/AffineExpr.h"

#include <cstdlib>
#include <functional>
#include <numeric>

using namespace mlir;
using namespace mlir::tessel;

static int64_t productFrom(ArrayRef<int64_t> values, unsigned first) {
  int64_t product = 1;
  for (int64_t v : values.drop_front(first))
    product *= v;
  return product;
}

SmallVector<SmallVector<int64_t>> tessel::getTileVectors(ConfigAttr config) {
  SmallVector<SmallVector<int64_t>> tiles;
  for (unsigned loop = 0; loop < config.getNumLoops(); ++loop)
    tiles.emplace_back(config.getLoopTiles(loop));
  return tiles;
}

SmallVector<int64_t> tessel::getBlockTile(SketchAttr sketch, LoopTiles tiles,
                                          const LoopNest &nest) {
  SmallVector<int64_t> tile;
  for (unsigned loop = 0; loop < nest.size(); ++loop) {
    ArrayRef<int64_t> levels = tiles[loop];
    // A cross-thread reduction block covers the whole reduction range; every
    // other reduction is staged one outer iteration at a time.
    if (nest.isReduction[loop] &&
        sketch.getKind() == SketchKind::CrossThreadReduction)
      tile.push_back(productFrom(levels, 0));
    else
      tile.push_back(productFrom(levels, 1));
  }
  return tile;
}

int64_t tessel::getThreadsPerBlock(SketchAttr sketch, LoopTiles tiles,
                                   const LoopNest &nest) {
  int64_t threads = 1;
  if (std::optional<unsigned> warpLevel = sketch.getWarpLevel()) {
    // Tensor cores: whole warps, one per warp tile.
    for (unsigned loop = 0; loop < nest.size(); ++loop)
      if (!nest.isReduction[loop])
        threads *= tiles[loop][*warpLevel];
    return threads * kWarpSize;
  }
  std::optional<unsigned> spaceLevel = sketch.getThreadLevel();
  std::optional<unsigned> reductionLevel = sketch.getReductionThreadLevel();
  for (unsigned loop = 0; loop < nest.size(); ++loop) {
    std::optional<unsigned> level =
        nest.isReduction[loop] ? reductionLevel : spaceLevel;
    if (level)
      threads *= tiles[loop][*level];
  }
  return threads;
}

std::optional<unsigned> tessel::getBoundThreadLevel(SketchAttr sketch) {
  if (std::optional<unsigned> level = sketch.getThreadLevel())
    return level;
  return sketch.getWarpLevel();
}

SmallVector<unsigned> tessel::getMultiStepStagingLoops(LoopTiles tiles,
                                                       const LoopNest &nest) {
  SmallVector<unsigned> loops;
  for (unsigned loop = 0; loop < nest.size(); ++loop)
    if (nest.isReduction[loop] && tiles[loop].front() > 1)
      loops.push_back(loop);
  return loops;
}

/// Adds `scale * expr` to `terms` and `constant`; false when `expr` is not
/// linear.
static bool addLinearTerms(AffineExpr expr, int64_t scale,
                           SmallVectorImpl<std::pair<unsigned, int64_t>> &terms,
                           int64_t &constant) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
    terms.push_back({dim.getPosition(), scale});
    return true;
  }
  if (auto c = dyn_cast<AffineConstantExpr>(expr)) {
    constant += scale * c.getValue();
    return true;
  }
  auto bin = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!bin)
    return false;
  if (bin.getKind() == AffineExprKind::Add)
    return addLinearTerms(bin.getLHS(), scale, terms, constant) &&
           addLinearTerms(bin.getRHS(), scale, terms, constant);
  if (bin.getKind() == AffineExprKind::Mul) {
    if (auto c = dyn_cast<AffineConstantExpr>(bin.getRHS()))
      return addLinearTerms(bin.getLHS(), scale * c.getValue(), terms,
                            constant);
    if (auto c = dyn_cast<AffineConstantExpr>(bin.getLHS()))
      return addLinearTerms(bin.getRHS(), scale * c.getValue(), terms,
                            constant);
  }
  return false;
}

bool tessel::getLinearTerms(AffineExpr expr,
                            SmallVectorImpl<std::pair<unsigned, int64_t>> &terms,
                            int64_t &constant) {
  terms.clear();
  constant = 0;
  return addLinearTerms(expr, 1, terms, constant);
}

FootprintFunction::FootprintFunction(AffineMap map) {
  for (AffineExpr expr : map.getResults()) {
    Result &result = results.emplace_back();
    int64_t constant;
    if (getLinearTerms(expr, result.terms, constant)) {
      // The span of a term does not depend on its sign.
      for (auto &term : result.terms)
        term.second = std::abs(term.second);
      continue;
    }
    // Non-linear index: bound by the product of the tiles of its dims.
    result.linear = false;
    result.terms.clear();
    expr.walk([&](AffineExpr e) {
      if (auto dim = dyn_cast<AffineDimExpr>(e))
        result.terms.push_back({dim.getPosition(), 1});
    });
  }
}

int64_t FootprintFunction::getExtent(const Result &result,
                                     ArrayRef<int64_t> tile) const {
  if (!result.linear) {
    int64_t product = 1;
    for (auto [loop, scale] : result.terms)
      product *= tile[loop];
    return product;
  }
  int64_t span = 0;
  for (auto [loop, scale] : result.terms)
    span += scale * (tile[loop] - 1);
  return span + 1;
}

SmallVector<int64_t> FootprintFunction::getShape(ArrayRef<int64_t> tile) const {
  SmallVector<int64_t> shape;
  for (const Result &result : results)
    shape.push_back(getExtent(result, tile));
  return shape;
}

int64_t FootprintFunction::getInnermostExtent(ArrayRef<int64_t> tile) const {
  return results.empty() ? 1 : getExtent(results.back(), tile);
}

int64_t FootprintFunction::getElements(ArrayRef<int64_t> tile) const {
  int64_t elements = 1;
  for (const Result &result : results)
    elements *= getExtent(result, tile);
  return elements;
}

/// Divisors of `n` that are multiples of `step`, largest first.
static SmallVector<int64_t> getDivisorsDescending(int64_t n, int64_t step) {
  SmallVector<int64_t> divisors;
  for (int64_t d = n; d >= 1; --d)
    if (n % d == 0 && d % step == 0)
      divisors.push_back(d);
  return divisors;
}

SmallVector<int64_t> tessel::getCooperativeLoadChunk(ArrayRef<int64_t> shape,
                                                     int64_t threads,
                                                     int64_t width) {
  int64_t room = std::max<int64_t>(1, threads) * std::max<int64_t>(1, width);
  // Innermost dims first, each as large as the room left allows. This is
  // optimal whenever it fills the room or takes the whole tile.
  SmallVector<int64_t> chunk(shape.size(), 1);
  int64_t left = room;
  for (int64_t d = shape.size() - 1; d >= 0 && left > 1; --d) {
    chunk[d] = std::gcd(shape[d], left);
    left /= chunk[d];
  }
  int64_t elements = 1, total = 1;
  for (auto [c, s] : llvm::zip(chunk, shape)) {
    elements *= c;
    total *= s;
  }
  if (elements == room || elements == total || shape.empty())
    return chunk;

  // Otherwise, a depth-first search over the divisors, innermost dim first
  // and largest divisors first, so that the first chunk found with the most
  // elements has the longest innermost runs.
  SmallVector<SmallVector<int64_t>> divisors;
  for (auto [d, extent] : llvm::enumerate(shape))
    divisors.push_back(getDivisorsDescending(
        extent, d + 1 == shape.size() ? std::max<int64_t>(1, width) : 1));
  SmallVector<int64_t> best = chunk, current(shape.size(), 1);
  int64_t bestElements = elements;
  std::function<void(int64_t, int64_t)> search = [&](int64_t d,
                                                     int64_t product) {
    if (d < 0) {
      if (product > bestElements) {
        bestElements = product;
        best = current;
      }
      return;
    }
    // No chunk below this one can beat the best: every remaining dim whole.
    int64_t bound = product;
    for (int64_t e = 0; e <= d; ++e)
      bound *= shape[e];
    if (std::min(bound, room) <= bestElements)
      return;
    for (int64_t divisor : divisors[d]) {
      if (product * divisor > room)
        continue;
      current[d] = divisor;
      search(d - 1, product * divisor);
      if (bestElements == room)
        return;
    }
    current[d] = 1;
  };
  search(shape.size() - 1, 1);
  return best;
}

double tessel::getCooperativeLoadLaneUse(ArrayRef<int64_t> shape,
                                         int64_t threads, int64_t width) {
  int64_t elements = 1, chunk = 1;
  for (int64_t extent : shape)
    elements *= extent;
  for (int64_t extent : getCooperativeLoadChunk(shape, threads, width))
    chunk *= extent;
  threads = std::max<int64_t>(1, threads);
  width = std::max<int64_t>(1, width);
  return static_cast<double>(elements) /
         static_cast<double>(elements / chunk * threads * width);
}
