//===- TileShape.h - Block and footprint shapes of plain tile vectors -*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The arithmetic behind getBlockTile, getThreadsPerBlock and getFootprint on
// plain tile vectors instead of a ConfigAttr. The tuner's search space checks
// millions of candidate tilings of which most are rejected; building and
// uniquing an attribute for each, and walking affine expressions for every
// footprint, cost it most of its time (docs/SearchSpace.md). The ConfigAttr
// forms in Schedule.h are implemented with these, so both agree by
// construction.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_TESSEL_IR_TILESHAPE_H
#define TESSEL_DIALECT_TESSEL_IR_TILESHAPE_H

#include "tessel/Dialect/Tessel/IR/Schedule.h"

namespace mlir {
namespace tessel {

/// Tile sizes of every loop, outermost level first, as in a ConfigAttr.
using LoopTiles = ArrayRef<SmallVector<int64_t>>;

/// The tiles of `config` as plain vectors.
SmallVector<SmallVector<int64_t>> getTileVectors(ConfigAttr config);

/// getBlockTile on plain tile vectors.
SmallVector<int64_t> getBlockTile(SketchAttr sketch, LoopTiles tiles,
                                  const LoopNest &nest);

/// The space level whose loops run on parallel threads: the thread level,
/// or the warp level of a tensor_core sketch (a warp's 32 lanes share its
/// tile); none for cross-thread reductions.
std::optional<unsigned> getBoundThreadLevel(SketchAttr sketch);

/// getThreadsPerBlock on plain tile vectors.
int64_t getThreadsPerBlock(SketchAttr sketch, LoopTiles tiles,
                           const LoopNest &nest);

/// The reduction loops whose staging level (their outermost) takes more
/// than one step: the loops a shared-memory staging loop iterates, and the
/// one a pipelined config (`stages` > 1) must have exactly one of.
SmallVector<unsigned> getMultiStepStagingLoops(LoopTiles tiles,
                                               const LoopNest &nest);

/// `expr` as `sum(coefficient * loop) + constant`: the (loop, coefficient)
/// terms in order of appearance (a loop may repeat) and the constant; false
/// when `expr` is not such a sum (mod, floordiv, a product of loops).
bool getLinearTerms(AffineExpr expr,
                    SmallVectorImpl<std::pair<unsigned, int64_t>> &terms,
                    int64_t &constant);

/// The footprint of an indexing map compiled once for repeated evaluation.
/// Every result that is a sum of constant-scaled loop indices spans
/// sum(|scale| * (tile - 1)) + 1 values over a tile; any other result is
/// bounded by the product of the tiles of the loops it reads.
class FootprintFunction {
public:
  explicit FootprintFunction(AffineMap map);

  /// Per result of the map, the number of distinct values it takes over a
  /// tile of `tile` iterations per loop.
  SmallVector<int64_t> getShape(ArrayRef<int64_t> tile) const;
  /// Extent of the last result (1 for a map without results).
  int64_t getInnermostExtent(ArrayRef<int64_t> tile) const;
  /// Number of elements the tile touches: the product of getShape().
  int64_t getElements(ArrayRef<int64_t> tile) const;

private:
  struct Result {
    /// (loop, |scale|) per term of an exact linear result; the loops read by
    /// the result, one entry per occurrence, otherwise.
    SmallVector<std::pair<unsigned, int64_t>> terms;
    bool linear = true;
  };
  int64_t getExtent(const Result &result, ArrayRef<int64_t> tile) const;

  SmallVector<Result> results;
};

/// The chunk of a shared tile of `shape` that one round of a cooperative
/// load moves: per dim a divisor of the extent, the innermost one a multiple
/// of `width`, at most `threads * width` elements, so that a round gives
/// each thread at most one vector of `width` elements. Among such chunks,
/// the one with the most elements (most threads busy), and among those the
/// one with the longest innermost runs (consecutive threads load
/// consecutive vectors). Threads beyond `product(chunk) / width` idle in
/// every round (the load is predicated: TVM's cooperative fetch does not
/// need the threads to divide the tile either). `width` must divide
/// `shape.back()`.
SmallVector<int64_t> getCooperativeLoadChunk(ArrayRef<int64_t> shape,
                                             int64_t threads, int64_t width);

/// The share of lanes that carry data over all rounds of that load:
/// elements / (rounds * threads * width), 1 when every round is full.
double getCooperativeLoadLaneUse(ArrayRef<int64_t> shape, int64_t threads,
                                 int64_t width);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_DIALECT_TESSEL_IR_TILESHAPE_H
