//===- ReuseAnalysis.h - ETO's reuse pairs, features and shapes -*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The analysis behind ETO's reuse tuner (Fang et al., PVLDB 2022, sections
// 3-5): when a task alpha may reuse the best program of a task beta
// (Definition 2), the features of a program (blocks, threads and shared
// memory, Equations 1-3), the shapes a multi_level_tiling config is made of
// (BShape, TShape, LShape) and the GetS rule that completes a config from
// them. See docs/Eto.md.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_STRATEGIES_ETO_REUSEANALYSIS_H
#define TESSEL_TUNING_STRATEGIES_ETO_REUSEANALYSIS_H

#include "tessel/Tuning/Search/SearchSpace.h"
#include "tessel/Tuning/Search/Task.h"
#include "tessel/Tuning/Strategies/Eto/Bridge.h"
#include "tessel/Tuning/Strategies/Eto/EtoOptions.h"

#include "llvm/Support/Error.h"

#include <string>

namespace mlir {
namespace tessel {

/// The outcome of Definition 2 on an ordered pair (alpha, beta).
struct ReuseCheck {
  /// Whether alpha may reuse beta's programs.
  bool reusable = false;
  /// Why not, naming the failing condition (empty when reusable).
  std::string reason;
  /// How alpha's loop extents compare with beta's.
  ExtentOrder order = ExtentOrder::Mismatched;
};

/// Definition 2: alpha and beta have the same op kind and the same sketches
/// (haveSameSketchStructure: fused consumers and inlined producers aside),
/// and alpha's loop extents are all <= or all >= beta's. The reason of a
/// failing size condition names the first loop on each side.
ReuseCheck checkReusePair(const TuningTask &alpha, const TuningTask &beta);

/// The features of a program (section 3).
struct ProgramFeatures {
  /// Thread blocks.
  int64_t blocks = 0;
  /// Threads over all blocks.
  int64_t threads = 0;
  /// Shared memory over all blocks, in elements (one staging step).
  int64_t sharedElements = 0;

  bool operator==(const ProgramFeatures &other) const {
    return blocks == other.blocks && threads == other.threads &&
           sharedElements == other.sharedElements;
  }
};

/// The shapes of a multi_level_tiling program (section 5.1).
struct ReuseShapes {
  /// BShape: per space loop, the extent one block computes.
  SmallVector<int64_t> blockShape;
  /// TShape, first part: per space loop, the virtual threads of a block.
  SmallVector<int64_t> vthreadShape;
  /// TShape, second part: per space loop, the outputs of one thread in one
  /// virtual-thread sub-area.
  SmallVector<int64_t> threadShape;
  /// LShape: per reduction loop, the cooperative fetches (staging steps).
  SmallVector<int64_t> fetchShape;

  bool operator==(const ReuseShapes &other) const {
    return blockShape == other.blockShape &&
           vthreadShape == other.vthreadShape &&
           threadShape == other.threadShape && fetchShape == other.fetchShape;
  }
};

/// Shared memory of one block under `tiles`, in elements: the footprints of
/// the staged operands of `space`'s sketch over the block tile.
int64_t getSharedElementsPerBlock(const SearchSpace &space, LoopTiles tiles);

/// The features of `config` in `space` (any sketch kind).
ProgramFeatures getProgramFeatures(const SearchSpace &space, ConfigAttr config);

/// The shapes of `config` in `space`; fails unless the sketch is a
/// multi_level_tiling "SSSRRSRS".
llvm::Expected<ReuseShapes> getReuseShapes(const SearchSpace &space,
                                           ConfigAttr config);

/// A closed interval of reals whose bounds were given in either order.
struct Interval {
  double lo = 0;
  double hi = 0;

  /// The interval between `a` and `b`, whichever is smaller.
  static Interval between(double a, double b);
  /// Whether `x` lies in the interval (relative tolerance 1e-9).
  bool contains(double x) const;
};

/// The ranges of alpha's features (Equations 1-3 and Algorithm 1).
struct FeatureRanges {
  Interval blocks;
  Interval threads;
  Interval sharedElements;
};

/// The ranges of alpha's features given beta's best program's: blocks
/// between B* times the lower-bound ratio of `options.blockLowerBound`
/// (|I(rL_beta)| / |I(rL_alpha)| or |I(L_beta)| / |I(L_alpha)|) and
/// B* |I(L_alpha)| / |I(L_beta)|; threads between T* and T* |I(L_alpha)| /
/// |I(L_beta)|; shared memory between M* and M* |I(L_alpha)| /
/// |I(L_beta)|. `*Iterations` are the products of all loop extents,
/// `*Reduction` those of the reduction loops.
FeatureRanges
computeFeatureRanges(const ProgramFeatures &beta, int64_t alphaIterations,
                     int64_t betaIterations, int64_t alphaReduction,
                     int64_t betaReduction, const EtoOptions &options);

/// GetS on one loop: the tiles of a loop of `extent` with `numLevels`
/// levels whose outer levels are `given`. The rest x = extent / product
/// (given) goes to the levels below: the innermost gets d, the smallest
/// divisor of x above 1 (1 when x = 1), the first remaining level x / d,
/// any level between 1. Fails when the given levels do not divide the
/// extent or are more than `numLevels`.
llvm::Expected<SmallVector<int64_t>>
completeTiles(int64_t extent, ArrayRef<int64_t> given, unsigned numLevels);

/// GetS: the tiles of a multi_level_tiling config of `space` with the given
/// shapes: per space loop [extent / block, vthread, block / (vthread *
/// thread outputs), then the thread outputs split by completeTiles], per
/// reduction loop [fetches, then the rest split by completeTiles]. Fails
/// when the shapes do not divide the extents.
llvm::Expected<SmallVector<SmallVector<int64_t>>>
buildTiles(const SearchSpace &space, const ReuseShapes &shapes);

/// The effect of auto-unroll value `unroll` on a config of `space` with
/// `tiles`: which loops of a thread it fully unrolls. multi_level_tiling:
/// the number of innermost nontrivial register loops (reduction level 1,
/// space level 3, reduction level 2, space level 4, each in loop order,
/// outermost first) whose cumulative trip count is at most `unroll`, as
/// TVM's auto_unroll_max_step unrolls. cross_thread_reduction: 1 per
/// unrolled loop of the serial reduction part and the combine over the
/// threads, as bits. two_level_injective: always 0 (no loop to unroll).
/// Unroll values of equal effect give the same program.
int64_t getUnrollEffect(const SearchSpace &space, LoopTiles tiles,
                        int64_t unroll);

/// The registers of a thread that ETO's default unroll matches (section
/// 5.1): the thread's outputs plus the input elements loaded in the
/// innermost loop body after unrolling (the footprint over the virtual
/// threads and the unrolled register loops).
int64_t estimateUnrolledRegisters(const SearchSpace &space, LoopTiles tiles,
                                  int64_t unroll);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_STRATEGIES_ETO_REUSEANALYSIS_H
