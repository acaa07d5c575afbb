//===- ShapeCosts.h - ETO's BShape and TShape cost models -------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The two analytical cost models of ETO's reuse tuner (section 5.1) and the
// helpers of Algorithm 1 built on them: GetBShape (the block shape of least
// global-memory traffic for a number of blocks), GetLShape (the fetch shape
// whose shared memory is closest to a target) and GetTShape (the thread
// shape of fewest shared-memory requests for a number of threads). The paper
// defers the formulas to its technical report; the ones here are described
// in docs/Eto.md.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_STRATEGIES_ETO_SHAPECOSTS_H
#define TESSEL_TUNING_STRATEGIES_ETO_SHAPECOSTS_H

#include "tessel/Tuning/Strategies/Eto/EtoOptions.h"
#include "tessel/Tuning/Strategies/Eto/ReuseAnalysis.h"

#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace mlir {
namespace tessel {

/// A TShape: per space loop the virtual threads of a block and the outputs
/// of a thread in one virtual-thread sub-area.
struct ThreadShape {
  SmallVector<int64_t> vthreadShape;
  SmallVector<int64_t> threadShape;

  bool operator==(const ThreadShape &other) const {
    return vthreadShape == other.vthreadShape &&
           threadShape == other.threadShape;
  }
};

/// GetTShape's answers for one space, by (threads, block shape, fetch
/// shape): the search behind them is the costly part of the trial
/// estimator, which asks the same questions of alpha's space once per
/// sampled program of beta.
using ThreadShapeCache =
    std::map<std::vector<int64_t>, std::optional<ThreadShape>>;

/// The cost models of one multi_level_tiling or tensor_core space. Block,
/// thread and fetch shapes are per space loop (block, thread) or per
/// reduction loop (fetch), in loop order. The model reads the operands
/// staged in shared memory, or every input when the sketch stages none. A
/// tensor_core space takes its block and fetch shapes in whole instructions
/// (its loop extents divided by the instruction's, getMmaLevelExtents); its
/// thread shapes are warps, chosen by EtoStrategy, not by GetTShape.
class ShapeCostModel {
public:
  /// The model of `space`, which must outlive it; fails unless its sketch
  /// is a multi_level_tiling "SSSRRSRS" or a tensor_core "SSRRSSR".
  static llvm::Expected<ShapeCostModel> get(const SearchSpace &space,
                                            const EtoOptions &options);

  /// BShape cost: cache lines of `options.cacheLineBytes` that all blocks
  /// request to load their inputs from global memory, each block its whole
  /// input (every reduction step) at once, every block as many as block 0
  /// (whose footprint starts at the origin, aligned to a line). Consecutive
  /// rows of a footprint are one run when they cover the operand's inner
  /// dimensions completely.
  int64_t getBlockShapeCost(ArrayRef<int64_t> blockShape) const;

  /// TShape cost: the conflict-free shared-memory requests of all threads
  /// of a block for one reduction step. Each thread loads each element of
  /// its footprint once; a warp's load is split into one request per
  /// distinct word in its most loaded bank (lanes reading one word share
  /// it). Threads are numbered with the last space loop fastest, and a
  /// thread's first output is its thread index times its outputs per loop.
  int64_t getThreadShapeCost(ArrayRef<int64_t> blockShape,
                             ArrayRef<int64_t> fetchShape,
                             const ThreadShape &threadShape) const;

  /// Shared memory of one block, in elements.
  int64_t getSharedElements(ArrayRef<int64_t> blockShape,
                            ArrayRef<int64_t> fetchShape) const;

  /// Every block count some block shape gives (products of divisors of the
  /// space extents, in instructions for tensor cores), increasing.
  SmallVector<int64_t> getBlockCounts() const;

  /// GetBShape: among block shapes whose extents divide the space extents
  /// and that make `blocks` blocks, the one of least BShape cost; ties go to
  /// the smaller input footprint of a block, then to the first in
  /// enumeration order (larger extents of outer loops first).
  /// std::nullopt when no shape makes `blocks` blocks.
  std::optional<SmallVector<int64_t>> getBlockShape(int64_t blocks) const;

  /// Every LShape with at most one extent above 1 (each a divisor of its
  /// reduction loop), all-ones first, then per reduction loop by increasing
  /// fetches.
  SmallVector<SmallVector<int64_t>> getFetchShapes() const;

  /// GetLShape: the LShape fetching along reduction loop `fetchLoop` (an
  /// index among the reduction loops) whose shared memory per block is
  /// closest (in ratio) to `targetSharedElements` among those within the
  /// device's shared memory per block; ties go to the smaller shared
  /// memory. When none fits, the one of least shared memory.
  SmallVector<int64_t> getFetchShape(ArrayRef<int64_t> blockShape,
                                     int64_t targetSharedElements,
                                     unsigned fetchLoop) const;

  /// The reduction loop (index among the reduction loops) with the largest
  /// extent, the first on ties; 0 without reduction loops.
  unsigned getLargestReductionLoop() const;

  /// GetTShape: among the thread shapes that give `threads` threads over
  /// all blocks of `blockShape` (so threads / blocks per block) with at
  /// most kMaxVirtualThreads virtual threads, whose config (buildTiles)
  /// passes SearchSpace::fitsTiles, the one of least TShape cost; ties go
  /// to fewer virtual threads, then to the first in enumeration order.
  /// std::nullopt when none.
  std::optional<ThreadShape> getThreadShape(int64_t threads,
                                            ArrayRef<int64_t> blockShape,
                                            ArrayRef<int64_t> fetchShape) const;

  const SearchSpace &getSpace() const { return *space; }

  /// Keeps getThreadShape's answers in `cache`, which other models of the
  /// same space (and options) may share; each model has its own otherwise.
  void shareThreadShapes(std::shared_ptr<ThreadShapeCache> cache) {
    threadShapes = std::move(cache);
  }

private:
  struct Operand {
    FootprintFunction footprint;
    /// Per result of the indexing map, the step of every loop (the map's
    /// value at the loop's unit vector minus its value at the origin).
    SmallVector<SmallVector<int64_t>> steps;
    SmallVector<int64_t> shape;
    int64_t elementBytes;
  };

  ShapeCostModel(const SearchSpace &space, const EtoOptions &options)
      : space(&space), options(options) {}

  /// getThreadShape's search for `perBlock` threads per block.
  std::optional<ThreadShape> searchThreadShape(int64_t perBlock,
                                               ArrayRef<int64_t> blockShape,
                                               ArrayRef<int64_t> fetchShape) const;

  /// The extent of `loop` in units of its granule (one instruction for
  /// tensor cores, one element otherwise): block and fetch counts divide it.
  int64_t getUnits(unsigned loop) const;
  /// The loop tile of a block: `blockShape` on space loops, the reduction
  /// extents divided by `fetchShape` (the whole extents when empty).
  SmallVector<int64_t> getLoopTile(ArrayRef<int64_t> blockShape,
                                   ArrayRef<int64_t> fetchShape) const;

  const SearchSpace *space;
  EtoOptions options;
  SmallVector<Operand> operands;
  SmallVector<unsigned> spaceLoops;
  SmallVector<unsigned> reductionLoops;
  /// Per loop, the extent that block and fetch shapes are multiples of.
  SmallVector<int64_t> granules;
  std::shared_ptr<ThreadShapeCache> threadShapes =
      std::make_shared<ThreadShapeCache>();
};

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_STRATEGIES_ETO_SHAPECOSTS_H
