//===- WindowViews.cpp - Window indices as strided views ------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/IR/WindowViews.h"
#include "tessel/Dialect/Tessel/IR/Schedule.h"

#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::tessel;

/// The view of an operand read through `map`, or failure.
static FailureOr<WindowView> getWindowView(AffineMap map,
                                           ArrayRef<int64_t> extents) {
  WindowView view;
  if (map.isProjectedPermutation()) {
    view.map = map;
    view.unchanged = true;
    return view;
  }
  MLIRContext *ctx = map.getContext();
  unsigned numLoops = map.getNumDims();
  llvm::SmallBitVector used(numLoops);
  // Results indexed by unit loops only get a loop once every result with a
  // loop of its own has taken it.
  SmallVector<std::optional<unsigned>> loopOfResult(map.getNumResults());
  SmallVector<SmallVector<unsigned>> unitCandidates(map.getNumResults());
  for (auto [r, expr] : llvm::enumerate(map.getResults())) {
    SmallVector<std::pair<unsigned, int64_t>> terms;
    int64_t constant;
    if (!getLinearTerms(expr, terms, constant) || constant < 0)
      return failure();
    // Terms of one loop: merge them.
    llvm::SmallDenseMap<unsigned, int64_t> coefficients;
    for (auto [loop, coefficient] : terms)
      coefficients[loop] += coefficient;
    std::optional<unsigned> wide;
    int64_t stride = 1;
    for (auto [loop, coefficient] : coefficients) {
      if (coefficient == 0)
        continue;
      if (coefficient < 0)
        return failure();
      if (extents[loop] == 1) {
        unitCandidates[r].push_back(loop);
        continue;
      }
      if (wide)
        return failure();
      wide = loop;
      stride = coefficient;
    }
    llvm::sort(unitCandidates[r]);
    view.offsets.push_back(constant);
    view.strides.push_back(stride);
    view.sizes.push_back(wide ? extents[*wide] : 1);
    if (wide) {
      if (used.test(*wide))
        return failure();
      used.set(*wide);
      loopOfResult[r] = wide;
    }
  }
  for (unsigned r = 0; r < map.getNumResults(); ++r) {
    if (loopOfResult[r])
      continue;
    // A unit loop of the index, else any unit loop the map does not use.
    auto isFree = [&](unsigned loop) { return !used.test(loop); };
    auto own = llvm::find_if(unitCandidates[r], isFree);
    std::optional<unsigned> loop;
    if (own != unitCandidates[r].end())
      loop = *own;
    for (unsigned l = 0; !loop && l < numLoops; ++l)
      if (extents[l] == 1 && isFree(l) &&
          llvm::none_of(map.getResults(), [&](AffineExpr e) {
            return e.isFunctionOfDim(l);
          }))
        loop = l;
    if (!loop)
      return failure();
    used.set(*loop);
    loopOfResult[r] = loop;
  }
  SmallVector<AffineExpr> results;
  for (std::optional<unsigned> loop : loopOfResult)
    results.push_back(getAffineDimExpr(*loop, ctx));
  view.map = AffineMap::get(numLoops, 0, results, ctx);
  return view;
}

FailureOr<SmallVector<WindowView>>
tessel::getWindowViews(ArrayRef<AffineMap> maps, ArrayRef<int64_t> extents) {
  if (llvm::any_of(extents, [](int64_t e) { return e <= 0; }))
    return failure();
  SmallVector<WindowView> views;
  for (AffineMap map : maps) {
    FailureOr<WindowView> view = getWindowView(map, extents);
    if (failed(view))
      return failure();
    views.push_back(std::move(*view));
  }
  return views;
}

bool tessel::readsWindowViews(ArrayRef<AffineMap> maps, SketchAttr sketch,
                              LoopTiles tiles) {
  if (sketch.getKind() != SketchKind::MultiLevelTiling ||
      !sketch.getRegisterAccumulator())
    return false;
  if (llvm::all_of(maps,
                   [](AffineMap map) { return map.isProjectedPermutation(); }))
    return false;
  SmallVector<int64_t> innermost;
  for (ArrayRef<int64_t> levels : tiles)
    innermost.push_back(levels.back());
  return succeeded(getWindowViews(maps, innermost));
}

bool tessel::readsWindowViews(linalg::LinalgOp op, SketchAttr sketch,
                              LoopTiles tiles) {
  return readsWindowViews(op.getIndexingMapsArray(), sketch, tiles);
}

bool tessel::hasRegisterEpilogue(bool vectorizable, ArrayRef<AffineMap> maps,
                                 SketchAttr sketch, LoopTiles tiles) {
  if (sketch.getKind() != SketchKind::MultiLevelTiling ||
      !sketch.getRegisterAccumulator() || sketch.getFusedConsumers() == 0)
    return false;
  return vectorizable || readsWindowViews(maps, sketch, tiles);
}

bool tessel::hasRegisterEpilogue(linalg::LinalgOp op, SketchAttr sketch,
                                 LoopTiles tiles) {
  return hasRegisterEpilogue(isVectorizedByMaterialization(op),
                             op.getIndexingMapsArray(), sketch, tiles);
}
